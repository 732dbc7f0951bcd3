#!/bin/bash
# run.sh THRESH COL SCEN [VAR=VALUE...]: one SMPI run, flat cluster (PLAT=tree: the two-level
# tree), P = 256 (or P), 32 KiB gather,
# 200 calls, coll_loop -s SCEN, sends of THRESH bytes and more not detached
# (--cfg=smpi/send-is-detached-thresh:THRESH; SMPI's default 65536 makes 32 KiB sends eager);
# COL mpich / ompi (SMPI's selectors, the plain binary) or anything else (libarcoll, the env
# settings given).  BIN: coll_loop and coll_loop_arcoll built with smpicc, LIB: libarcoll.so
# (default: the repo's build/smpi; the runs of results.txt used the table's copies, bin/ of
# tools/adapt-bench.sh, of d86a6a1's library).
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)" || exit 1
T=$1 COL=$2 SCEN=$3; shift 3
B=${BIN:-build/smpi/test/apps} LIB=${LIB:-build/smpi/adapt/libarcoll.so}
PLAT=${PLAT:-flat} NP=${P:-256}
X="-platform tools/platforms/bench/flat1024.xml -hostfile tools/platforms/bench/flat1024.hostfile"
[ "$PLAT" = tree ] && X="-platform tools/platforms/bench/tree1024.xml -hostfile tools/platforms/bench/tree1024.smpi-hosts"
case $COL in
  mpich|ompi) cfg="--cfg=smpi/coll-selector:$COL"; bin=$B/coll_loop ;;
  *) cfg="--cfg=smpi/privatize-libs:$LIB"; bin=$B/coll_loop_arcoll ;;
esac
env "$@" ARCOLL_MODEL=tools/platforms/cluster256.model.json flock /tmp/arcoll-mpi.lock smpirun -np $NP $X --log=root.thres:critical --log=smpi_config.thres:warning --cfg=smpi/test:0 --cfg=smpi/send-is-detached-thresh:$T $cfg $bin -c gather -m 32768 -n 200 -s $SCEN | grep RESULT | sed "s/^/$PLAT T=$T $COL $* /"
