#!/usr/bin/env bash
# coll-bench.sh: the SMPI benchmark of issue 3 in one command (bench/README.md).
#
# For each collective x platform x P x m it runs bench/smpi_coll_bench (built
# by the nested SMPI build) four times under smpirun: every algorithm with a
# sweep of segment sizes; the arcoll auto choice; SMPI's MPI_ collective
# with --cfg=smpi/coll-selector:mpich; the same with :ompi.  Each smpirun runs
# under `flock /tmp/arcoll-mpi.lock` and `timeout`.  Raw CSVs go to
# OUT/raw/ (an existing complete file is reused: rerunning resumes), the
# tables to stdout and OUT/report.txt, OUT/results.{csv,json}.
#
# Usage: tools/coll-bench.sh [--quick] [--out DIR] [--build DIR]
#          [--colls "bcast reduce allreduce scan ..."] [--platforms "flat tree"]
#          [--procs "16 64 256 1024"] [--sizes "8 64 ..."] [--no-native] [--no-auto] [--no-algos]
#          [--timeout SEC] [--report-only] [--refresh-algos name,...] [--add-segs LIST]
#          [--max-segs N]
#   --colls: any of bcast reduce allreduce scan (group "vector", the default)
#            gather scatter alltoall allgather reduce_scatter_block allgatherv
#            gatherv scatterv alltoallv reduce_scatter (group "blocks"); "all".
#            The block collectives' m is the P blocks of one rank's vector
#            (bench/smpi_coll_bench.h, "Message size m"), raised to 8 P when smaller:
#            their points are named by the raised m.
#   --quick: P in {16, 256}, m in {8 B, 4 KiB, 256 KiB, 4 MiB} (~30+ min of simulation on 2 cores,
#            most of it the tree platform at P=256 / 4 MiB)
#   default grid: P in {16, 64, 256, 1024}, m = 8 B .. 16 MiB in powers of 8, plus 64 MiB;
#   caps (printed as "skipped"): see cap() below.
#   --refresh-algos a,b: rerun the sweep of just these algorithms at every point
#            (after adding or changing them) and replace their rows in the
#            cached algos files; the other algorithms' rows are kept.
#   --add-segs 8K,...: sweep the segmented algorithms at just these segment
#            sizes (after widening the grid) and merge their rows into the
#            cached algos files (rows of the same segment size replaced).
#            With --refresh-algos: just those algorithms at just those sizes.
#   --max-segs N: the sweep's limit on segments per call (default 1024), e.g.
#            --colls bcast --sizes "16777216 67108864" --refresh-algos chain,twotree
#            --add-segs 8K --max-segs 8192: the finer chain of the large-bcast target.
#   The sweep's segment sizes: SEGS below (K/M suffixes), at most 1024 segments.
# Environment: ARCOLL_MODEL = model file for the auto choice (default:
# tools/platforms/cluster256.model.json when it exists, else the built-in model).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$PWD/coll-bench-out
BUILD=${ARCOLL_BUILD_DIR:-$ROOT/build}
VECTOR_COLLS="bcast reduce allreduce scan"
BLOCK_COLLS="gather scatter alltoall allgather reduce_scatter_block allgatherv gatherv scatterv alltoallv reduce_scatter"
COLLS=$VECTOR_COLLS
PLATFORMS="flat tree"
PROCS="16 64 256 1024"
SIZES="8 64 512 4096 32768 262144 2097152 16777216 67108864"
NATIVE=1
AUTO=1
ALGOS=1
TMO=3600
QUICK=0
REPORT_ONLY=0
REFRESH=""
ADDSEGS=""
MAXSEGS=1024
# 8 KiB: the sweet spot of SMPI's default bandwidth factor (messages of 5776..9375 B
# get 1.087 x the link bandwidth; bench/README.md "Platforms")
SEGS="0,4K,8K,16K,64K,256K,1M"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1; PROCS="16 256"; SIZES="8 4096 262144 4194304" ;;
    --out) OUT=$2; shift ;;
    --build) BUILD=$2; shift ;;
    --colls) COLLS=$2; shift ;;
    --platforms) PLATFORMS=$2; shift ;;
    --procs) PROCS=$2; shift ;;
    --sizes) SIZES=$2; shift ;;
    --no-native) NATIVE=0 ;;
    --no-auto) AUTO=0 ;;
    --no-algos) ALGOS=0 ;;
    --timeout) TMO=$2; shift ;;
    --report-only) REPORT_ONLY=1 ;;
    --refresh-algos) REFRESH=$2; shift ;;
    --add-segs) ADDSEGS=$2; shift ;;
    --max-segs) MAXSEGS=$2; shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^#/p}' "$0"; exit 0 ;;
    *) echo "coll-bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
