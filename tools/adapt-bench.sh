#!/usr/bin/env bash
# adapt-bench.sh: the benchmark of the adaptive layer (libarcoll) in one command.
#
# Runs test/apps/coll_loop (CALLS back-to-back collectives with lateness
# injected before every call, see its header) under SimGrid SMPI for every
# platform x P x collective x message size x scenario x column and prints one
# table (also OUT/report.txt, OUT/results.csv; tools/adapt_bench_report.py).
# Columns:
#   mpich, ompi  SMPI's native collectives, --cfg=smpi/coll-selector:mpich|ompi
#   best_smpi    every SMPI algorithm of the collective forced with
#                --cfg=smpi/<coll>:<algo> (list: smpi_algos below), the one with
#                the smallest inside_sum (--best-by) reported with its name; costly
#   auto         the program linked with libarcoll, default settings
#   noorder      the same with ARCOLL_LATE_ORDER=off (late-rank ordering off)
#   nodefer      the same with ARCOLL_ONLINE_LAG=0 (every online decision
#                inside the round's last call: no deferred decision,
#                adapt/decision.h)
#   noconfirm    the same with ARCOLL_ONLINE_CONFIRM=0 (no steady-state
#                confirmation of the online choice, collectives/online_confirm.h)
#   late         the same with ARCOLL_LATE_ORDER=on (late-rank ordering on; the
#                default is on only for ARCOLL_BCAST_ALGORITHM=adaptive)
#   detach       the same with ARCOLL_LATE_DETACH=on (a reduce's latest ranks send
#                to the root directly, adapt/LATENESS.md "Lateness")
#   chain        the same with ARCOLL_LATE_CHAIN=on (a streaming bcast's chain
#                with late leaves once its late set held, adapt/late_chain.h)
#   nochain      the same with ARCOLL_LATE_CHAIN=off (no chain of runs in place of
#                the binomial tolerant tree either: the default before 2026-12-04)
#   nodetach     the same with ARCOLL_REDUCE_DETACH=off (no small reduce's late
#                rank detached by its tree parent, collectives/reduce_detach.h)
# Figures (simulated seconds): inside_sum = time inside the collective summed
# over ranks and calls; loop = the loop's time (max over ranks).
#
# Usage: tools/adapt-bench.sh [--quick] [--out DIR] [--build DIR] [--calls N]
#          [--scenarios "balanced one_late ..."] [--colls "bcast reduce gather allreduce"]
#            (also scatter, allgather, reduce_scatter_block, alltoall, gatherv,
#             scatterv, allgatherv, alltoallv, reduce_scatter: no best_smpi list;
#             the v-variants' blocks are 0.5 / 1 / 1.5 x the size, coll_loop_v.h)
#          [--sizes "8 32768 1048576"] [--procs "64 256"] [--platforms "flat tree"]
#          [--columns "mpich ompi best_smpi auto noorder nodefer noconfirm late detach chain nochain nodetach"] [--timeout SEC]
#          [--host-speed FLOPS|default] [--best-by inside_sum|loop] [--report-only]
#   default grid: scenarios balanced one_late eight_late moving noise late_root
#     seed001 (also: settled, moving for the first half of the calls, then
#     nobody); colls bcast reduce gather allreduce; sizes 8 32768 1048576 (bytes
#     per rank, per block for gather); P 64 256; platforms flat tree (the files
#     of tools/coll-bench.sh, tools/platforms/bench/); all columns; 200 calls.
#   --quick: P=64, sizes 8 32768, flat, scenarios balanced one_late noise,
#     columns mpich ompi auto late (96 runs, a few minutes).
#   --host-speed: smpi/simulate-computation stays on (SMPI's default); the
#     real CPU time between MPI calls (the library's own work, the program's
#     fill and checks) is charged as that many flops on the 1 Gflop/s simulated
#     hosts.  default: pass nothing, SMPI's 20 kflop/s: CPU time x 2e-5, i.e.
#     nearly free, runs deterministic.  1Gf: 1 s of CPU here = 1 s simulated;
#     figures then vary by ~2 % between runs, and libarcoll is charged ~10 us
#     per call at P=64 (measured), far above its native dispatch cost
#     (adapt/DISPATCH.md: ~0.1 us), so mostly SMPI's own overhead.
#   --timeout: seconds per smpirun (default 1800).
# Every run has --cfg=smpi/test:0: SMPI otherwise injects 0.1 ms of simulated
# time (and more on each failing call) into every MPI_Test*, a guard against
# busy-wait loops, not a cost of MPI; libarcoll tests its own pending
# schedules (the online selection's deferred decisions, adapt/decision.h) at
# the entry of each collective, a real MPI_Testall costs well under 1 us.
# SMPI's own collectives (mpich, ompi, best_smpi) never call it.
# Needs: smpicc/smpirun; for auto/noorder/nodefer/noconfirm/late/detach/chain/nochain/nodetach BUILD/smpi/adapt/libarcoll.so (BUILD:
# --build, else $ARCOLL_BUILD_DIR, else <repo>/build).  The two binaries are
# built with smpicc into OUT/bin when missing or older than the source, against
# a copy of libarcoll.so taken at start (OUT/bin/libarcoll.so, refreshed when
# the build's one differs), so a rebuild during a run does not mix libraries.
# Cache: one file per run, OUT/raw/<platform>-P<P>-<coll>-<m>-<scenario>-<column>[-<algo>].txt
# (the RESULT line and a META line: wall seconds, host speed, stamp of the
# binaries/library/model); a cached run is reused when its calls, host speed
# and stamp match (rerunning resumes; a new libarcoll reruns the libarcoll columns);
# a failed run (exit status, timeout, errors > 0) leaves no cache file, its
# output goes to OUT/failed/ and it is listed under the table.
# Every smpirun runs under `flock /tmp/arcoll-mpi.lock timeout SEC`; the wall
# seconds of each run go to stderr.  ARCOLL_MODEL: as tools/coll-bench.sh
# (tools/platforms/cluster256.model.json when it exists).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$PWD/adapt-bench-out
BUILD=${ARCOLL_BUILD_DIR:-$ROOT/build}
SCENARIOS="balanced one_late eight_late moving noise late_root seed001"
COLLS="bcast reduce gather allreduce"
SIZES="8 32768 1048576"
PROCS="64 256"
PLATFORMS="flat tree"
COLUMNS="mpich ompi best_smpi auto noorder late"
CALLS=200
TMO=1800
HS=default
BEST_BY=inside_sum
REPORT_ONLY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) PROCS=64; SIZES="8 32768"; PLATFORMS=flat; SCENARIOS="balanced one_late noise"
             COLUMNS="mpich ompi auto late" ;;
    --scenarios) SCENARIOS=${2//,/ }; shift ;;
    --colls) COLLS=${2//,/ }; shift ;;
    --sizes) SIZES=${2//,/ }; shift ;;
    --procs) PROCS=${2//,/ }; shift ;;
    --platforms) PLATFORMS=${2//,/ }; shift ;;
    --columns) COLUMNS=${2//,/ }; shift ;;
    --calls) CALLS=$2; shift ;;
    --out) OUT=$2; shift ;;
    --build) BUILD=$2; shift ;;
    --timeout) TMO=$2; shift ;;
    --host-speed) HS=$2; shift ;;
    --best-by) BEST_BY=$2; shift ;;
    --report-only) REPORT_ONLY=1 ;;
    -h|--help) sed -n '2,/^set -euo/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "adapt-bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
