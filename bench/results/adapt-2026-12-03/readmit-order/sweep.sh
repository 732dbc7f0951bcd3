#!/bin/bash
# usage: sweep.sh LIBDIR OUT : round-0 lines of every (platform, coll, size, scenario) at P = 64, 40 calls
LIB=$1; OUT=$2; : > $OUT
for plat in flat tree; do for c in bcast reduce gather allreduce scatter allgather; do for m in 8 32768; do for s in balanced noise one_late; do
  echo "== $plat $c $m $s" >> $OUT
  ARCOLL_DEBUG=1 timeout 600 bash /tmp/w/run.sh $plat 64 $LIB -c $c -m $m -s $s -n 40 2>&1 | grep -E "round 0 measured|RESULT" | cut -c1-400 >> $OUT
done; done; done; done
