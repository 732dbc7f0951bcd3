#!/bin/bash
# rr.sh tree 64 LIBDIR ARGS...: run.sh's tree run at P = 64 with the ranks placed round-robin
# over the first four leaf switches (test/adapt/tree64_round_robin.smpi-hosts: rank r on
# switch r % 4);
# pairs.sh takes it as RUN=.../rr.sh
[ "$1 $2" = "tree 64" ] || { echo "rr.sh: tree 64 only" >&2; exit 2; }
LIB=$3; shift 3
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)" || exit 1
H=test/adapt/tree64_round_robin.smpi-hosts
ARCOLL_MODEL=tools/platforms/cluster256.model.json flock /tmp/arcoll-mpi.lock smpirun -np 64 \
  -platform tools/platforms/bench/tree1024.xml -hostfile "$H" --log=root.thres:critical \
  --log=smpi_config.thres:warning --cfg=smpi/test:0 --cfg=smpi/privatize-libs:$LIB/libarcoll.so \
  build/smpi/test/apps/coll_loop_arcoll "$@"
