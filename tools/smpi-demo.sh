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
# Runs the bundled example test/apps/imbalanced_bcast, balanced (no load)
# and loaded (rank NP/2), each three ways:
#   native   : SMPI's own MPI_Bcast (no libarcoll)
#   auto     : libarcoll with its defaults (what LD_PRELOAD gives a user)
#   adaptive : libarcoll, ARCOLL_BCAST_ALGORITHM=adaptive (binomial, late leaves)
# and prints broadcast time (avg over iterations of max exit - min entry) and
# total waiting time (avg over iterations of the sum over ranks of the time
# inside MPI_Bcast), with the ratios to native for both cases side by side.
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
# --cfg=smpi/test:0: no simulated time injected into MPI_Test* / MPI_Waitany,
# which no real MPI charges (tools/adapt-bench.sh says why): without it the
# exploration's twotree candidate, which progresses with MPI_Waitany, took
# 56.8 ms per 64 KiB broadcast at 256 ranks against 0.43 ms with it.
smpi_opts=(-np "$NP" -platform "$PLATFORM" -hostfile "$HOSTFILE"
  --cfg=smpi/simulate-computation:no --cfg=smpi/test:0 --log=root.thres:critical)

run() { # label, then command; prints "bcast wait"
  local out
  out=$("$@" 2>&1) || { echo "smpi-demo: run failed: $*" >&2; echo "$out" >&2; exit 1; }
  local line; line=$(grep '^RESULT' <<<"$out") || { echo "$out" >&2; exit 1; }
  grep -q ' errors=0' <<<"$line" || { echo "smpi-demo: wrong data: $line" >&2; exit 1; }
  sed -E 's/.*bcast_time=([^ ]+) wait_total=([^ ]+).*/\1 \2/' <<<"$line"
}

echo "imbalanced_bcast: $NP ranks, $BYTES bytes, $ITERS iterations; balanced, then rank $((NP / 2)) loaded with $LOAD flops"
res=()
for load in 0 "$LOAD"; do
  a=(-n "$ITERS" -m "$BYTES" -l "$load")
  read -r nb nw < <(run smpirun "${smpi_opts[@]}" "$plain" "${a[@]}")
  read -r ub uw < <(run smpirun "${smpi_opts[@]}" --cfg=smpi/privatize-libs:"$lib" "$linked" "${a[@]}")
  read -r ab aw < <(ARCOLL_BCAST_ALGORITHM=adaptive run smpirun "${smpi_opts[@]}" \
    --cfg=smpi/privatize-libs:"$lib" "$linked" "${a[@]}")
  res+=("$nb" "$nw" "$ub" "$uw" "$ab" "$aw")
done
python3 - "${res[@]}" <<'PY'
import sys
v = list(map(float, sys.argv[1:]))
cases = {"balanced": v[0:6], "loaded": v[6:12]}
print(f"{'variant':<24}" + "".join(f"{c + ' bcast [ms]':>22}{c + ' wait [s]':>20}" for c in cases))
for i, name in enumerate(("SMPI native MPI_Bcast", "arcoll auto (default)", "arcoll adaptive")):
    print(f"{name:<24}" + "".join(f"{x[2 * i] * 1e3:>22.4f}{x[2 * i + 1]:>20.5f}" for x in cases.values()))
for i, name in ((1, "auto / native"), (2, "adaptive / native")):
    print(f"{name:<24}" + "".join(f"{x[2 * i] / x[0]:>22.3f}{x[2 * i + 1] / x[1]:>20.3f}" for x in cases.values()))
print("seed 001 (256 ranks, rank 128 loaded): bcast time 0.64, waiting time 0.69 of the default")
PY