expanded=""
for c in $COLLS; do
  case "$c" in
    vector) expanded="$expanded $VECTOR_COLLS" ;;
    blocks) expanded="$expanded $BLOCK_COLLS" ;;
    all) expanded="$expanded $VECTOR_COLLS $BLOCK_COLLS" ;;
    *) case " $VECTOR_COLLS $BLOCK_COLLS " in
         *" $c "*) expanded="$expanded $c" ;;
         *) echo "coll-bench.sh: unknown collective '$c' (see --help)" >&2; exit 2 ;;
       esac ;;
  esac
done
COLLS=$(echo $expanded | tr ' ' '\n' | awk '!seen[$0]++' | paste -sd' ')
case "$MAXSEGS" in
  ''|*[!0-9]*|0) echo "coll-bench.sh: --max-segs '$MAXSEGS': expected a number of segments > 0, e.g. 8192" >&2; exit 2 ;;
esac
ADDSEGS_BYTES="" # --add-segs in bytes, to match field 6 of the cached rows
for x in ${ADDSEGS//,/ }; do
  case "$x" in
    *[kK]) b=$(( ${x%?} * 1024 )) ;;
    *[mM]) b=$(( ${x%?} * 1048576 )) ;;
    *) b=$x ;;
  esac
  case "$b" in
    ''|*[!0-9]*|0) echo "coll-bench.sh: --add-segs '$ADDSEGS': expected segment sizes > 0 in bytes (K/M suffix allowed), e.g. 8K" >&2; exit 2 ;;
  esac
  ADDSEGS_BYTES="$ADDSEGS_BYTES,$b"
done
BIN=$BUILD/smpi/bench/smpi_coll_bench
PLAT=$ROOT/tools/platforms/bench
if [ "$REPORT_ONLY" = 0 ] && [ ! -x "$BIN" ]; then
  echo "coll-bench.sh: $BIN not found: build first (ARCOLL_BUILD_DIR=$BUILD bash tools/setup.sh," \
       "or cmake --build $BUILD), or pass --build DIR" >&2
  exit 2
fi
if [ -z "${ARCOLL_MODEL:-}" ] && [ -f "$ROOT/tools/platforms/cluster256.model.json" ]; then
  export ARCOLL_MODEL=$ROOT/tools/platforms/cluster256.model.json