die() { echo "adapt-bench.sh: $*" >&2; exit 2; }
for x in $SCENARIOS; do
  case $x in balanced|one_late|eight_late|moving|noise|late_root|seed001|settled) ;; *) die "unknown scenario '$x'" ;; esac
done
for x in $COLLS; do case $x in bcast|reduce|gather|allreduce|scatter|allgather|reduce_scatter_block|alltoall|gatherv|scatterv|allgatherv|alltoallv|reduce_scatter) ;; *) die "unknown collective '$x'" ;; esac; done
for x in $COLUMNS; do case $x in mpich|ompi|best_smpi|auto|noorder|nodefer|noconfirm|late|detach|chain|nochain|nodetach) ;; *) die "unknown column '$x'" ;; esac; done
for x in $PLATFORMS; do case $x in flat|tree) ;; *) die "unknown platform '$x' (flat or tree)" ;; esac; done
for x in $SIZES $PROCS $CALLS $TMO; do case $x in ''|*[!0-9]*) die "'$x': expected a whole number" ;; esac; done
case $BEST_BY in inside_sum|loop) ;; *) die "--best-by: inside_sum or loop" ;; esac
OUT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
BUILD=$(cd "$BUILD" 2>/dev/null && pwd || echo "$BUILD")
# shellcheck source=platforms/bench/loops.sh
. "$ROOT/tools/platforms/bench/loops.sh"  # bench_platform_args, BENCH_SMPI_ARGS, ARCOLL_MODEL
SRC=$ROOT/test/apps/coll_loop.c
# coll_loop.c and the headers it includes: a binary older than any of them is rebuilt
SRCS=("$SRC" "$ROOT"/test/apps/coll_loop_v.h "$ROOT"/test/apps/coll_loop_affine.h "$ROOT"/test/apps/coll_loop_times.h)
LIB=$BUILD/smpi/adapt/libarcoll.so
BIN=$OUT/bin
HSCFG=()
[ "$HS" = default ] || HSCFG=(--cfg=smpi/host-speed:"$HS")

