#!/usr/bin/env bash
# Tuning files end to end (adapt/tuning.h): a run of online_check with
# ARCOLL_TUNING_OUT writes the choice its exploration kept; the file is
# parsed back and must name that algorithm for (coll, P, size class); a
# rerun with ARCOLL_TUNING runs that algorithm from the first call, with no
# exploration (online_check `tuned`; no "arcoll: online:" line with
# ARCOLL_DEBUG=1).
#   tuning_roundtrip.sh WORKDIR COLL BYTES P LAUNCHER... PROGRAM
# LAUNCHER... PROGRAM: the command that runs online_check on P ranks with
# libarcoll (mpiexec.hydra -n P -genv LD_PRELOAD lib prog, or smpirun ...);
# the environment is passed with `env` in front of it.
set -euo pipefail
dir=$1 coll=$2 bytes=$3 np=$4
shift 4
mkdir -p "$dir"
tuning=$dir/tuning.json
rm -f "$tuning"
args=("$coll" "$bytes" 3 2 22 0 3) # 29 calls: round 0 (6 measured + 2 warm-up), <= 3 refinement
# rounds of 4 / 2 / 2 calls, each decision 2 calls later (24 at most), then the kept one
# ARCOLL_LATE_ORDER=off: a bcast of 8 KiB and more tracks lateness and
# explores only after the first lateness summary (call 17, dispatch.h
# arcoll_late_algorithm); these calls test the exploration and the file.
# ARCOLL_ONLINE_LAG=2: a bcast from 8 KiB decides 16 calls after a round
# (adapt/decision.h ARCOLL_ONLINE_STREAM_LAG); with 16 calls and the
# streaming candidate's warm-up the refinement could end after the last call
# (no choice in the file: seen with 3 MPICH ranks on 2 cores).
out1=$(env ARCOLL_LATE_ORDER=off ARCOLL_ONLINE_LAG=2 ARCOLL_ONLINE_CANDIDATES=3 ARCOLL_ONLINE_TRIALS=2 ARCOLL_ONLINE_SKEW=0 ARCOLL_TUNING_OUT="$tuning" \
  "$@" "${args[@]}" 2>"$dir/run1.err") || { cat "$dir/run1.err" >&2; echo "$out1"; exit 1; }
kept=$(sed -n "s/^online_check $coll P=$np: OK .*kept \([^) ]*\)).*/\1/p" <<<"$out1")
[ -n "$kept" ] || { echo "FAIL: first run did not report its kept algorithm:"; echo "$out1"; exit 1; }
python3 - "$tuning" "$coll" "$np" "$bytes" "$kept" <<'PY'
import json, sys
path, coll, P, nbytes, kept = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
doc = json.load(open(path))
assert doc["arcoll_tuning"] == 1, doc
ch = [c for c in doc["choices"] if c["collective"] == coll and c["P"] == P and c["commutative"]]
# the entry of this size: the class whose representative is nearest the size
e = min(ch, key=lambda c: abs(c["bytes"] - nbytes), default=None)
assert e is not None, f"no {coll} P={P} choice in {path}: {doc}"
assert abs(e["bytes"] - nbytes) <= nbytes / 4, (e, nbytes)
assert e["algorithm"] == kept, f"file says {e['algorithm']}, the run kept {kept}"
assert e["source"] == "measured", e
print(f"tuning file: {coll} P={P} class {e['size_class']} -> {e['algorithm']}/{e['segment_bytes']} "
      f"({len(doc['choices'])} choices)")
PY
# ARCOLL_LATE_ORDER=off here too: a rank found late runs the tolerant tree
# instead of the tuned choice, by design (adapt/LATENESS.md "Lateness"); 3
# MPICH ranks on 2 cores sometimes arrive 0.1 ms apart (seen: rank 0
# 95 us late at the first summary, the binary tree from call 3, 1 run in 6).
out2=$(env ARCOLL_LATE_ORDER=off ARCOLL_ONLINE_CANDIDATES=3 ARCOLL_ONLINE_TRIALS=2 ARCOLL_TUNING="$tuning" ARCOLL_DEBUG=1 \
  "$@" "${args[@]}" tuned 2>"$dir/run2.err") || { cat "$dir/run2.err" >&2; echo "$out2"; exit 1; }
echo "$out2" | tail -1
grep -q "OK (tuned, every call $kept)" <<<"$out2" || { echo "FAIL: rerun did not run $kept on every call"; exit 1; }
if grep -q "arcoll: online: $coll " "$dir/run2.err"; then
  echo "FAIL: the rerun with ARCOLL_TUNING explored:"; grep "arcoll: online: $coll " "$dir/run2.err"; exit 1
fi
echo "tuning_roundtrip $coll P=$np: OK (kept $kept, rerun explored 0 calls)"
