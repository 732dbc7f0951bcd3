#!/bin/bash
# Mapping time at 32 ranks: `arcoll place` with its defaults (the suite's link parameters, seed 1)
# on the placement suite's ten seed001 traces, one at a time, wall time per trace.
# usage: run.sh ARCOLL_BINARY SUITE_DIR OUT_DIR
#   SUITE_DIR: the --out of `tools/placement-experiments.sh --suite` (its seed001/*.arctrace)
# Writes OUT_DIR/<workload>.hosts and .log; prints "workload wall s".
set -e
bin=$1 suite=$2 out=$3
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
PL=$ROOT/tools/platforms/placement
mkdir -p "$out"
for tr in "$suite"/seed001/*.arctrace; do
  w=$(basename "$tr" .arctrace)
  s=$(date +%s.%N)
  "$bin" place "$tr" --topology "$PL/seed001.topology.conf" --hosts "$PL/seed001.hosts" --seed 1 \
    --latency-us intra=1 --latency-us node=20 --latency-us switch=20 --bandwidth-gbps intra=40 \
    --bandwidth-gbps node=1 --bandwidth-gbps switch=1 --format slurm -o "$out/$w.hosts" > "$out/$w.log" 2>&1
  e=$(date +%s.%N)
  printf "%-18s wall %6.2f s\n" "$w" "$(echo "$e - $s" | bc)"
done
