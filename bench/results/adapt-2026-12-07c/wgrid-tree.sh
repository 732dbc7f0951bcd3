#!/bin/bash
# compute between calls on the two-level tree: every rank computes 1 ms (coll_loop -w 1e-3) before
# each call, one root, P = 64; SMPI's mpich and ompi selectors, then auto (LIB, default
# build/smpi/adapt).  SMPI's ompi reduce at 32 KiB is not simulated (1 KiB segments: over 15 min a
# run), so those rows run mpich and auto (as ../adapt-2026-12-07b/wgrid.sh on the flat cluster).
cd "$(dirname "$0")" || exit 1
TOP=$(git rev-parse --show-toplevel)
R=../adapt-2026-12-06f/rot.sh
$R wgrid-tree64.txt tree 64 "bcast" "8 32768" "balanced noise one_late" -w 1e-3
$R wgrid-tree64.txt tree 64 "reduce" "8" "balanced noise one_late" -w 1e-3
for s in balanced noise one_late; do
  r=$(timeout 900 ../adapt-2026-12-05/mrun.sh tree 64 mpich -c reduce -m 32768 -s $s -w 1e-3 2>&1 | grep RESULT)
  echo "mpich tree 64 -w 1e-3 | ${r:-TIMEOUT}" >> wgrid-tree64.txt
  r=$(timeout 900 ../adapt-2026-12-03/exposure/run.sh tree 64 ${LIB:-$TOP/build/smpi/adapt} -c reduce -m 32768 -s $s -w 1e-3 2>&1 | grep RESULT)
  echo "auto tree 64 -w 1e-3 | ${r:-TIMEOUT}" >> wgrid-tree64.txt
done
$R wgrid-tree64.txt tree 64 "gather allreduce" "8 32768" "balanced noise one_late" -w 1e-3
