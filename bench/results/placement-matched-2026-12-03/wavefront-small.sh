#!/bin/bash
# The wavefront's miss in small: `wavefront -b 65536 -i 1 -k K` on NP ranks of seed001's platform, every
# neighbour on another leaf (c = one 64 KiB message across the top switch alone, 604.3 us), SimGrid's plain
# CM02 model against the critical paths of its own trace. usage: wavefront-small.sh SUITE_DIR (a suite
# --out holding seed001/platform.xml); run from the repository root after building.
set -e
S=$1; P=$S/seed001/platform.xml; W=build/smpi/test/workloads; PL=tools/platforms/placement
read -ra links < $PL/seed001.params
T=$(mktemp -d); all="node01 node05 node09 node13 node02 node06 node10 node14"
for np in 2 4 8; do for k in 1 2; do
  echo $all | tr ' ' '\n' | head -$np > $T/h.hosts
  ARCOLL_TRACE=$T/t.arctrace ARCOLL_PAPI=0 flock /tmp/arcoll-mpi.lock smpirun -platform $P -hostfile $T/h.hosts -np $np \
    --cfg=smpi/simulate-computation:no --log=root.thres:critical \
    --cfg=smpi/privatize-libs:$PWD/build/smpi/profiler/libarcoll_profiler.so $W/wavefront_prof -b 65536 -i 1 -k $k >/dev/null 2>&1
  c=$(flock /tmp/arcoll-mpi.lock smpirun -platform $P -hostfile $T/h.hosts -np $np --cfg=smpi/simulate-computation:no \
    --log=root.thres:critical --cfg=network/model:CM02 $W/wavefront -b 65536 -i 1 -k $k | grep -o "comm_time_s=[^ ]*" | cut -d= -f2)
  m=$(build/tools/arcoll place $T/t.arctrace --topology $PL/seed001.topology.conf --hosts $PL/seed001.hosts "${links[@]}" \
    --json --fluid-path --evaluate $T/h.hosts | python3 -c "import json,sys;e=json.load(sys.stdin)['evaluate'];print('free %.4e fluid %.4e'%(e['critical_path_free_s'],e['critical_path_fluid_s']))")
  echo "np $np k $k CM02 $c model $m"
done; done
rm -rf "$T"
