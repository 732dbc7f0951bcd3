#!/usr/bin/env bash
# model-check.sh: measure collective algorithms under SMPI and compare with the
# model's predictions (collectives/README.md, "Checking the model against SMPI").
#
# Runs bench/smpi_coll_bench (nested SMPI build) on tools/platforms/cluster256.xml
# and pipes its CSV into <build>/tools/model_compare, which prints measured vs
# predicted seconds per configuration, the oracle, the configuration the model
# ranks first and arcoll_select's choice, with their penalties.
#
# Usage: tools/model-check.sh [-P N] [-c COLL] [-s SIZES] [-a ALGOS] [-g SEGS] [-m MODEL.json]
#   defaults: -P 64 -c bcast -s 1K,4M -a binomial,chain -g 0,4K,8K,64K
#             -m tools/platforms/cluster256.model.json ; -a all = every algorithm
# Environment: ARCOLL_BUILD_DIR (default build).  Each smpirun takes /tmp/arcoll-mpi.lock.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${ARCOLL_BUILD_DIR:-$ROOT/build}
P=64 COLL=bcast SIZES=1K,4M ALGOS=binomial,chain SEGS=0,4K,8K,64K
MODEL=$ROOT/tools/platforms/cluster256.model.json
while getopts "P:c:s:a:g:m:h" o; do
  case $o in
    P) P=$OPTARG ;; c) COLL=$OPTARG ;; s) SIZES=$OPTARG ;; a) ALGOS=$OPTARG ;;
    g) SEGS=$OPTARG ;; m) MODEL=$OPTARG ;;
    *) sed -n 2,14p "$0"; exit 2 ;;
  esac
done
BENCH=$BUILD/smpi/bench/smpi_coll_bench
CMP=$BUILD/tools/model_compare
for f in "$BENCH" "$CMP"; do
  [ -x "$f" ] || { echo "model-check.sh: $f not found; build first (tools/setup.sh)" >&2; exit 2; }
done
algo_args=()
[ "$ALGOS" = all ] || algo_args=(--algos "$ALGOS")
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT
ARCOLL_MODEL=$MODEL flock /tmp/arcoll-mpi.lock timeout 1800 smpirun -np "$P" \
  -platform "$ROOT/tools/platforms/cluster256.xml" -hostfile "$ROOT/tools/platforms/cluster256.hostfile" \
  --log=root.thres:warning --log=smpi_config.thres:warning \
  --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global \
  --cfg=smpi/auto-shared-malloc-thresh:65536 \
  "$BENCH" --coll "$COLL" --sizes "$SIZES" --mode algos --segs "$SEGS" "${algo_args[@]}" > "$csv"
"$CMP" "$MODEL" < "$csv"
