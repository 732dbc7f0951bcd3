#!/bin/bash
# noisegrid.sh LIBDIR PLAT P A...  : auto (first summary, final algo), chain and binary forced, under noise of amplitude A
LIB=$1; PLAT=$2; P=$3; shift 3
R="$(dirname "$0")/../adapt-2026-12-03/exposure/run.sh"
for A in "$@"; do
  out=$(ARCOLL_DEBUG=1 $R $PLAT $P $LIB -c bcast -m 32768 -s noise -d $A 2>&1)
  sum=$(echo "$out" | grep -m1 "lateness exchange 1" | sed 's/.*noise 0://; s/\] ->.*//' | cut -c1-60)
  fin=$(echo "$out" | grep "bcast call" | tail -1 | awk '{print $10}')
  auto=$(echo "$out" | grep RESULT | grep -o 'inside_sum=[^ ]*' | cut -d= -f2)
  c=$(ARCOLL_BCAST_ALGORITHM=chain ARCOLL_BCAST_SEGMENT=8192 $R $PLAT $P $LIB -c bcast -m 32768 -s noise -d $A 2>&1 | grep RESULT | grep -o 'inside_sum=[^ ]*' | cut -d= -f2)
  b=$(ARCOLL_BCAST_ALGORITHM=binary ARCOLL_BCAST_SEGMENT=8192 $R $PLAT $P $LIB -c bcast -m 32768 -s noise -d $A 2>&1 | grep RESULT | grep -o 'inside_sum=[^ ]*' | cut -d= -f2)
  echo "$PLAT $P A=$A auto=$auto ($fin) chain=$c binary=$b | summary:$sum"
done
