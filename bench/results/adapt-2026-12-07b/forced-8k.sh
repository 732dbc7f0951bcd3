#!/bin/bash
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)" || exit 1
R=bench/results/adapt-2026-12-03/exposure/run.sh
LIB=build/smpi/adapt
for s in noise one_late balanced; do
for cfg in binomial/0 binomial/2048 binomial/4096 binomial/8192 chain/1024 chain/2048 chain/4096 scatter_rdb/0 binary/2048 auto; do
  a=${cfg%/*}; g=${cfg#*/}
  if [ $a = auto ]; then r=$(timeout 900 $R flat 64 $LIB -c bcast -m 8192 -s $s -R 2>&1 | grep RESULT)
  else r=$(ARCOLL_BCAST_ALGORITHM=$a ARCOLL_BCAST_SEGMENT=$g timeout 900 $R flat 64 $LIB -c bcast -m 8192 -s $s -R 2>&1 | grep RESULT); fi
  echo "$cfg $s | ${r:-TIMEOUT}" | sed 's/RESULT coll=bcast //'
done; done
