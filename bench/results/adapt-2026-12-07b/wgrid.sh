#!/bin/bash
# compute between calls: every rank computes 1 ms (coll_loop -w 1e-3) before each call, one root;
# SMPI's mpich and ompi selectors, then auto (LIB, default build/smpi/adapt).  SMPI's ompi reduce
# at 32 KiB is not simulated (1 KiB segments: over 15 min a run), so those rows run mpich and auto.
cd "$(dirname "$0")" || exit 1
TOP=$(git rev-parse --show-toplevel)
../adapt-2026-12-06f/rot.sh wgrid-flat64.txt flat 64 "bcast" "8 32768" "balanced noise one_late" -w 1e-3
../adapt-2026-12-06f/rot.sh wgrid-flat64.txt flat 64 "reduce" "8" "balanced noise one_late" -w 1e-3
for s in balanced noise one_late; do
  r=$(timeout 900 ../adapt-2026-12-05/mrun.sh flat 64 mpich -c reduce -m 32768 -s $s -w 1e-3 2>&1 | grep RESULT)
  echo "mpich flat 64 -w 1e-3 | ${r:-TIMEOUT}" >> wgrid-flat64.txt
  r=$(timeout 900 ../adapt-2026-12-03/exposure/run.sh flat 64 $TOP/build/smpi/adapt -c reduce -m 32768 -s $s -w 1e-3 2>&1 | grep RESULT)
  echo "auto flat 64 -w 1e-3 | ${r:-TIMEOUT}" >> wgrid-flat64.txt
done
../adapt-2026-12-06f/rot.sh wgrid-flat64.txt flat 64 "gather allreduce" "8 32768" "balanced noise one_late" -w 1e-3
