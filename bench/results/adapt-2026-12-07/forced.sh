#!/bin/bash
# forced.sh OUT PLAT P BYTES "scenarios" [coll_loop args]: bcast with each configuration forced
# (ARCOLL_BCAST_ALGORITHM / ARCOLL_BCAST_SEGMENT), then auto; library LIB (default build/smpi/adapt);
# one RESULT line each into OUT
OUT=$1; PLAT=$2; P=$3; M=$4; SS=$5; shift 5
TOP=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
R=$TOP/bench/results/adapt-2026-12-03/exposure/run.sh
LIB=${LIB:-$TOP/build/smpi/adapt}
for s in $SS; do
  for cfg in binomial/8192 binomial/4096 binomial/16384 scatter_rdb/0 chain/8192 auto; do
    a=${cfg%/*}; g=${cfg#*/}
    if [ $a = auto ]; then r=$(timeout 900 $R $PLAT $P $LIB -c bcast -m $M -s $s "$@" 2>&1 | grep RESULT)
    else r=$(ARCOLL_BCAST_ALGORITHM=$a ARCOLL_BCAST_SEGMENT=$g timeout 900 $R $PLAT $P $LIB -c bcast -m $M -s $s "$@" 2>&1 | grep RESULT); fi
    echo "$cfg $PLAT $P $* | ${r:-TIMEOUT}" >> $OUT
  done
done
