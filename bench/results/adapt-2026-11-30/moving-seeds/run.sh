#!/bin/bash
# The moving late rank over several sequences (coll_loop -S: seed 1 is the table's sequence, others a
# rank drawn per window of 10 calls): flat cluster, P = 64, 32 KiB bcast, 200 calls, one rank 1 ms late.
# Columns: arcoll auto, arcoll forced to the pipelined binary tree with 8 KiB segments, SMPI's NTSB
# (its best fixed algorithm on the table's moving row) and SMPI's mpich selector. Prints the summed
# time inside per seed and the means.  usage: run.sh [BUILD] [SEEDS...]   (~20 s of host time per seed)
set -e
ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
BUILD=${1:-$ROOT/build}; shift || true
SEEDS=${*:-1 2 3 4 5 6 7 8}
BIN=$(mktemp -d /tmp/moving-seeds.XXXXXX)
cp "$BUILD/smpi/adapt/libarcoll.so" "$BIN/"
smpicc -O2 -o "$BIN/coll_loop" "$ROOT/test/apps/coll_loop.c" 2> "$BIN/build.err"
smpicc -O2 -o "$BIN/coll_loop_arcoll" "$ROOT/test/apps/coll_loop.c" -Wl,--no-as-needed -L"$BIN" -larcoll \
  -Wl,-rpath,"$BIN" 2>> "$BIN/build.err"
ldd "$BIN/coll_loop_arcoll" | grep -q "libarcoll.so => $BIN/libarcoll.so"
export ARCOLL_MODEL=$ROOT/tools/platforms/cluster256.model.json
P=$ROOT/tools/platforms/bench
one() { # column seed -> summed time inside (s)
  local col=$1 s=$2 bin=$BIN/coll_loop cfg=() envs=()
  case $col in
    auto) bin=$BIN/coll_loop_arcoll cfg=(--cfg=smpi/privatize-libs:$BIN/libarcoll.so) ;;
    binary8k) bin=$BIN/coll_loop_arcoll cfg=(--cfg=smpi/privatize-libs:$BIN/libarcoll.so)
              envs=(ARCOLL_BCAST_ALGORITHM=binary ARCOLL_BCAST_SEGMENT=8192) ;;
    ntsb) cfg=(--cfg=smpi/bcast:NTSB) ;;
    mpich) cfg=(--cfg=smpi/coll-selector:mpich) ;;
  esac
  flock /tmp/arcoll-mpi.lock timeout 900 env "${envs[@]}" smpirun -np 64 -platform $P/flat1024.xml \
    -hostfile $P/flat1024.hostfile --log=root.thres:critical --log=smpi_config.thres:warning \
    --cfg=smpi/test:0 "${cfg[@]}" "$bin" -c bcast -m 32768 -n 200 -s moving -S "$s" |
    sed -n 's/^RESULT .*inside_sum=\([0-9.e+-]*\).*/\1/p'
}
printf "%-5s %10s %10s %10s %10s %10s %10s\n" seed auto binary8k ntsb mpich auto/ntsb auto/mpich
for s in $SEEDS; do
  a=$(one auto "$s"); b=$(one binary8k "$s"); n=$(one ntsb "$s"); m=$(one mpich "$s")
  echo "$s $a $b $n $m" | awk '{printf "%-5s %10.4f %10.4f %10.4f %10.4f %10.3f %10.3f\n",$1,$2,$3,$4,$5,$2/$4,$2/$5}'
done | tee "$BIN/table.txt"
awk '{a+=$2;b+=$3;n+=$4;m+=$5;k++} END {printf "%-5s %10.4f %10.4f %10.4f %10.4f %10.3f %10.3f\n","mean",a/k,b/k,n/k,m/k,a/n,a/m}' "$BIN/table.txt"
rm -rf "$BIN"
