#!/bin/bash
cd /work/res/rerun
for plat_P in "flat 256" "tree 64"; do set -- $plat_P; pl=$1 P=$2
for c in bcast reduce; do for s in balanced one_late eight_late moving noise late_root seed001; do
  f=$PWD/$pl$P-$c-$s.json
  a=$(./run2.sh $pl $c $P $s $f); b=$(./run2.sh $pl $c $P $s "" $f)
  echo "$pl $P $c $s cold $a warm $b"
done
for x in "balanced seed001" "noise seed001" "one_late seed001" "seed001 one_late"; do set -- $x
  b=$(./run2.sh $pl $c $P $1 "" $PWD/$pl$P-$c-$2.json); echo "$pl $P $c $1 with file of $2: $b"; done
done; done
echo done
