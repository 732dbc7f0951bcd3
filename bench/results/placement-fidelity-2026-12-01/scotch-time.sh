#!/bin/bash
# METIS against Scotch on the pairs' message times, in the count model, on every suite trace.
#   bench/results/placement-fidelity-2026-12-01/scotch-time.sh ARCOLL SUITE_DIR OUT_DIR
# ARCOLL: build/tools/arcoll; SUITE_DIR: a `tools/placement-experiments.sh --suite` --out directory
# (its seed001/ and node16/ traces); OUT_DIR: where the mappings and --json reports go.
# Prints one line per trace: the written stage, its count-model time (s) and max link load.
set -euo pipefail
A=$1 D=$2 O=$3
R=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$O"
for m in seed001 node16; do
  P=$R/tools/platforms/placement/$m
  for t in "$D"/$m/*.arctrace; do
    w=$(basename "$t" .arctrace)
    line="$m $w"
    for s in metis_time scotch_time; do
      # shellcheck disable=SC2046 # the .params file is a list of options
      "$A" place "$t" --topology $P.topology.conf --hosts $P.hosts $(cat $P.params) --json --seed 1 \
        --strategy $s --format slurm -o "$O/$m-$w-$s.hosts" > "$O/$m-$w-$s.json"
      line+=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
c = next(x for x in j["stages"] if x["name"] == j["chosen"])
print(" | %s: count %.5f s, max link load %d" % (c["name"], c["time_s"], c["max_congestion"]))' "$O/$m-$w-$s.json")
    done
    echo "$line"
  done
done
