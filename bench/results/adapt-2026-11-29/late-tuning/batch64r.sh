#!/bin/bash
cd /work/res/rerun
while ! grep -q "^done" batch256.out; do sleep 10; done
for s in balanced one_late eight_late moving noise late_root seed001; do
  b=$(./run2.sh flat reduce 64 $s "" $PWD/reduce-$s.json); echo "flat 64 reduce $s warm $b"
done
# profile -> tune -> rerun, bcast flat 64 and 256, seed001 and one_late
for P in 64 256; do for s in seed001 one_late eight_late; do
  rm -f prof-$P-$s.arctrace
  (cd /work/main && ARCOLL_TRACE=/work/res/rerun/prof-$P-$s.arctrace timeout 900 flock /tmp/arcoll-mpi.lock smpirun -np $P -platform tools/platforms/bench/flat1024.xml -hostfile tools/platforms/bench/flat1024.hostfile --cfg=smpi/test:0 --cfg=smpi/privatize-libs:$PWD/build/smpi/profiler/libarcoll_profiler.so --log=root.thres:critical build/smpi/test/apps/coll_loop_prof -c bcast -m 32768 -n 200 -s $s > /dev/null 2>&1)
  /work/main/build/tools/arcoll tune prof-$P-$s.arctrace -o prof-$P-$s.json > /dev/null
  b=$(./run2.sh flat bcast $P $s "" $PWD/prof-$P-$s.json); echo "flat $P bcast $s profile-tuned $b"
done; done
echo done
