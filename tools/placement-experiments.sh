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
#   tools/placement-experiments.sh --suite [--workloads LIST] [--settings LIST] [--out DIR]
#       the chooser suite (tools/placement_suite.py): SMPI time of every
#       strategy / identity per workload, the default pick marked, and whether
#       it is within 5 % of the best strategy
#
# Needs the MPICH build with its nested SMPI build (default DIR: build/).
# The logic is in tools/placement_experiments.py.
for arg in "$@"; do
  [ "$arg" = --suite ] && exec python3 "$(dirname "$0")/placement_suite.py" "$@"
done
exec python3 "$(dirname "$0")/placement_experiments.py" "$@"
