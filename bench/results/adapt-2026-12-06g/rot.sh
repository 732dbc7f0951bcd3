#!/bin/bash
# rot.sh OUT PLAT P "colls" "sizes" "scenarios" [extra coll_loop args]: rotating root (-R), mpich and
# ompi selectors, then arcoll (LIB, default build/smpi/adapt); one RESULT line per run into OUT
OUT=$1; PLAT=$2; P=$3; CS=$4; MS=$5; SS=$6; shift 6
D=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)/bench/results
LIB=${LIB:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)/build/smpi/adapt}
for c in $CS; do for m in $MS; do for s in $SS; do
  for sel in mpich ompi; do
    r=$(timeout ${TMO:-900} $D/adapt-2026-12-05/mrun.sh $PLAT $P $sel -c $c -m $m -s $s "$@" 2>&1 | grep RESULT)
    echo "$sel $PLAT $P $* | ${r:-TIMEOUT}" >> $OUT
  done
  r=$(timeout ${TMO:-900} $D/adapt-2026-12-03/exposure/run.sh $PLAT $P $LIB -c $c -m $m -s $s "$@" 2>&1 | grep RESULT)
  echo "auto $PLAT $P $* | ${r:-TIMEOUT}" >> $OUT
done; done; done