# SMPI's algorithms of SimGrid 3.32 (nm -DC libsimgrid.so | grep 'smpi::<coll>__'),
# without the selectors (automatic impi mpich mvapich2 ompi).  Left out, measured
# at P=64 with coll_loop (back-to-back calls, no barrier between them):
#   bcast SMP_linear: wrong data at 8 B and 32 KiB; reduce NTSL,
#   arrival_pattern_aware: segfault; bcast ompi_split_bintree (wrong data) and
#   arrival_scatter (crash), allreduce smp_rsag* (wrong data): at 8 B (fewer
#   elements than ranks), kept above that.
smpi_algos() { # coll bytes P
  local c=$1 m=$2 P=$3 small=0
  [ $(( m / 4 )) -lt "$P" ] && small=1
  case $c in
    bcast)
      echo NTSB NTSL NTSL_Isend SMP_binary SMP_binomial arrival_pattern_aware \
           arrival_pattern_aware_wait binomial_tree default flattree flattree_pipeline \
           mvapich2_inter_node mvapich2_intra_node mvapich2_knomial_intra_node ompi_pipeline \
           scatter_LR_allgather scatter_rdb_allgather
      [ $small = 1 ] || echo arrival_scatter ompi_split_bintree ;;
    reduce)
      echo binomial default flat_tree mvapich2_knomial mvapich2_two_level ompi_basic_linear \
           ompi_binary ompi_binomial ompi_chain ompi_in_order_binary ompi_pipeline rab scatter_gather ;;
    allreduce)
      echo default lr mvapich2_rs mvapich2_two_level ompi_ring_segmented rab rab1 rab2 rab_rdb \
           rdb redbcast smp_binomial smp_binomial_pipeline smp_rdb
      [ $small = 1 ] || echo smp_rsag smp_rsag_lr smp_rsag_rab ;;
    gather) echo default mvapich2_two_level ompi_basic_linear ompi_binomial ompi_linear_sync ;;
    scatter) echo default mvapich2_two_level_binomial mvapich2_two_level_direct ompi_basic_linear \
                  ompi_binomial ompi_linear_nb ;;
  esac
}

# Points left out (printed as skipped): the 1 KiB segments of SMPI's ompi reduce
# (the ompi selector's binomial/pipeline branches for m >= 2 KiB while
# P > 0.041 m/1024 + 9.7, and the forced ompi_binomial for m >= 2 KiB): with
# back-to-back calls the leaves run ahead and the unexpected-message queues
# grow with the calls; at P=64, 32 KiB: 10 calls 2.5 s, 20 calls 20 s,
# 40 calls 123 s, 200 calls > 30 min of simulation.
cap() { # coll m P column [algo] -> prints a reason when skipped
  local c=$1 m=$2 P=$3 col=$4 algo=${5:-}
  [ "$c" = reduce ] && [ "$m" -ge 2048 ] || return 0
  if [ "$col" = ompi ] && awk -v m="$m" -v P="$P" 'BEGIN { exit !(P > 0.041 * m / 1024 + 9.7) }'; then
    echo "SMPI ompi reduce, 1 KiB segments: simulation too slow with back-to-back calls"
  elif [ "$col" = best_smpi ] && [ "$algo" = ompi_binomial ]; then
    echo "SMPI reduce ompi_binomial, 1 KiB segments: simulation too slow with back-to-back calls"
  fi
}