fi
mkdir -p "$OUT/raw"
if [ "$REPORT_ONLY" = 0 ] && [ "$AUTO" = 1 ]; then
  # the auto column depends on the model file and the selector code: drop its
  # cached points when either changed
  stamp=$( { cat "${ARCOLL_MODEL:-/dev/null}"; cat "$BIN"; } | md5sum | cut -c1-16)
  if [ "$(cat "$OUT/raw/auto.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -f "$OUT"/raw/*__auto.csv "$OUT"/raw/*__auto.csv.ok
    echo "$stamp" > "$OUT/raw/auto.stamp"
  fi
fi
touch "$OUT/skipped.txt" # accumulates over runs; cleaned before the report

# Budget caps (measured, bench/README.md "Cost"): the simulation cost grows with
# P x (messages per call); these points are left out of the default grid.
cap() { # coll P m what -> prints a reason when skipped
  local coll=$1 P=$2 m=$3 what=$4
  if [ "$P" -ge 1024 ] && [ "$m" -gt 16777216 ]; then
    echo "P=1024 x m > 16 MiB (simulation cost)"
  elif [ "$coll" = scan ] && [ "$P" -ge 256 ] && { [ "$what" = mpich ] || [ "$what" = ompi ]; }; then
    # SMPI's MPI_Scan (scan__default under both selectors) posts all P(P-1)/2
    # messages at once; at P=256 one 8-byte call did not finish in 300 s.
    echo "SMPI native scan at P >= 256 (P^2/2 concurrent messages: infeasible to simulate)"
  fi
}

# The size a point of coll at P and requested m runs with (smpi_coll_bench.h
# bench_effective_m): block collectives need blocks of >= 2 4-byte elements.
eff_m() { # coll P m
  case " $BLOCK_COLLS " in
    *" $1 "*) [ "$3" -lt $((8 * $2)) ] && { echo $((8 * $2)); return; } ;;
  esac
  echo "$3"
}

platform_args() {
  case "$1" in
    flat) echo "-platform $PLAT/flat1024.xml -hostfile $PLAT/flat1024.hostfile" ;;
    tree) echo "-platform $PLAT/tree1024.xml -hostfile $PLAT/tree1024.smpi-hosts" ;;
    *) echo "coll-bench.sh: unknown platform '$1' (flat or tree)" >&2; exit 2 ;;
  esac
}

point_file() { echo "$OUT/raw/${1}__${2}__P${3}__m${4}__${5}.csv"; }

# --cfg=smpi/test:0: no injected time in MPI_Test* (tools/adapt-bench.sh says why).
# The columns (whats) one smpirun measures: mpich or ompi set SMPI's
# selector, which changes none of the other columns (arcoll's algorithms are
# point-to-point; the selector's own collectives run outside the timed calls),
# so the sweep and auto share the mpich run: two runs per point, not four.
run() { # plat P "what1 what2" "coll1 coll2" "m1 m2 ...": one smpirun, split into per-point files
  local plat=$1 P=$2 whats=$3 colls=$4 ms=$5
  local modes="" sel=() what
  local only=()
  for what in $whats; do
  case "$what" in
    mpich|ompi) modes="$modes,native"; sel=(--cfg=smpi/coll-selector:$what) ;;
    auto) modes="$modes,auto" ;;
    algos)
      modes="$modes,algos"
      only=(--segs "${ADDSEGS:-$SEGS}" --max-segs "$MAXSEGS")
      if [ -n "$REFRESH" ]; then
        only+=(--algos "$REFRESH")
      elif [ "$P" -ge 512 ]; then
        # scan direct sends P(P-1)/2 messages at once: one 8-byte call at
        # P = 1024 did not finish in 6 min of simulation; not swept there
        only+=(--algos "$("$BUILD/tools/arcoll" list-algorithms | awk '$2 != "direct" {print $2}' |
                         sort -u | paste -sd,)")
        for coll in $colls; do for m in $ms; do
          [ "$coll" = scan ] && echo "$plat scan P=$P m=$m algos: scan direct not swept at P >= 512" \
            "(P(P-1)/2 concurrent messages)" >> "$OUT/skipped.txt"
        done; done
      fi ;;
  esac
  done
  local mode=${modes#,}
  # The vector collectives' algorithms' temporaries >= 64 KiB are folded into
  # SMPI's shared memory (so that 1024 ranks x 64 MiB fit); the block
  # collectives' (m <= a few MiB per rank) are not: their algorithms carry
  # lengths and headers inside such buffers (gatherv's sized streams), which
  # shared pages would garble (bench/README.md "Measurement")
  local autoshared=65536
  local first
  first=$(echo $colls | cut -d' ' -f1)
  case " $BLOCK_COLLS " in *" $first "*) autoshared=0 ;; esac
  local t0=$SECONDS clist mlist tmp="$OUT/raw/run.$$.csv"
  clist=$(echo $colls | tr ' ' ',')
  mlist=$(echo $ms | tr ' ' ',')
  # shellcheck disable=SC2046
  local ok=0 done_points
  # $tmp.sim: the seconds of the smpirun itself (the rest of the wall time
  # waits for the machine lock)
  # shellcheck disable=SC2046
  if flock /tmp/arcoll-mpi.lock env SIMT="$tmp.sim" bash -c 'SECONDS=0; timeout "$@"; r=$?; echo $SECONDS > "$SIMT"; exit $r' \
      timeout "$TMO" smpirun -np "$P" $(platform_args "$plat") \
      --log=root.thres:warning --log=smpi_config.thres:warning \
      --cfg=smpi/simulate-computation:no --cfg=smpi/test:0 --cfg=smpi/shared-malloc:global \
      --cfg=smpi/auto-shared-malloc-thresh:$autoshared --cfg=smpi/shared-malloc-blocksize:67108864 "${sel[@]}" \
      "$BIN" --coll "$clist" --sizes "$mlist" --mode "$mode" "${only[@]}" > "$tmp" 2> "$tmp.err" &&
     # smpirun can exit 0 after an MPI_Abort (a failing call: the bench's die())
     ! grep -q -e 'MPI_Abort was called' -e 'smpi_coll_bench: ' -e 'Deadlock detected' "$tmp" "$tmp.err"; then
    ok=1
    done_points=" all "
  else
    # failed or timed out: the points are printed one after the other
    # (collective-major), so every point but the last one printed is complete
    # (smpirun appends its own messages to stdout: only the result rows count)
    done_points=" $(grep -E '^[a-z_]+,[0-9]+,[0-9]+,' "$tmp" | cut -d, -f1,3 | uniq | head -n -1 |
                    tr '\n' ' ') "
  fi
  for what in $whats; do
  local kinds # the rows of this column (bench/smpi_coll_bench.c, Output)
  case "$what" in
    algos) kinds='^algo$' ;;
    auto) kinds='^(model|auto|explore)$' ;;
    *) kinds='^native$' ;;
  esac
  for coll in $colls; do
    for m in $ms; do
      local f
      f=$(point_file "$plat" "$coll" "$P" "$m" "$what")
      case "$done_points" in
        " all "|*" $coll,$m "*) ;;
        *) echo "$plat $coll P=$P m=$m $what: failed/timeout (${TMO} s)" >> "$OUT/skipped.txt"; continue ;;
      esac
      if [ -n "$REFRESH$ADDSEGS" ] && [ "$what" = algos ] && [ -f "$f" ]; then
        # drop the rows this run replaces: its algorithms (field 5) at its
        # segment sizes (field 6), an empty list matching every one
        { awk -F, -v A=",$REFRESH," -v S="$ADDSEGS_BYTES," \
            '!((A == ",," || index(A, "," $5 ",")) && (S == "," || index(S, "," $6 ",")))' "$f"
          grep "^$coll,$P,$m," "$tmp" | awk -F, -v K="$kinds" '$4 ~ K' || true; } > "$f.new"
        mv "$f.new" "$f"
      else
        grep "^$coll,$P,$m," "$tmp" | awk -F, -v K="$kinds" '$4 ~ K' > "$f" || true
      fi
      touch "$f.ok"
    done
  done
  done
  whats=${whats// /+}
  if [ "$ok" = 1 ]; then
    echo "  $plat P=$P $whats $clist m=$mlist: $((SECONDS - t0)) s ($(cat "$tmp.sim" 2>/dev/null) s simulating)" >&2
  else
    local e="$OUT/raw/${plat}__P${P}__${whats}__$(date +%H%M%S).failed.err"
    cp "$tmp.err" "$e"
    echo "  $plat P=$P $whats $clist m=$mlist: FAILED or timed out after $((SECONDS - t0)) s ($(cat "$tmp.sim" 2>/dev/null) s simulating)" \
         "(see $e); complete points kept:${done_points}" >&2
  fi
  rm -f "$tmp" "$tmp.err" "$tmp.sim"
}

if [ "$REPORT_ONLY" = 0 ]; then
  echo "coll-bench: out=$OUT model=${ARCOLL_MODEL:-built-in}" >&2
  whats=""
  [ "$ALGOS" = 1 ] && whats="algos"
  [ "$AUTO" = 1 ] && whats="$whats auto"
  [ "$NATIVE" = 1 ] && whats="$whats mpich ompi"
  # One smpirun per (P, platform, column set, size group) for all collectives
  # (the machine lock is contended: fewer, longer runs): the sweep, auto and
  # mpich in one run (run() above), ompi in another; a partial sweep
  # (--refresh-algos / --add-segs) alone; sizes <= 4 MiB together, each
  # larger size alone; at P >= 1024 every size alone.
  combos=()
  if [ -n "$REFRESH$ADDSEGS" ]; then
    [ "$ALGOS" = 1 ] && combos+=(algos)
    c=""; for w in $whats; do [ "$w" = auto ] || [ "$w" = mpich ] && c="$c $w"; done
    [ -n "$c" ] && combos+=("$c")
  else
    c=""; for w in $whats; do [ "$w" = ompi ] || c="$c $w"; done
    [ -n "$c" ] && combos+=("$c")
  fi
  [ "$NATIVE" = 1 ] && combos+=(ompi)
  for P in $PROCS; do
    for plat in $PLATFORMS; do
      for combo in "${combos[@]}"; do
        groups="small"
        for m in $SIZES; do [ "$m" -gt 4194304 ] && groups="$groups $m"; done
        [ "$P" -ge 1024 ] && groups="$SIZES" # one size per run: a time-out loses less
        for g in $groups; do
          # the collectives that need this group, by their (effective) size
          # list: one smpirun per distinct list
          declare -A bylist=()
          for coll in $COLLS; do
            gms="" cw=""
            for what in $combo; do
            for m0 in $SIZES; do
              if [ "$g" = small ]; then [ "$m0" -gt 4194304 ] && continue; else [ "$m0" = "$g" ] || continue; fi
              m=$(eff_m "$coll" "$P" "$m0")
              why=$(cap "$coll" "$P" "$m" "$what")
              if [ -n "$why" ]; then
                echo "$plat $coll P=$P m=$m $what: $why" >> "$OUT/skipped.txt"
                continue
              fi
              if [ "$what" != algos ] || [ -z "$REFRESH$ADDSEGS" ]; then
                [ -f "$(point_file "$plat" "$coll" "$P" "$m" "$what").ok" ] && continue
              else
                # a partial sweep only amends a complete one: never marks a point swept
                [ -f "$(point_file "$plat" "$coll" "$P" "$m" "$what").ok" ] || continue
              fi
              case " $gms " in *" $m "*) ;; *) gms="$gms $m" ;; esac
              case " $cw " in *" $what "*) ;; *) cw="$cw $what" ;; esac
            done
            done
            [ -n "$gms" ] || continue
            # one run per (class, columns, sizes): vector / block collectives
            # apart (run() sets SMPI's shared memory per class); the columns
            # this collective needs (a capped one, e.g. SMPI's scan at P >=
            # 256, is left out; a cached column is measured again for the
            # others' points: the same times)
            cls=v
            case " $BLOCK_COLLS " in *" $coll "*) cls=b ;; esac
            gms=$(echo $gms | tr ' ' '\n' | sort -n | paste -sd' ')
            key="$cls|${cw# }|$gms"
            bylist[$key]="${bylist[$key]:-} $coll"
          done
          for key in "${!bylist[@]}"; do
            IFS='|' read -r _ ws gms <<< "$key"
            run "$plat" "$P" "$ws" "${bylist[$key]}" "$gms"
          done
          unset bylist
        done
      done
    done
  done
fi
# every distinct reason once; a failure whose point a later run completed is dropped
sort -u "$OUT/skipped.txt" | while IFS= read -r l; do
  case "$l" in
    *": failed/timeout"*)
      # shellcheck disable=SC2086
      set -- $l # platform coll P=<P> m=<m> <what>: ...
      [ -f "$(point_file "$1" "$2" "${3#P=}" "${4#m=}" "${5%:}").ok" ] && continue ;;
  esac
  echo "$l"
done > "$OUT/skipped.txt.new"
mv "$OUT/skipped.txt.new" "$OUT/skipped.txt"
python3 "$ROOT/tools/coll_bench_report.py" "$OUT" --skipped "$OUT/skipped.txt" | tee "$OUT/report.txt"
