#!/usr/bin/env bash
# nbc-overlap.sh: overlap benchmark of libarcoll's nonblocking collectives
# (issue 19) under SimGrid SMPI on the flat 1024-host platform of
# tools/platforms/bench/ (10 Gb/s links, one rank per host).
#
# Runs bench/nbc_overlap (see its header) for P x collective, once with
# libarcoll's schedules (arcoll) and once with ARCOLL_NONBLOCKING=off
# (SMPI's own nonblocking collective, smpi), and prints one table: per
# computation C (0.5, 1, 2 x libarcoll's blocking time) and variant (16
# chunks with MPI_Test between them, or one chunk and no MPI_Test) the
# completion time of start + computation + wait over max(C, the blocking
# time of the same library: libarcoll's MPI_<Coll> for arcoll, SMPI's for
# smpi), side by side (1.00 = perfect overlap).  SMPI runs with
# --cfg=smpi/test:0 (SMPI otherwise charges every MPI_Test 0.1 ms and more
# simulated time, growing with each failed test, far above a real test's
# cost; both columns alike) and simulated computation on (the compute is
# smpi_execute_benched; the host CPU time of everything else is charged at
# SMPI's default speed, i.e. nearly free), and ARCOLL_LATE_ORDER=off (no
# lateness exchange in the blocking reference).  Ibcast at P = 256, 1 MiB:
# the blocking reference's online selection (twotree with 8 KiB segments
# and its refinements, ~9 s of host time per simulated call in SimGrid's
# sharing solver) does not finish in 20 minutes; give it the choice it
# keeps (bench/notes/smpi-collectives-results.md, session 15: twotree/8 KiB) in a tuning file:
#   ARCOLL_TUNING=bench/results/nbc-overlap-2026-11-27/bcast-P256-1MiB.tuning.json \
#     tools/nbc-overlap.sh --procs 256 --colls ibcast --reps 1 --skip ibcast-P256-smpi
# (the caller's environment reaches every run).  Each run is limited to 20 minutes.
#
# Usage: tools/nbc-overlap.sh [--procs "64 256"] [--colls "iallreduce ibcast"]
#          [--bytes 1048576] [--reps 3] [--out DIR] [--build DIR]
#          [--skip "iallreduce-P256-smpi ..."]   (runs not to make, shown as -)
# A run whose OUT/raw file holds its 6 RESULT lines is not made again.
# SMPI's own MPI_Iallreduce at P = 256, 1 MiB needs more than 24 GB of
# memory (killed by the OOM killer here): skip it with --skip.
# Needs smpicc, smpirun and BUILD/smpi/adapt/libarcoll.so (tools/setup.sh).
# Every smpirun runs under flock /tmp/arcoll-mpi.lock.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${ARCOLL_BUILD_DIR:-$ROOT/build}
OUT=$PWD/nbc-overlap-out
PROCS="64 256"
COLLS="iallreduce ibcast"
BYTES=1048576
REPS=3
SKIP=""
while [ $# -gt 0 ]; do
  case "$1" in
    --procs) PROCS=$2; shift ;;
    --colls) COLLS=$2; shift ;;
    --bytes) BYTES=$2; shift ;;
    --reps) REPS=$2; shift ;;
    --out) OUT=$2; shift ;;
    --build) BUILD=$2; shift ;;
    --skip) SKIP=$2; shift ;;
    *) echo "nbc-overlap: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
LIB=$BUILD/smpi/adapt/libarcoll.so
[ -f "$LIB" ] || { echo "nbc-overlap: $LIB missing (run tools/setup.sh)" >&2; exit 1; }
mkdir -p "$OUT/bin" "$OUT/raw"
cp "$LIB" "$OUT/bin/libarcoll.so"
smpicc -O2 -o "$OUT/bin/nbc_overlap" "$ROOT/bench/nbc_overlap.c" -Wl,--no-as-needed \
  -L"$OUT/bin" -larcoll -Wl,-rpath,"$OUT/bin"
PLAT=$ROOT/tools/platforms/bench/flat1024.xml
HOSTS=$ROOT/tools/platforms/bench/flat1024.hostfile
for P in $PROCS; do
  for coll in $COLLS; do
    for col in arcoll smpi; do
      f=$OUT/raw/$coll-P$P-$BYTES-$col.txt
      case " $SKIP " in *" $coll-P$P-$col "*) rm -f "$f"; continue ;; esac
      [ -f "$f" ] && [ "$(grep -c '^RESULT' "$f")" = 6 ] && continue
      env=(ARCOLL_LATE_ORDER=off)
      [ "$col" = smpi ] && env+=(ARCOLL_NONBLOCKING=off)
      echo "nbc-overlap: $coll P=$P $BYTES B $col" >&2
      flock /tmp/arcoll-mpi.lock timeout 1200 env "${env[@]}" smpirun -np "$P" -platform "$PLAT" \
        -hostfile "$HOSTS" --cfg=smpi/privatize-libs:"$OUT/bin/libarcoll.so" \
        --cfg=smpi/test:0 --cfg=smpi/grow-injected-times:no --log=root.thres:critical \
        "$OUT/bin/nbc_overlap" "$coll" "$BYTES" "$REPS" > "$f" ||
        echo "nbc-overlap: $coll P=$P $col failed or timed out" >&2
    done
  done
done
python3 - "$OUT" "$PROCS" "$COLLS" "$BYTES" <<'PY'
import sys, os
out, procs, colls, nbytes = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4]
def rows(path):
    r = {}
    if os.path.exists(path):
        for line in open(path):
            if line.startswith("RESULT"):
                d = dict(kv.split("=") for kv in line.split()[1:])
                r[(float(d["f"]), d["test"])] = d
    return r
print("C = f x libarcoll's blocking time; ratio = completion / max(C, that library's blocking time)")
print("%-10s %4s %4s %-7s %8s %9s %9s | %9s %6s | %9s %6s" % (
    "coll", "P", "f", "variant", "C_ms", "blk_arc", "blk_smpi", "arcoll_ms", "ratio",
    "smpi_ms", "ratio"))
for coll in colls:
    for P in procs:
        a = rows(os.path.join(out, "raw", "%s-P%s-%s-arcoll.txt" % (coll, P, nbytes)))
        s = rows(os.path.join(out, "raw", "%s-P%s-%s-smpi.txt" % (coll, P, nbytes)))
        for k in sorted(a):
            x, y = a[k], s.get(k)
            print("%-10s %4s %4.1f %-7s %8.3f %9.3f %9.3f | %9.3f %6s | %9s %6s" % (
                coll, P, k[0], "test16" if k[1] == "1" else "notest", 1e3 * float(x["comp"]),
                1e3 * float(x["block_lib"]), 1e3 * float(x["block_smpi"]), 1e3 * float(x["nb"]),
                x["ratio_lib"], "%.3f" % (1e3 * float(y["nb"])) if y else "-",
                y["ratio_smpi"] if y else "-"))
PY
