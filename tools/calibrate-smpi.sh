#!/usr/bin/env bash
# calibrate-smpi.sh: write the SMPI-calibrated model file of a platform, e.g.
# tools/platforms/cluster256.model.json (read by the selector through
# ARCOLL_MODEL; tools/coll-bench.sh uses it by default).
#
# Runs arcoll-calibrate (built by the nested SMPI build) under smpirun with
# 2 ranks on two different hosts of the platform, so the inter-node class is
# measured (the intra class is copied from it and the file says so), with the
# benchmark's SMPI options (no simulated computation: gamma comes out ~0).
#
# Usage: tools/calibrate-smpi.sh [PLATFORM.xml [OUT.json [HOST_A HOST_B]]]
#   defaults: tools/platforms/cluster256.xml, tools/platforms/cluster256.model.json, node-0 node-1
# Environment: ARCOLL_BUILD_DIR (default build).  Takes /tmp/arcoll-mpi.lock.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PLAT=${1:-$ROOT/tools/platforms/cluster256.xml}
OUT=${2:-$ROOT/tools/platforms/cluster256.model.json}
HA=${3:-node-0}
HB=${4:-node-1}
BUILD=${ARCOLL_BUILD_DIR:-$ROOT/build}
BIN=$BUILD/smpi/tools/arcoll-calibrate
[ -x "$BIN" ] || { echo "calibrate-smpi.sh: $BIN not found; build first (tools/setup.sh)" >&2; exit 2; }
hosts=$(mktemp)
trap 'rm -f "$hosts"' EXIT
printf '%s\n%s\n' "$HA" "$HB" > "$hosts"
flock /tmp/arcoll-mpi.lock timeout 900 smpirun -np 2 -platform "$PLAT" -hostfile "$hosts" \
  --log=root.thres:warning --log=smpi_config.thres:warning \
  --cfg=smpi/simulate-computation:no "$BIN" -o "$OUT" -r 10