stamp_of() { cat "$@" | md5sum | cut -c1-12; }
stale() { # binary [more inputs...]: missing, or older than one of SRCS or the inputs given
  local b=$1 f; shift
  [ -x "$b" ] || return 0
  for f in "${SRCS[@]}" "$@"; do [ "$f" -nt "$b" ] && return 0; done
  return 1
}

need_arcoll=0
for x in $COLUMNS; do case $x in auto|noorder|nodefer|noconfirm|late|detach|chain|nochain|nodetach) need_arcoll=1 ;; esac; done
if [ "$REPORT_ONLY" = 0 ]; then
  mkdir -p "$BIN" "$OUT/raw" "$OUT/failed"
  : > "$OUT/skipped.txt"
  command -v smpicc > /dev/null || die "smpicc not found (SimGrid SMPI)"
  if stale "$BIN/coll_loop"; then
    echo "adapt-bench: smpicc $SRC -> $BIN/coll_loop" >&2
    smpicc -O2 -o "$BIN/coll_loop" "$SRC" 2> "$BIN/build.err" || { cat "$BIN/build.err" >&2; exit 1; }
  fi
  if [ "$need_arcoll" = 1 ]; then
    [ -f "$LIB" ] || die "$LIB not found: build the SMPI backend first, or pass --build DIR"
    cmp -s "$LIB" "$BIN/libarcoll.so" || cp "$LIB" "$BIN/libarcoll.so"
    if stale "$BIN/coll_loop_arcoll" "$BIN/libarcoll.so"; then
      echo "adapt-bench: smpicc $SRC + $BIN/libarcoll.so -> $BIN/coll_loop_arcoll" >&2
      smpicc -O2 -o "$BIN/coll_loop_arcoll" "$SRC" -Wl,--no-as-needed -L"$BIN" -larcoll \
        -Wl,-rpath,"$BIN" 2> "$BIN/build.err" || { cat "$BIN/build.err" >&2; exit 1; }
    fi
    ldd "$BIN/coll_loop_arcoll" | grep "libarcoll.so => $BIN/libarcoll.so" >/dev/null ||
      die "$BIN/coll_loop_arcoll is not linked with $BIN/libarcoll.so (ldd)"
  fi
  STAMP_NATIVE=$(stamp_of "$BIN/coll_loop")
  STAMP_ARCOLL=none
  [ "$need_arcoll" = 1 ] &&
    STAMP_ARCOLL=$(stamp_of "$BIN/coll_loop_arcoll" "$BIN/libarcoll.so" "${ARCOLL_MODEL:-/dev/null}")
  echo "adapt-bench: out=$OUT model=${ARCOLL_MODEL:-built-in} host-speed=$HS calls=$CALLS" \
       "libarcoll=$([ "$need_arcoll" = 1 ] && echo "$LIB (stamp $STAMP_ARCOLL)" || echo unused)" >&2
fi

valid() { # file stamp: a cached run of the current settings
  [ -f "$1" ] && grep -q "^RESULT .* calls=$CALLS .*errors=0\$" "$1" &&
    grep -q "^META .* host_speed=$HS stamp=$2\$" "$1"
}

