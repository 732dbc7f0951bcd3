#!/bin/bash
# wcmp.sh PLAT P COLL M "SCENS" WORK : auto / nochain / mpich selector, summed inside and loop
PLAT=$1; P=$2; C=$3; M=$4; SCENS=$5; W=$6
cd /work/main
if [ $PLAT = flat ]; then X="-platform tools/platforms/bench/flat1024.xml -hostfile tools/platforms/bench/flat1024.hostfile"; else X="-platform tools/platforms/bench/tree1024.xml -hostfile tools/platforms/bench/tree1024.smpi-hosts"; fi
F="--log=root.thres:critical --log=smpi_config.thres:warning --cfg=smpi/test:0"
get(){ grep RESULT | sed -E 's/.*inside_sum=([^ ]+) loop=([^ ]+) errors=([^ ]+).*/\1 \2 e\3/'; }
for s in $SCENS; do
 a=$(ARCOLL_MODEL=tools/platforms/cluster256.model.json smpirun -np $P $X $F --cfg=smpi/privatize-libs:${LIB:-/tmp/w/b48}/libarcoll.so build/smpi/test/apps/coll_loop_arcoll -c $C -m $M -s $s -w $W 2>&1 | get)
 b=$(ARCOLL_LATE_CHAIN=off ARCOLL_MODEL=tools/platforms/cluster256.model.json smpirun -np $P $X $F --cfg=smpi/privatize-libs:${LIB:-/tmp/w/b48}/libarcoll.so build/smpi/test/apps/coll_loop_arcoll -c $C -m $M -s $s -w $W 2>&1 | get)
 c=$(smpirun -np $P $X $F --cfg=smpi/coll-selector:mpich build/smpi/test/apps/coll_loop -c $C -m $M -s $s -w $W 2>&1 | get)
 echo "$PLAT P=$P $C $M $s w=$W | auto $a | nochain $b | mpich $c"
done
