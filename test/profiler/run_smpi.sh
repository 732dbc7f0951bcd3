#!/bin/sh
# SMPI smoke test of the profiler: runs the SMPI-built p2p_pattern (linked
# with the SMPI libarcoll_profiler.so) on NP simulated hosts, then checks the
# trace like the MPICH p2p test (the delay of the last rank is simulated).
# usage: run_smpi.sh SMPIRUN NP PROFILER_SO APP CHECKER WORKDIR [SOURCE]
# SOURCE: APP's source (built with -g): call sites must be named SOURCE:LINE.
set -u
smpirun=$1 np=$2 lib=$3 app=$4 checker=$5 dir=$6 src=${7:-}
site_args=""
[ -z "$src" ] || site_args="--source $(basename "$src")"
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
cat > platform.xml <<'XML'
<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd"><platform version="4.1"><cluster id="c" prefix="node-" suffix="" radical="0-255" speed="1Gf" bw="1.25GBps" lat="1us" bb_bw="100GBps" bb_lat="1us"/></platform>
XML
i=0; : > hostfile
while [ $i -lt "$np" ]; do echo "node-$i" >> hostfile; i=$((i + 1)); done
export ARCOLL_TRACE="$dir/t.arctrace"
"$smpirun" -np "$np" -platform platform.xml -hostfile hostfile \
  --cfg=smpi/privatize-libs:"$lib" --log=root.thres:warning "$app" > out.txt 2> err.txt
rc=$?
cat out.txt err.txt
[ $rc -eq 0 ] || { echo "run_smpi: FAIL: smpirun exited with $rc"; exit 1; }
grep -q "^arcoll: trace $dir/t.arctrace: $np ranks" err.txt || { echo "run_smpi: FAIL: no summary"; exit 1; }
"$checker" p2p "$dir/t.arctrace" "$np" $site_args || { echo "run_smpi: FAIL: trace_check"; exit 1; }
echo "run_smpi: OK"
