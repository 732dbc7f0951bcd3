#!/bin/bash
# abgrid.sh OUT PLAT P "colls" "sizes" "scenarios" [coll_loop args]: for each case the library in
# /tmp/ab/libhead then /tmp/ab/libnew (ARCOLL_DEBUG=1), one line each: RESULT and the online
# decisions' lines of the measured collective (round 0's choice, confirmation)
OUT=$1; PLAT=$2; P=$3; CS=$4; MS=$5; SS=$6; shift 6
R=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)/bench/results/adapt-2026-12-03/exposure/run.sh
for c in $CS; do for m in $MS; do for s in $SS; do for L in head new; do
  o=$(ARCOLL_DEBUG=1 timeout ${TMO:-600} $R $PLAT $P /tmp/ab/lib$L -c $c -m $m -s $s "$@" 2>&1)
  r=$(echo "$o" | grep RESULT | sed 's/.*inside_sum=\([^ ]*\) loop=\([^ ]*\).*/in=\1 loop=\2/')
  d=$(echo "$o" | grep "online: $c " | sed 's/.*-> //' | tr '\n' ';' | cut -c1-200)
  echo "$L $c $m $s $PLAT $P $* | ${r:-TIMEOUT} | $d" >> $OUT
done; done; done; done
