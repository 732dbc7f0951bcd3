#!/bin/bash
# cmp.sh PLAT P "COLLS" "SIZES" "SCENARIOS" NAME...: one line per (coll, size, scenario) with the
# summed inside and loop of each library $LIBROOT/NAME/libarcoll.so (LIBROOT default /tmp/w),
# run one after the other through ../adapt-2026-12-03/exposure/run.sh (200 calls; env passes through)
PLAT=$1; P=$2; COLLS=$3; SIZES=$4; SCEN=$5; shift 5
R=$(cd "$(dirname "$0")/../adapt-2026-12-03/exposure" && pwd)/run.sh
LIBROOT=${LIBROOT:-/tmp/w}
for c in $COLLS; do for m in $SIZES; do for s in $SCEN; do
  line="$PLAT P=$P $c $m $s"
  for v in "$@"; do
    r=$(bash $R $PLAT $P $LIBROOT/$v -c $c -m $m -s $s 2>&1 | grep RESULT)
    in=$(sed -E 's/.*inside_sum=([^ ]+).*/\1/' <<<"$r"); lp=$(sed -E 's/.*loop=([^ ]+).*/\1/' <<<"$r"); er=$(sed -E 's/.*errors=([^ ]+).*/\1/' <<<"$r")
    line="$line | $v $in $lp e$er"
  done
  echo "$line"
done; done; done
