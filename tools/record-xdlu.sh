#!/bin/sh
# Records the trace of a real program for the placement suite: ScaLAPACK's LU
# test driver xdlu (Debian scalapack-mpi-test, MPICH build) run on MPICH with
# libarcoll_profiler.so preloaded. The suite replays it under SMPI
# (test/workloads/trace_replay.cpp); the traces it uses are in
# test/workloads/traces/ (zstd-compressed).
#
#   tools/record-xdlu.sh [--build DIR] [-n N] [--nb NB] -p P -q Q -o OUT.arctrace
#
# N: matrix order (default 1024), NB: block size (default 32), P x Q: process
# grid (P * Q ranks on this machine: 32 ranks take ~6 min, 64 ~14 min on 2
# cores; MPICH busy-polls). Installs scalapack-mpi-test when missing (root).
set -eu
build=$(cd "$(dirname "$0")/.." && pwd)/build n=1024 nb=32 p= q= out=
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    -n) n=$2; shift 2 ;;
    --nb) nb=$2; shift 2 ;;
    -p) p=$2; shift 2 ;;
    -q) q=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    *) echo "record-xdlu: unknown argument '$1' (see the header of $0)" >&2; exit 2 ;;
  esac
done
[ -n "$p" ] && [ -n "$q" ] && [ -n "$out" ] || { echo "record-xdlu: -p P -q Q -o OUT are required" >&2; exit 2; }
xdlu=/usr/lib/x86_64-linux-gnu/scalapack/mpich-tests/xdlu
if [ ! -x "$xdlu" ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q scalapack-mpi-test >/dev/null ||
    { echo "record-xdlu: $xdlu missing; apt-get install scalapack-mpi-test (as root)" >&2; exit 1; }
fi
lib=$build/profiler/libarcoll_profiler.so
[ -f "$lib" ] || { echo "record-xdlu: $lib not built (cmake --build $build)" >&2; exit 1; }
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# xdlu reads LU.dat from its working directory: one problem, one grid, no condition estimate.
printf "'ScaLAPACK LU, arcoll record-xdlu.sh'\n'MPI Machine'\n'LU.out'\n6\n1\n%s\n%s\n1\n%s\n1\n1\n1\n1\n1\n%s\n%s\n1.0\nF\n" \
  "$n" "$n" "$nb" "$p" "$q" >"$work/LU.dat"
cd "$work"
flock /tmp/arcoll-mpi.lock env ARCOLL_TRACE="$out" ARCOLL_PAPI=0 LD_PRELOAD="$lib" \
  mpiexec.hydra -n $((p * q)) "$xdlu" >"$work/xdlu.log" 2>&1 || { cat "$work/xdlu.log" >&2; exit 1; }
grep -q "tests completed and passed residual checks" "$work/xdlu.log" && ! grep -q "^ *[1-9][0-9]* tests completed and failed" "$work/xdlu.log" ||
  { cat "$work/xdlu.log" >&2; echo "record-xdlu: xdlu did not pass its residual check" >&2; exit 1; }
"$build/tools/arcoll" summary "$out" | head -1