nruns=0 nfail=0 ncached=0
run() { # plat P coll m scen column [algo]
  local plat=$1 P=$2 coll=$3 m=$4 scen=$5 col=$6 algo=${7:-}
  local name="$plat-P$P-$coll-$m-$scen-$col${algo:+-$algo}"
  local f="$OUT/raw/$name.txt" bin=$BIN/coll_loop stamp=$STAMP_NATIVE cfg=() envs=()
  case $col in
    mpich|ompi) cfg=(--cfg=smpi/coll-selector:"$col") ;;
    best_smpi) cfg=(--cfg=smpi/"$coll":"$algo") ;;
    auto|noorder|nodefer|noconfirm|late|detach|chain|nochain|nodetach)
      bin=$BIN/coll_loop_arcoll stamp=$STAMP_ARCOLL
      cfg=(--cfg=smpi/privatize-libs:"$BIN/libarcoll.so")
      envs=(-u ARCOLL_LATE_ORDER -u ARCOLL_LATE_DETACH -u ARCOLL_LATE_CHAIN -u ARCOLL_REDUCE_DETACH) # the caller's settings never leak in
      case $col in
        noorder) envs+=(ARCOLL_LATE_ORDER=off) ;;
        noconfirm) envs+=(ARCOLL_ONLINE_CONFIRM=0) ;;
        nodefer) envs+=(ARCOLL_ONLINE_LAG=0) ;;
        late) envs+=(ARCOLL_LATE_ORDER=on) ;;
        detach) envs+=(ARCOLL_LATE_DETACH=on) ;;
        chain) envs+=(ARCOLL_LATE_CHAIN=on) ;;
        nochain) envs+=(ARCOLL_LATE_CHAIN=off) ;;
        nodetach) envs+=(ARCOLL_REDUCE_DETACH=off) ;;
      esac ;;
  esac
  if valid "$f" "$stamp"; then ncached=$((ncached + 1)); return 0; fi
  local why
  why=$(cap "$coll" "$m" "$P" "$col" "$algo")
  if [ -n "$why" ]; then echo "$name: $why" >> "$OUT/skipped.txt"; rm -f "$OUT/failed/$name.txt"; return 0; fi
  rm -f "$f"
  local t0 t1 wall rc=0 tmp="$OUT/raw/.run.$$"
  rm -f "$tmp.t0"
  # the wall time starts when the lock is taken (bash -c writes it, then execs the run)
  # shellcheck disable=SC2046,SC2016
  flock /tmp/arcoll-mpi.lock timeout "$TMO" bash -c 'date +%s.%N > "$0"; exec "$@"' "$tmp.t0" \
    env "${envs[@]}" smpirun -np "$P" $(bench_platform_args "$plat") \
    "${BENCH_SMPI_ARGS[@]}" "${HSCFG[@]}" "${cfg[@]}" \
    "$bin" -c "$coll" -m "$m" -n "$CALLS" -s "$scen" > "$tmp" 2> "$tmp.err" || rc=$?
  t1=$(date +%s.%N)
  t0=$(cat "$tmp.t0" 2>/dev/null || echo "$t1")
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  nruns=$((nruns + 1))
  local line
  line=$(grep '^RESULT ' "$tmp" || true)
  if [ "$rc" = 0 ] && [ -n "$line" ] && [[ $line == *" errors=0" ]]; then
    { echo "$line"; echo "META wall=$wall host_speed=$HS stamp=$stamp"; } > "$f"
    rm -f "$OUT/failed/$name.txt"
    echo "  $name: ${wall} s  ${line#RESULT * calls=$CALLS }" >&2
  else
    nfail=$((nfail + 1))
    why="exit status $rc"
    [ "$rc" = 124 ] && why="timeout ${TMO} s"
    [ -n "$line" ] && [[ $line != *" errors=0" ]] && why="wrong results (${line##* })"
    { echo "FAILED $why after $wall s"; cat "$tmp" "$tmp.err"; } > "$OUT/failed/$name.txt"
    echo "  $name: FAILED ($why) after $wall s, see $OUT/failed/$name.txt" >&2
  fi
  rm -f "$tmp" "$tmp.err" "$tmp.t0"
}

if [ "$REPORT_ONLY" = 0 ]; then
  for P in $PROCS; do
    for plat in $PLATFORMS; do
      for coll in $COLLS; do
        for m in $SIZES; do
          for scen in $SCENARIOS; do
            for col in $COLUMNS; do
              if [ "$col" = best_smpi ]; then
                for a in $(smpi_algos "$coll" "$m" "$P"); do run "$plat" "$P" "$coll" "$m" "$scen" "$col" "$a"; done
              else
                run "$plat" "$P" "$coll" "$m" "$scen" "$col"
              fi
            done
          done
        done
      done
    done
  done
  echo "adapt-bench: $nruns runs ($nfail failed), $ncached cached" >&2
fi
python3 "$ROOT/tools/adapt_bench_report.py" "$OUT" --platforms "$PLATFORMS" --procs "$PROCS" \
  --colls "$COLLS" --sizes "$SIZES" --scenarios "$SCENARIOS" --columns "$COLUMNS" \
  --calls "$CALLS" --host-speed "$HS" --best-by "$BEST_BY" | tee "$OUT/report.txt"
