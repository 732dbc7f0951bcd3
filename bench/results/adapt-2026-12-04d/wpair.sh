#!/bin/bash
# wpair.sh PLAT P SCEN W: auto / ARCOLL_LATE_CHAIN=off, 32 KiB bcast, W seconds of computation
# before every call: summed inside, loop, errors (LIB as in wcmp.sh).
R=$(cd "$(dirname "$0")/../adapt-2026-12-03/exposure" && pwd)/run.sh
LIB=${LIB:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)/build/smpi/adapt}
g(){ grep RESULT | sed -E 's/.*inside_sum=([^ ]+) loop=([^ ]+) errors=([^ ]+).*/\1 \2 e\3/'; }
a=$(bash "$R" "$1" "$2" "$LIB" -c bcast -m 32768 -s "$3" -w "$4" 2>&1 | g)
b=$(ARCOLL_LATE_CHAIN=off bash "$R" "$1" "$2" "$LIB" -c bcast -m 32768 -s "$3" -w "$4" 2>&1 | g)
echo "$1 $2 $3 w=$4 | auto $a | nochain $b"
