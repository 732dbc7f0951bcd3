#!/bin/bash
# pairs.sh COLL LIBA LIBB PLAT P SIZE "scenarios" [extra args]: ../adapt-2026-12-05/pairs.sh
# (bcast only) with the collective as its first argument; summed inside and loop, A then B, ratio
C=$1; A=$2; B=$3; PLAT=$4; P=$5; M=$6; SC=$7; shift 7
R="$(dirname "$0")/../adapt-2026-12-03/exposure/run.sh"
for s in $SC; do
  a=$($R $PLAT $P $A -c $C -m $M -s $s "$@" 2>&1 | grep RESULT)
  b=$($R $PLAT $P $B -c $C -m $M -s $s "$@" 2>&1 | grep RESULT)
  ai=$(echo "$a" | grep -o 'inside_sum=[^ ]*' | cut -d= -f2); al=$(echo "$a" | grep -o 'loop=[^ ]*' | cut -d= -f2)
  bi=$(echo "$b" | grep -o 'inside_sum=[^ ]*' | cut -d= -f2); bl=$(echo "$b" | grep -o 'loop=[^ ]*' | cut -d= -f2)
  echo "$C $PLAT $P $M $s $* | in $ai -> $bi ($(echo "$bi / $ai" | bc -l | cut -c1-5)x) | loop $al -> $bl ($(echo "$bl / $al" | bc -l | cut -c1-5)x)"
done
