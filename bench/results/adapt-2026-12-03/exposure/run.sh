#!/bin/bash
# usage: run.sh PLAT(flat|tree) P LIBDIR ARGS... ; env passes through; HOSTFILE=F: the tree's
# ranks placed by F (e.g. test/adapt/tree64_round_robin.smpi-hosts), not in order
PLAT=$1; P=$2; LIB=$3; shift 3
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)" || exit 1
if [ $PLAT = flat ]; then X="-platform tools/platforms/bench/flat1024.xml -hostfile tools/platforms/bench/flat1024.hostfile"; else X="-platform tools/platforms/bench/tree1024.xml -hostfile ${HOSTFILE:-tools/platforms/bench/tree1024.smpi-hosts}"; fi
ARCOLL_MODEL=tools/platforms/cluster256.model.json flock /tmp/arcoll-mpi.lock smpirun -np $P $X --log=root.thres:critical --log=smpi_config.thres:warning --cfg=smpi/test:0 --cfg=smpi/privatize-libs:$LIB/libarcoll.so build/smpi/test/apps/coll_loop_arcoll "$@"
