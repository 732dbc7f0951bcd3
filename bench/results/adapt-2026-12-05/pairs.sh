#!/bin/bash
# pairs.sh LIBA LIBB PLAT P SIZE "scenarios" [extra args]: summed inside and loop, A then B, ratio
A=$1; B=$2; PLAT=$3; P=$4; M=$5; SC=$6; shift 6
R="$(dirname "$0")/../adapt-2026-12-03/exposure/run.sh"
for s in $SC; do
  a=$($R $PLAT $P $A -c bcast -m $M -s $s "$@" 2>&1 | grep RESULT)
  b=$($R $PLAT $P $B -c bcast -m $M -s $s "$@" 2>&1 | grep RESULT)
  ai=$(echo "$a" | grep -o 'inside_sum=[^ ]*' | cut -d= -f2); al=$(echo "$a" | grep -o 'loop=[^ ]*' | cut -d= -f2)
  bi=$(echo "$b" | grep -o 'inside_sum=[^ ]*' | cut -d= -f2); bl=$(echo "$b" | grep -o 'loop=[^ ]*' | cut -d= -f2)
  echo "$PLAT $P $M $s $* | in $ai -> $bi ($(echo "$bi / $ai" | bc -l | cut -c1-5)x) | loop $al -> $bl ($(echo "$bl / $al" | bc -l | cut -c1-5)x)"
done
