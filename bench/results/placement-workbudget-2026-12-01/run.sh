#!/bin/bash
# The refinement's work budget (arcoll place --max-step-evals, placement/refine.hpp
# kDefaultStepEvalsPerRank): `arcoll place` with its defaults (the suite's link parameters, seed 1)
# and with --max-step-evals 0 (no work bound: the search as before the budget) on the placement
# suite's traces of one machine, from the in-order and a random start, one run after the other;
# prints the wall seconds of both, the refinement's candidate and whole-step evaluations (--json)
# and whether the two written mappings are byte-identical.
# usage: run.sh ARCOLL_BINARY SUITE_DIR OUT_DIR [MACHINE]
#   SUITE_DIR: the --out of `tools/placement-experiments.sh --suite` (its MACHINE/*.arctrace)
#   MACHINE: seed001 (32 ranks on 16 hosts, the default), node16 (64 ranks on 4 hosts) or fattree1024
set -e
bin=$1 suite=$2 out=$3 machine=${4:-seed001}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
PL=$ROOT/tools/platforms/placement
params=$PL/$machine.params
[ -f "$params" ] || { echo "run.sh: MACHINE $machine: no $params (seed001, node16, fattree1024)" >&2; exit 2; }
read -ra links < "$params"
mkdir -p "$out"
printf "%-8s %-8s %-18s %9s %9s %9s %12s %12s %12s %s\n" machine start workload "wall" "wall-0" \
  "cands" "cands-0" "steps" "steps-0" mapping
for init in in-order random; do
  for tr in "$suite"/$machine/*.arctrace; do
    w=$(basename "$tr" .arctrace)
    declare -A wall cands steps
    for v in budget nobound; do
      extra=()
      [ $v = nobound ] && extra=(--max-step-evals 0)
      s=$(date +%s.%N)
      "$bin" place "$tr" --topology "$PL/$machine.topology.conf" --hosts "$PL/$machine.hosts" --seed 1 \
        "${links[@]}" --initial $init --format slurm -o "$out/$w-$init.$v.hosts" --json "${extra[@]}" \
        > "$out/$w-$init.$v.json" 2> "$out/$w-$init.$v.err"
      e=$(date +%s.%N)
      wall[$v]=$(echo "$e - $s" | bc)
      read -r cands[$v] steps[$v] < <(python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
s=[s for s in d['stages'] if 'step_evaluations' in s][-1]
print(s['evaluations'], s['step_evaluations'])" "$out/$w-$init.$v.json")
    done
    same=different
    cmp -s "$out/$w-$init.budget.hosts" "$out/$w-$init.nobound.hosts" && same=identical
    printf "%-8s %-8s %-18s %9.2f %9.2f %9d %12d %12d %12d %s\n" $machine $init $w ${wall[budget]} \
      ${wall[nobound]} ${cands[budget]} ${cands[nobound]} ${steps[budget]} ${steps[nobound]} $same
  done
done
