#!/usr/bin/env bash
# SMPI demo of libarcoll's adaptive broadcast (seed 001_6a837e3d9ad6c429.txt,
# technique 1: 256 ranks, only rank 128 loaded; the seed reported -36 %
# broadcast time and -31 % total waiting time).
#
# Usage: tools/smpi-demo.sh [BUILD_DIR]   (or ARCOLL_BUILD_DIR=...)
#   BUILD_DIR: the MPICH build dir whose nested SMPI build is BUILD_DIR/smpi
#   (default: <repo>/build).  Knobs (env): NP (256), ITERS (20), BYTES (65536),
#   LOAD (flops of the loaded rank per iteration, 3e6 = 3 ms on the 1 Gflop/s
#   hosts), PLATFORM (tools/platforms/cluster256.xml), HOSTFILE.
# Runs the bundled example test/apps/imbalanced_bcast three times:
#   native   : SMPI's own MPI_Bcast (no libarcoll)
#   binomial : libarcoll, ARCOLL_BCAST_ALGORITHM=binomial (same tree, no reordering)
#   adaptive : libarcoll, ARCOLL_BCAST_ALGORITHM=adaptive
# and prints broadcast time (avg over iterations of max exit - min entry) and
# total waiting time (avg over iterations of the sum over ranks of the time
# inside MPI_Bcast), with the ratios adaptive/binomial and adaptive/native.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-${ARCOLL_BUILD_DIR:-$here/build}}" && pwd)
smpi=$build/smpi
lib=$smpi/adapt/libarcoll.so
plain=$smpi/test/apps/imbalanced_bcast
linked=$smpi/test/apps/imbalanced_bcast_arcoll
for f in "$lib" "$plain" "$linked"; do
  if [[ ! -e $f ]]; then
    echo "smpi-demo: $f not found; build the SMPI backend first (cmake --build $build)" >&2
    exit 1
  fi
done
NP=${NP:-256} ITERS=${ITERS:-20} BYTES=${BYTES:-65536} LOAD=${LOAD:-3e6}
PLATFORM=${PLATFORM:-$here/tools/platforms/cluster256.xml}
HOSTFILE=${HOSTFILE:-$here/tools/platforms/cluster256.hostfile}
args=(-n "$ITERS" -m "$BYTES" -l "$LOAD")
smpi_opts=(-np "$NP" -platform "$PLATFORM" -hostfile "$HOSTFILE"
  --cfg=smpi/simulate-computation:no --log=root.thres:critical)

run() { # label, then command; prints "bcast wait"
  local out
  out=$("$@" 2>&1) || { echo "smpi-demo: run failed: $*" >&2; echo "$out" >&2; exit 1; }
  local line; line=$(grep '^RESULT' <<<"$out") || { echo "$out" >&2; exit 1; }
  grep -q ' errors=0' <<<"$line" || { echo "smpi-demo: wrong data: $line" >&2; exit 1; }
  sed -E 's/.*bcast_time=([^ ]+) wait_total=([^ ]+).*/\1 \2/' <<<"$line"
}

echo "imbalanced_bcast: $NP ranks, rank $((NP / 2)) loaded with $LOAD flops, $BYTES bytes, $ITERS iterations"
read -r nb nw < <(run smpirun "${smpi_opts[@]}" "$plain" "${args[@]}")
read -r bb bw < <(ARCOLL_BCAST_ALGORITHM=binomial run smpirun "${smpi_opts[@]}" \
  --cfg=smpi/privatize-libs:"$lib" "$linked" "${args[@]}")
read -r ab aw < <(ARCOLL_BCAST_ALGORITHM=adaptive run smpirun "${smpi_opts[@]}" \
  --cfg=smpi/privatize-libs:"$lib" "$linked" "${args[@]}")
python3 - "$nb" "$nw" "$bb" "$bw" "$ab" "$aw" <<'PY'
import sys
nb, nw, bb, bw, ab, aw = map(float, sys.argv[1:])
print(f"{'variant':<28}{'bcast time [ms]':>16}{'waiting time [s]':>18}")
for name, b, w in (("SMPI native MPI_Bcast", nb, nw), ("arcoll binomial", bb, bw),
                   ("arcoll adaptive", ab, aw)):
    print(f"{name:<28}{b * 1e3:>16.4f}{w:>18.5f}")
print(f"{'adaptive / binomial':<28}{ab / bb:>16.3f}{aw / bw:>18.3f}")
print(f"{'adaptive / native':<28}{ab / nb:>16.3f}{aw / nw:>18.3f}")
print("seed 001 (256 ranks, rank 128 loaded): bcast time 0.64, waiting time 0.69")
PY
