#!/bin/bash
# wcmp.sh PLAT P COLL M "SCENS" WORK: auto / ARCOLL_LATE_CHAIN=off (nochain) / SMPI's mpich
# selector, each with WORK seconds of computation before every call: summed inside, loop, errors.
# LIB: directory holding the SMPI libarcoll.so (default build/smpi/adapt); the arcoll runs go
# through ../adapt-2026-12-03/exposure/run.sh (platform files, model, flags).
PLAT=$1; P=$2; C=$3; M=$4; SCENS=$5; W=$6
R=$(cd "$(dirname "$0")/../adapt-2026-12-03/exposure" && pwd)/run.sh
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)" || exit 1
LIB=${LIB:-$PWD/build/smpi/adapt}
if [ "$PLAT" = flat ]; then X="-platform tools/platforms/bench/flat1024.xml -hostfile tools/platforms/bench/flat1024.hostfile"; else X="-platform tools/platforms/bench/tree1024.xml -hostfile tools/platforms/bench/tree1024.smpi-hosts"; fi
get(){ grep RESULT | sed -E 's/.*inside_sum=([^ ]+) loop=([^ ]+) errors=([^ ]+).*/\1 \2 e\3/'; }
for s in $SCENS; do
  a=$(bash "$R" "$PLAT" "$P" "$LIB" -c "$C" -m "$M" -s "$s" -w "$W" 2>&1 | get)
  b=$(ARCOLL_LATE_CHAIN=off bash "$R" "$PLAT" "$P" "$LIB" -c "$C" -m "$M" -s "$s" -w "$W" 2>&1 | get)
  c=$(flock /tmp/arcoll-mpi.lock smpirun -np "$P" $X --log=root.thres:critical --log=smpi_config.thres:warning --cfg=smpi/test:0 --cfg=smpi/coll-selector:mpich build/smpi/test/apps/coll_loop -c "$C" -m "$M" -s "$s" -w "$W" 2>&1 | get)
  echo "$PLAT P=$P $C $M $s w=$W | auto $a | nochain $b | mpich $c"
done
