#!/usr/bin/env bash
# adapt-recovery.sh: how many calls the adaptive layer takes to get back to its steady state
# after the late rank moves (issue 16: within 5 % within 10 calls of each move).
#
# Under SimGrid SMPI, one collective, one size, one platform: coll_loop -s moving -p (the late
# rank changes every 10 calls; per-call time inside summed over ranks) with libarcoll (auto) and
# with SMPI's selector, then, for each window's late rank, coll_loop -s one_late -L RANK -p with
# libarcoll: that rank late from the first call, whose second half is the window's steady state.
# tools/adapt_recovery.py prints one line per window (first call back within --tol of the steady
# state, calls above it, the window's excess) and a summary; the moving run also prints every
# rank's entry and exit times (coll_loop -e), from which the report gives each window's root_lead
# (how many calls the root was already ahead of the new late rank: where an order decided by the
# root could not follow the move at all).  calls / 10 + 2 runs
# (200 calls: 22; flat P = 64, 32 KiB bcast: about 3 minutes).
#
# Usage: tools/adapt-recovery.sh [--out DIR] [--build DIR] [--platform flat|tree] [--procs P]
#          [--coll bcast|reduce|gather|allreduce|scatter] [--size BYTES] [--calls N]
#          [--selector mpich|ompi|none] [--tol 1.05] [--timeout SEC] [--cfg NAME:VALUE]...
#   defaults: OUT ./adapt-recovery-out, BUILD $ARCOLL_BUILD_DIR or <repo>/build, flat, 64,
#   bcast, 32768, 200 calls, mpich, 1.05, 1800 s per run.  Root 0, no computation between calls,
#   SMPI's default host speed (as tools/adapt-bench.sh: the library's CPU time nearly free).
#   --cfg: one more --cfg=NAME:VALUE for every smpirun (repeatable), e.g.
#   smpi/send-is-detached-thresh:8192 (messages from 8 KiB sent rendezvous, not detached);
#   written to OUT/meta.txt.
# Needs BUILD/smpi/test/apps/coll_loop, coll_loop_arcoll and BUILD/smpi/adapt/libarcoll.so
# (cmake --build BUILD/smpi).  Files: OUT/meta.txt, OUT/moving-auto.txt, OUT/moving-SEL.txt,
# OUT/steady-RANK.txt (rerunning reruns every run), OUT/report.txt.  Every smpirun runs under
# `flock /tmp/arcoll-mpi.lock` (one MPI job at a time).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$PWD/adapt-recovery-out BUILD=${ARCOLL_BUILD_DIR:-$ROOT/build}
PLATFORM=flat P=64 COLL=bcast M=32768 CALLS=200 SEL=mpich TOL=1.05 TMO=1800 XCFG=()
die() { echo "adapt-recovery: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || die "$1 needs a value"
  case $1 in
    --out) OUT=$2 ;; --build) BUILD=$2 ;; --platform) PLATFORM=$2 ;; --procs) P=$2 ;;
    --coll) COLL=$2 ;; --size) M=$2 ;; --calls) CALLS=$2 ;; --selector) SEL=$2 ;;
    --tol) TOL=$2 ;; --timeout) TMO=$2 ;;
    --cfg) case $2 in */*:*) XCFG+=(--cfg="$2") ;; *) die "--cfg: NAME:VALUE (e.g. smpi/send-is-detached-thresh:8192), not '$2'" ;; esac ;;
    *) die "unknown option '$1' (see the header of $0)" ;;
  esac
  shift 2
done
case $PLATFORM in flat|tree) ;; *) die "--platform: flat or tree, not '$PLATFORM'" ;; esac
case $COLL in bcast|reduce|gather|allreduce|scatter) ;; *) die "--coll: bcast reduce gather allreduce scatter, not '$COLL'" ;; esac
case $SEL in mpich|ompi|none) ;; *) die "--selector: mpich, ompi or none, not '$SEL'" ;; esac
for x in "$P" "$M" "$CALLS" "$TMO"; do case $x in ''|*[!0-9]*) die "'$x': expected a whole number" ;; esac; done
[ "$P" -ge 3 ] || die "--procs: at least 3"
[ "$CALLS" -ge 20 ] || die "--calls: at least 20 (two windows)"
APPS=$BUILD/smpi/test/apps LIB=$BUILD/smpi/adapt/libarcoll.so
for f in "$APPS/coll_loop" "$APPS/coll_loop_arcoll" "$LIB"; do
  [ -e "$f" ] || die "$f not found: build the SMPI backend (cmake --build $BUILD/smpi) or pass --build DIR"
done
command -v smpirun > /dev/null || die "smpirun not found (SimGrid SMPI: bash tools/setup.sh)"
# shellcheck source=platforms/bench/loops.sh
. "$ROOT/tools/platforms/bench/loops.sh"  # bench_platform_args, BENCH_SMPI_ARGS, ARCOLL_MODEL
read -r -a PARGS <<< "$(bench_platform_args "$PLATFORM")"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

run() { # file args...: one smpirun, its output to OUT/file; a failure stops the script
  local f=$OUT/$1; shift
  if ! flock /tmp/arcoll-mpi.lock timeout "$TMO" smpirun -np "$P" "${PARGS[@]}" \
       "${BENCH_SMPI_ARGS[@]}" ${XCFG[@]+"${XCFG[@]}"} "$@" \
       -c "$COLL" -m "$M" -n "$CALLS" -p > "$f" 2> "$f.err"; then
    die "run failed: $f.err (smpirun ... $*)"
  fi
  grep -q '^RESULT .* errors=0$' "$f" || die "wrong results or no RESULT line in $f"
  echo "  $(basename "$f"): $(grep '^RESULT' "$f" | sed 's/.*inside_sum=/inside_sum=/')" >&2
}
ARC=(--cfg=smpi/privatize-libs:"$LIB" "$APPS/coll_loop_arcoll")
echo "P=$P root=0 calls=$CALLS selector=$([ "$SEL" = none ] || echo "$SEL")" \
     "label=$PLATFORM-P$P-$COLL-$M${XCFG[*]+"$(printf -- '-%s' "${XCFG[@]#--cfg=}")"}" > "$OUT/meta.txt"
run moving-auto.txt "${ARC[@]}" -s moving -e
[ "$SEL" = none ] || run "moving-$SEL.txt" --cfg=smpi/coll-selector:"$SEL" "$APPS/coll_loop" -s moving
ranks=$(python3 -c "import sys; sys.path.insert(0, '$ROOT/tools')
from adapt_recovery import WINDOW, moving_rank
print(' '.join(str(r) for r in sorted({moving_rank(w, $P, 0) for w in range($CALLS // WINDOW)})))")
for r in $ranks; do run "steady-$r.txt" "${ARC[@]}" -s one_late -L "$r"; done
python3 "$ROOT/tools/adapt_recovery.py" "$OUT" --tol "$TOL" | tee "$OUT/report.txt"
