#!/usr/bin/env bash
# run.sh PLAT COLL BYTES SCEN [ENV=V ...]: one coll_loop_arcoll run (200 calls), prints RESULT line
set -eu
R=$(cd "$(dirname "$0")/../../../.." && pwd); PLAT=$R/tools/platforms/bench
plat=$1 coll=$2 m=$3 scen=$4; shift 4
case $plat in flat) pa="-platform $PLAT/flat1024.xml -hostfile $PLAT/flat1024.hostfile";; tree) pa="-platform $PLAT/tree1024.xml -hostfile $PLAT/tree1024.smpi-hosts";; esac
LIB=${LIB:-$R/build/smpi/adapt/libarcoll.so}
BIN=${BIN:-$R/build/smpi/test/apps/coll_loop_arcoll}
flock /tmp/arcoll-mpi.lock env -u ARCOLL_LATE_ORDER -u ARCOLL_LATE_DETACH ARCOLL_MODEL=$R/tools/platforms/cluster256.model.json "$@" \
  smpirun -np ${NP:-64} $pa --log=root.thres:critical --log=smpi_config.thres:warning --cfg=smpi/test:0 \
  --cfg=smpi/privatize-libs:$LIB $BIN -c $coll -m $m -n 200 -s $scen | grep '^RESULT' | sed "s/^RESULT/$plat $*/"
