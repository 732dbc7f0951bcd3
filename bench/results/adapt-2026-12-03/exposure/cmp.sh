#!/bin/bash
# cmp.sh PLAT P COLL BYTES "SCENARIOS" : base vs new, summed inside and loop
plat=$1; P=$2; c=$3; m=$4
for s in $5; do
  b=$(./run.sh $plat $P /tmp/w/base -c $c -m $m -s $s -n 200 2>&1 | grep RESULT | sed 's/.*inside_sum=//;s/ errors=0//')
  n=$(./run.sh $plat $P /tmp/w/new -c $c -m $m -s $s -n 200 2>&1 | grep RESULT | sed 's/.*inside_sum=//;s/ errors=0//')
  python3 -c "
b='$b'.split(); n='$n'.split()
bi=float(b[0]); ni=float(n[0]); bl=float(b[1].split('=')[1]); nl=float(n[1].split('=')[1])
print('%s%s %s %s %-10s base %.5g (%.4g)  new %.5g (%.4g)  ratio %.3f (%.3f)' % ('$plat','$P','$c','$m','$s',bi,bl,ni,nl,ni/bi,nl/bl))"
done
