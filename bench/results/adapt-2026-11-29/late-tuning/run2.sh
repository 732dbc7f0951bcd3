#!/bin/bash
# usage: run2.sh PLAT COLL P SCEN [TUNING_OUT] [TUNING]   (PLAT flat|tree)
cd /work/main
plat=$1 c=$2 P=$3 s=$4 out=${5:-} in=${6:-}
if [ $plat = flat ]; then X=flat1024.xml H=flat1024.hostfile; else X=tree1024.xml H=tree1024.smpi-hosts; fi
env ${out:+ARCOLL_TUNING_OUT=$out} ${in:+ARCOLL_TUNING=$in} ARCOLL_MODEL=tools/platforms/cluster256.model.json timeout 900 flock /tmp/arcoll-mpi.lock smpirun -np $P -platform tools/platforms/bench/$X -hostfile tools/platforms/bench/$H --cfg=smpi/test:0 --cfg=smpi/privatize-libs:/work/res/rerun/lib/libarcoll.so --log=root.thres:critical /work/res/rerun/lib/coll_loop_arcoll -c $c -m 32768 -n 200 -s $s 2>/dev/null | grep RESULT | sed 's/.*inside_sum=\([^ ]*\) loop=\([^ ]*\).*/\1 \2/'
