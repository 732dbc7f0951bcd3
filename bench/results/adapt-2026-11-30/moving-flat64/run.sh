#!/bin/bash
# usage: mv.sh NAME [ENV=VAL ...] -- extra coll_loop args
name=$1; shift
envs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
[ "$1" = "--" ] && shift
cd /work/main
B=/work/mib-bcast/bin
export ARCOLL_MODEL=/work/main/tools/platforms/cluster256.model.json
start=$(date +%s)
flock /tmp/arcoll-mpi.lock timeout 900 env "${envs[@]}" smpirun -np 64 -platform tools/platforms/bench/flat1024.xml -hostfile tools/platforms/bench/flat1024.hostfile --log=root.thres:critical --log=smpi_config.thres:warning --cfg=smpi/test:0 --cfg=smpi/privatize-libs:$B/libarcoll.so $B/coll_loop_arcoll "$@" > /work/mv-$name.txt 2>&1
echo "$name: $(( $(date +%s) - start )) s $(grep RESULT /work/mv-$name.txt)"
