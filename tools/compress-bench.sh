#!/usr/bin/env bash
# compress-bench.sh: seed 004 (004_045dc3534e1f0a8b.txt, ZipMPI)'s setting
# under SimGrid SMPI - 20 nodes on 100 Mb/s (tools/platforms/slow20.xml),
# smpi/simulate-computation:yes so the codecs' CPU time counts - MPI_Bcast
# of 1 MiB and 4 MiB, MPI_Allgather and MPI_Gather (root 0) of 1 MiB and
# 4 MiB in all (blocks of 1/20th), MPI_Alltoall of 1 MiB and 4 MiB sent by
# each rank (blocks of 1/20th), of text-like and of random bytes, three ways:
#   auto : libarcoll, ARCOLL_COMPRESS=auto (the online selection with
#          `compressed` among its candidates; the root decides per call)
#   off  : libarcoll, ARCOLL_COMPRESS=off (the same selection without it)
#   smpi : SMPI's own collective, mpich selector (ARCOLL_<COLL>_ALGORITHM=pmpi)
# Both libarcoll runs use the SMPI-calibrated model of the platform
# (tools/platforms/slow20.model.json, tools/calibrate-smpi.sh).  Prints one
# table: mean time per call over the last STEADY calls (after the online
# exploration) and over all ITERS calls, and the ratios off/auto, smpi/auto.
# --cfg=smpi/test:0: no injected time in MPI_Test* (tools/adapt-bench.sh says why).
# A benchmark, not a test.  Takes /tmp/arcoll-mpi.lock for every smpirun.
#
# Usage: tools/compress-bench.sh [--iters N (30)] [--steady N (10)] [--sizes "1048576 4194304"]
#                               [--colls "bcast allgather gather alltoall"] [--kinds "text random"]
#                               [--ideal]
#   --ideal: smpi/bw-factor:0:1 and smpi/lat-factor:0:1 (SMPI's default factors
#   give messages below 64 KiB 34-109 % of the bandwidth and 1.6-2x the
#   latency, which compressed segments, being small, pay most)
# Environment: ARCOLL_BUILD_DIR (default build).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${ARCOLL_BUILD_DIR:-$ROOT/build}
ITERS=30 STEADY=10 SIZES="1048576 4194304" FACTORS=() COLLS="bcast allgather gather alltoall"
KINDS="text random"
while [ $# -gt 0 ]; do
  case $1 in
    --iters) ITERS=$2; shift 2 ;;
    --steady) STEADY=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    --colls) COLLS=$2; shift 2 ;;
    --kinds) KINDS=$2; shift 2 ;;
    --ideal) FACTORS=(--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1); shift ;;
    -h|--help) sed -n 2,24p "$0"; exit 0 ;;
    *) echo "compress-bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
BIN=$BUILD/smpi/bench/smpi_compress_bench
LIB=$BUILD/smpi/adapt/libarcoll.so
PLAT=$ROOT/tools/platforms/slow20.xml
HOSTS=$ROOT/tools/platforms/slow20.hostfile
MODEL=$ROOT/tools/platforms/slow20.model.json
for f in "$BIN" "$LIB" "$MODEL"; do
  [ -e "$f" ] || { echo "compress-bench.sh: $f missing (build with tools/setup.sh; model: tools/calibrate-smpi.sh $PLAT $MODEL)" >&2; exit 2; }
done
run() { # config coll bytes kind -> RESULT line
  local cfg=$1 coll=$2 bytes=$3 kind=$4 env=()
  case $cfg in
    auto) env=(ARCOLL_COMPRESS=auto ARCOLL_MODEL=$MODEL) ;;
    off) env=(ARCOLL_COMPRESS=off ARCOLL_MODEL=$MODEL) ;;
    smpi) env=(ARCOLL_BCAST_ALGORITHM=pmpi ARCOLL_ALLGATHER_ALGORITHM=pmpi
               ARCOLL_GATHER_ALGORITHM=pmpi ARCOLL_ALLTOALL_ALGORITHM=pmpi) ;;
  esac
  env "${env[@]}" flock /tmp/arcoll-mpi.lock smpirun -np 20 -platform "$PLAT" -hostfile "$HOSTS" \
    --cfg=smpi/privatize-libs:"$LIB" --cfg=smpi/simulate-computation:yes \
    --cfg=smpi/host-speed:1Gf --cfg=smpi/test:0 --cfg=smpi/coll-selector:mpich ${FACTORS[@]+"${FACTORS[@]}"} \
    --log=root.thres:warning --log=smpi_config.thres:warning \
    "$BIN" "$coll" "$bytes" "$kind" "$ITERS" "$STEADY" | grep '^RESULT'
}
printf '%-9s %-7s %-8s | %-24s | %-24s | %-10s | %-8s %-8s | %s\n' coll kind bytes \
  "auto: steady / all (s)" "off: steady / all (s)" "smpi (s)" off/auto smpi/auto "auto's last call"
for coll in $COLLS; do
 for kind in $KINDS; do
  for bytes in $SIZES; do
    amis= omis= smis=
    read -r _ _ _ _ aa as aalg acod amis < <(run auto "$coll" "$bytes" "$kind")
    read -r _ _ _ _ oa os _ _ omis < <(run off "$coll" "$bytes" "$kind")
    read -r _ _ _ _ sa ss _ _ smis < <(run smpi "$coll" "$bytes" "$kind")
    printf '%-9s %-7s %-8s | %10.4f / %10.4f | %10.4f / %10.4f | %10.4f | %7.2fx %7.2fx | %s %s\n' \
      "$coll" "$kind" "$bytes" "$as" "$aa" "$os" "$oa" "$ss" \
      "$(echo "$os / $as" | bc -l)" "$(echo "$ss / $as" | bc -l)" "$aalg" \
      "$acod${amis:+ auto:$amis}${omis:+ off:$omis}${smis:+ smpi:$smis}"
  done
 done
done
