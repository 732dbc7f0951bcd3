#!/bin/bash
# mrun.sh PLAT P SELECTOR ARGS...  (SMPI selector, plain coll_loop)
PLAT=$1; P=$2; S=$3; shift 3
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)" || exit 1
if [ $PLAT = flat ]; then X="-platform tools/platforms/bench/flat1024.xml -hostfile tools/platforms/bench/flat1024.hostfile"; else X="-platform tools/platforms/bench/tree1024.xml -hostfile tools/platforms/bench/tree1024.smpi-hosts"; fi
flock /tmp/arcoll-mpi.lock smpirun -np $P $X --log=root.thres:critical --log=smpi_config.thres:warning --cfg=smpi/test:0 --cfg=smpi/coll-selector:$S build/smpi/test/apps/coll_loop "$@"
