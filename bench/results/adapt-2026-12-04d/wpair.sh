#!/bin/bash
# wpair.sh PLAT P SCEN W : auto / nochain summed inside, loop
cd /work/main; R=bench/results/adapt-2026-12-03/exposure/run.sh
g(){ grep RESULT | sed -E 's/.*inside_sum=([^ ]+) loop=([^ ]+) errors=([^ ]+).*/\1 \2 e\3/'; }
a=$(bash $R $1 $2 ${LIB:-/tmp/w/b48} -c bcast -m 32768 -s $3 -w $4 2>&1 | g)
b=$(ARCOLL_LATE_CHAIN=off bash $R $1 $2 ${LIB:-/tmp/w/b48} -c bcast -m 32768 -s $3 -w $4 2>&1 | g)
echo "$1 $2 $3 w=$4 | auto $a | nochain $b"
