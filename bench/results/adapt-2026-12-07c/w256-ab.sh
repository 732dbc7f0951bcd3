#!/bin/bash
# A/B at flat P = 256 with 1 ms of computation before each call: the two rows the change is about
# (32 KiB reduce under noise; 8 B bcast with one late rank) and their balanced twins, then SMPI's
# mpich selector on the same rows
cd "$(dirname "$0")" || exit 1
A=../adapt-2026-12-06g/abgrid.sh
$A w256-ab.txt flat 256 "reduce" "32768" "noise balanced" -w 1e-3
$A w256-ab.txt flat 256 "bcast" "8" "one_late balanced" -w 1e-3
for a in "reduce 32768 noise" "reduce 32768 balanced" "bcast 8 one_late" "bcast 8 balanced"; do
  set -- $a
  r=$(timeout 900 ../adapt-2026-12-05/mrun.sh flat 256 mpich -c $1 -m $2 -s $3 -w 1e-3 2>&1 | grep RESULT)
  echo "mpich flat 256 -w 1e-3 | ${r:-TIMEOUT}" >> w256-ab.txt
done
