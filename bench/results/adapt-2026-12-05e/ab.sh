#!/bin/bash
# ab.sh OUT COLL PLAT P M SCEN [extra]: head then new, timeout ${AB_TIMEOUT:-600} each; LIBDIR/libhead, LIBDIR/libnew hold the two libarcoll.so (default LIBDIR /tmp/w)
OUT=$1; C=$2; PLAT=$3; P=$4; M=$5; S=$6; shift 6
R=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)/bench/results/adapt-2026-12-03/exposure/run.sh
for L in head new; do
  t0=$(date +%s)
  r=$(timeout ${AB_TIMEOUT:-600} $R $PLAT $P ${LIBDIR:-/tmp/w}/lib$L -c $C -m $M -s $S "$@" 2>&1 | grep RESULT)
  echo "$L $C $PLAT $P $M $S $* | ${r:-TIMEOUT} | host $(( $(date +%s) - t0 )) s" >> $OUT
done
