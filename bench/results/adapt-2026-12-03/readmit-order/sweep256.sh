#!/bin/bash
LIB=$1; OUT=$2; : > $OUT
for plat in flat tree; do for c in bcast reduce gather allreduce; do for m in 8 32768; do for s in balanced one_late; do
  echo "== $plat $c $m $s" >> $OUT
  ARCOLL_DEBUG=1 timeout 300 bash /tmp/w/run.sh $plat 256 $LIB -c $c -m $m -s $s -n 40 2>&1 | grep -E "round [0-9] measured|RESULT" | cut -c1-300 >> $OUT
done; done; done; done
