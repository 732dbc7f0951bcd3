#!/bin/sh
# Fidelity test of the profiler's cause analysis under SMPI: runs the
# SMPI-built fidelity_app (linked with the SMPI libarcoll_profiler.so) on NP
# simulated hosts (cluster, 1 us links; simulated computation only), then
# fidelity_check compares the trace's analysis with the injected delays.
# MPICH's collective algorithms (smpi/coll-selector:mpich): SMPI's default
# allgather sends P^2 messages and makes 1024 ranks impractically slow.
# usage: run_fidelity.sh SMPIRUN NP PROFILER_SO APP CHECKER WORKDIR [SEED [ITERS]]
set -u
smpirun=$1 np=$2 lib=$3 app=$4 checker=$5 dir=$6 seed=${7:-17} iters=${8:-30}
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
cat > platform.xml <<XML
<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd"><platform version="4.1"><cluster id="c" prefix="node-" suffix="" radical="0-$((np - 1))" speed="1Gf" bw="1.25GBps" lat="1us" bb_bw="100GBps" bb_lat="1us"/></platform>
XML
i=0; : > hostfile
while [ $i -lt "$np" ]; do echo "node-$i" >> hostfile; i=$((i + 1)); done
export ARCOLL_TRACE="$dir/t.arctrace"
start=$(date +%s)
"$smpirun" -np "$np" -platform platform.xml -hostfile hostfile \
  --cfg=smpi/privatize-libs:"$lib" --cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:mpich \
  --log=root.thres:warning \
  "$app" "$seed" "$iters" > out.txt 2> err.txt
rc=$?
cat out.txt err.txt
echo "run_fidelity: smpirun took $(( $(date +%s) - start )) s of wall time"
[ $rc -eq 0 ] || { echo "run_fidelity: FAIL: smpirun exited with $rc"; exit 1; }
grep -q "^arcoll: ranks causing waiting" err.txt || { echo "run_fidelity: FAIL: no cause ranking in the summary"; exit 1; }
"$checker" "$dir/t.arctrace" "$np" "$seed" "$iters" || { echo "run_fidelity: FAIL: fidelity_check"; exit 1; }
echo "run_fidelity: OK"
