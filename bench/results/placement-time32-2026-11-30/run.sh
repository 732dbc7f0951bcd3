#!/bin/bash
# Mapping time: `arcoll place` with its defaults (the suite's link parameters, seed 1) on the
# placement suite's ten traces of one machine, one at a time, wall time per trace.
# usage: run.sh ARCOLL_BINARY SUITE_DIR OUT_DIR [MACHINE]
#   SUITE_DIR: the --out of `tools/placement-experiments.sh --suite` (its MACHINE/*.arctrace)
#   MACHINE: seed001 (32 ranks on 16 hosts, the default) or node16 (64 ranks on 4 hosts)
# Writes OUT_DIR/<workload>.hosts and .log; prints "workload wall s".
set -e
bin=$1 suite=$2 out=$3 machine=${4:-seed001}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
PL=$ROOT/tools/platforms/placement
params=$PL/$machine.params
[ -f "$params" ] || { echo "run.sh: MACHINE $machine: no $params (seed001, node16)" >&2; exit 2; }
read -ra links < "$params"
mkdir -p "$out"
for tr in "$suite"/$machine/*.arctrace; do
  w=$(basename "$tr" .arctrace)
  s=$(date +%s.%N)
  "$bin" place "$tr" --topology "$PL/$machine.topology.conf" --hosts "$PL/$machine.hosts" --seed 1 \
    "${links[@]}" --format slurm -o "$out/$w.hosts" > "$out/$w.log" 2>&1
  e=$(date +%s.%N)
  printf "%-18s wall %6.2f s\n" "$w" "$(echo "$e - $s" | bc)"
done
