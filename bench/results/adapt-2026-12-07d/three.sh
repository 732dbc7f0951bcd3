#!/bin/bash
# three.sh OUT PLAT P coll m scen [args]: /tmp/ab/libhead (HEAD 2d346d2), /tmp/ab/libnew (the first leaf child), /tmp/ab/libc (the rule kept)
OUT=$1; PLAT=$2; P=$3; c=$4; m=$5; s=$6; shift 6
R=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)/bench/results/adapt-2026-12-03/exposure/run.sh
line="$c $m $s $PLAT $P $*"
for L in head new c; do
  o=$(timeout 600 $R $PLAT $P /tmp/ab/lib$L -c $c -m $m -s $s "$@" 2>&1 | grep RESULT | sed 's/.*inside_sum=\([^ ]*\) loop=\([^ ]*\).*/\1 \2/')
  line="$line | $L $o"
done
echo "$line" >> $OUT
