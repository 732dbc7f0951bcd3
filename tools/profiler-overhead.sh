#!/usr/bin/env bash
# The profiler's cost in an application, under SimGrid SMPI with simulated
# computation on (SMPI's default: the recorder's own CPU time is charged to
# the simulated clock): test/apps/imbalanced_bcast run plain and linked with
# the SMPI libarcoll_profiler.so (privatized), balanced and with rank NP/2
# loaded, side by side in one invocation, the profiler with its defaults
# (trace written and summarised at MPI_Finalize); prints the time per broadcast and
# the whole simulated run time of both, and their ratios.
#
# Usage: tools/profiler-overhead.sh [BUILD_DIR]   (or ARCOLL_BUILD_DIR=...)
#   Knobs (env): NP (256), ITERS (20), BYTES (65536), LOAD (3e6 flops),
#   EXTRA (more arguments of the program, e.g. "-x 65536"),
#   PLATFORM (tools/platforms/cluster256.xml), HOSTFILE.
#   tools/demo.sh's program and arguments:
#   NP=4 BYTES=262144 LOAD=2e7 EXTRA="-x 65536" tools/profiler-overhead.sh
# Every smpirun holds flock /tmp/arcoll-mpi.lock.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-${ARCOLL_BUILD_DIR:-$here/build}}" && pwd)
lib=$build/smpi/profiler/libarcoll_profiler.so
plain=$build/smpi/test/apps/imbalanced_bcast
for f in "$lib" "$plain"; do
  [[ -e $f ]] || { echo "profiler-overhead: $f not found; build the SMPI backend first (cmake --build $build)" >&2; exit 1; }
done
NP=${NP:-256} ITERS=${ITERS:-20} BYTES=${BYTES:-65536} LOAD=${LOAD:-3e6}
read -r -a extra <<<"${EXTRA:-}"
PLATFORM=${PLATFORM:-$here/tools/platforms/cluster256.xml}
HOSTFILE=${HOSTFILE:-$here/tools/platforms/cluster256.hostfile}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
profiled=$work/imbalanced_bcast_profiled
smpicc -O2 -o "$profiled" "$here/test/apps/imbalanced_bcast.c" \
  -Wl,--no-as-needed "$lib" -Wl,--as-needed -Wl,-rpath,"$(dirname "$lib")"
ldd "$profiled" | grep libarcoll_profiler >/dev/null || { echo "profiler-overhead: the profiler is not linked" >&2; exit 1; }

run() { # prints "bcast_time simulated_time"
  local out
  out=$(cd "$work" && flock /tmp/arcoll-mpi.lock smpirun -np "$NP" -platform "$PLATFORM" -hostfile "$HOSTFILE" \
    --cfg=smpi/display-timing:yes "$@" 2>&1) \
    || { echo "profiler-overhead: run failed: $*" >&2; echo "$out" >&2; exit 1; }
  grep -q ' errors=0' <<<"$out" || { echo "profiler-overhead: wrong data" >&2; echo "$out" >&2; exit 1; }
  echo "$(sed -nE 's/.*bcast_time=([^ ]+).*/\1/p' <<<"$out") $(sed -nE 's/.*Simulated time: ([0-9.e+-]+).*/\1/p' <<<"$out")"
}

echo "imbalanced_bcast: $NP ranks, $BYTES bytes, $ITERS iterations${EXTRA:+, $EXTRA}, smpi/simulate-computation on"
printf '%-10s %16s %16s %8s %16s %16s %8s\n' case "bcast plain [ms]" "profiled [ms]" ratio \
  "run plain [ms]" "profiled [ms]" ratio
for load in 0 "$LOAD"; do
  a=(-n "$ITERS" -m "$BYTES" -l "$load" ${extra[@]+"${extra[@]}"})
  read -r pb pt < <(run "$plain" "${a[@]}")
  read -r qb qt < <(ARCOLL_TRACE="$work/t.arctrace" run \
    --cfg=smpi/privatize-libs:"$lib" "$profiled" "${a[@]}")
  awk -v c="$([ "$load" = 0 ] && echo balanced || echo loaded)" -v pb="$pb" -v qb="$qb" -v pt="$pt" -v qt="$qt" \
    'BEGIN { printf "%-10s %16.6f %16.6f %8.4f %16.3f %16.3f %8.3f\n", c, 1e3*pb, 1e3*qb, qb/pb, 1e3*pt, 1e3*qt, qt/pt }'
done
