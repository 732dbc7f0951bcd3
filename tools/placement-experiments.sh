#!/bin/sh
# Placement experiments of issue 4: profile each workload (test/workloads/)
# under SimGrid SMPI, map it with `arcoll place` (identity, hopbytes, metis,
# scotch, refined; from the in-order and from a random initial mapping),
# rerun it with every mapping and print model cost, simulated communication
# time and gain vs identity, plus the Spearman rank correlation between the
# model's cost and the simulated time over >= 20 mappings.
#
#   tools/placement-experiments.sh [--build DIR] [--quick] [--settings LIST] [--out DIR] ...
#   tools/placement-experiments.sh --help      # every option
#
# Needs the MPICH build with its nested SMPI build (default DIR: build/).
# The logic is in tools/placement_experiments.py.
exec python3 "$(dirname "$0")/placement_experiments.py" "$@"
