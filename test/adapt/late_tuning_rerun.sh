#!/usr/bin/env bash
# Late sets in tuning files end to end (adapt/tuning.h "lateness"), under
# SMPI.  The file comes from SOURCE:
#   run      a run of the program with libarcoll and ARCOLL_TUNING_OUT (the
#            late ranks its lateness history found);
#   profile:CLI:PROF_LIB:PROF_APP  a profile run (PROF_APP linked with
#            libarcoll_profiler PROF_LIB, ARCOLL_TRACE) and `CLI tune`.
# The file must list RANK first for (COLL, P, root 0); a rerun with
# ARCOLL_TUNING starts with it (debug line "tuning: COLL P=P root 0: ... from
# the file, first RANK"), and its calls before the first lateness summary
# (0 .. FIRST-1) take less time inside, summed over ranks, than a run without
# the file (simulated time: deterministic).  STALE (or -): a run of that
# scenario with the file (a stale late set) may take at most 1 % more time
# inside than without.  A short run of another collective with the file as
# ARCOLL_TUNING and ARCOLL_TUNING_OUT writes COLL's late sets unchanged.
# Every run checks every element (errors=0).
#   late_tuning_rerun.sh WORKDIR COLL BYTES P SCENARIO RANK FIRST STALE SOURCE LIB APP -- SMPIRUN ARGS...
# LIB, APP: libarcoll.so (privatized) and the program linked with it.
set -euo pipefail
dir=$1 coll=$2 bytes=$3 np=$4 scen=$5 rank=$6 first=$7 stale=$8 source=$9 lib=${10} app=${11}
shift 11
[ "${1:-}" = -- ] && shift
[ "$stale" = - ] && stale=
mkdir -p "$dir"
tuning=$dir/tuning.json
rm -f "$tuning"
args=(-c "$coll" -m "$bytes" -n 40 -s "$scen" -p)
arc=("$@" "--cfg=smpi/privatize-libs:$lib" "$app")
case $source in
  run)
    env ARCOLL_TUNING_OUT="$tuning" "${arc[@]}" "${args[@]}" >"$dir/run1.out" 2>"$dir/run1.err" ||
      { cat "$dir/run1.err" >&2; exit 1; } ;;
  profile:*)
    IFS=: read -r _ cli plib papp <<<"$source"
    rm -f "$dir/profile.arctrace"
    env ARCOLL_TRACE="$dir/profile.arctrace" "$@" "--cfg=smpi/privatize-libs:$plib" "$papp" "${args[@]}" \
      >"$dir/profile.out" 2>"$dir/profile.err" || { cat "$dir/profile.err" >&2; exit 1; }
    "$cli" tune "$dir/profile.arctrace" -o "$tuning" | tee "$dir/tune.out"
    "${arc[@]}" "${args[@]}" >"$dir/run1.out" 2>"$dir/run1.err" || { cat "$dir/run1.err" >&2; exit 1; } ;;
  *) echo "late_tuning_rerun.sh: SOURCE must be run or profile:CLI:PROF_LIB:PROF_APP" >&2; exit 2 ;;
esac
env ARCOLL_TUNING="$tuning" ARCOLL_DEBUG=1 "${arc[@]}" "${args[@]}" >"$dir/run2.out" 2>"$dir/run2.err" ||
  { cat "$dir/run2.err" >&2; exit 1; }
# a run of another collective with the file in and out keeps the file's late
# sets (it tracked none of their sites: adapt/tuning.h arcoll_tuning_merge_late)
other=bcast; [ "$coll" = bcast ] && other=allreduce
env ARCOLL_TUNING="$tuning" ARCOLL_TUNING_OUT="$dir/carried.json" "${arc[@]}" -c "$other" -m 8 -n 4 -s balanced \
  >"$dir/carry.out" 2>"$dir/carry.err" || { cat "$dir/carry.err" >&2; exit 1; }
if [ -n "$stale" ]; then
  sargs=(-c "$coll" -m "$bytes" -n 40 -s "$stale" -p)
  "${arc[@]}" "${sargs[@]}" >"$dir/stale-cold.out" 2>"$dir/stale-cold.err" || { cat "$dir/stale-cold.err" >&2; exit 1; }
  env ARCOLL_TUNING="$tuning" "${arc[@]}" "${sargs[@]}" >"$dir/stale-warm.out" 2>"$dir/stale-warm.err" ||
    { cat "$dir/stale-warm.err" >&2; exit 1; }
fi
python3 - "$dir" "$coll" "$np" "$rank" "$first" "$stale" <<'PY'
import json, re, sys
d, coll, P, rank, first, stale = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
doc = json.load(open(f"{d}/tuning.json"))
sets = [s for s in doc.get("lateness", []) if s["collective"] == coll and s["P"] == P and s["root"] == 0]
assert sets, f"FAIL: no late set of {coll} P={P} root 0 in the file: {doc.get('lateness')}"
late = sets[-1]["late"]
assert late[0]["rank"] == rank, f"FAIL: the file's latest rank is {late[0]}, expected {rank}"
assert late[0]["caused_s"] > 0, late
err = open(f"{d}/run2.err").read()
want = f"tuning: {coll} P={P} root 0: {len(late)} late rank(s) from the file, first {rank}"
assert want in err, f"FAIL: the rerun did not start from the file ('{want}' missing)"
def calls(path):
    out = open(path).read()
    assert re.search(r"RESULT coll=\S+ .* errors=0", out), f"FAIL: {path}: " + out[-400:]
    return {int(c): float(s) for c, s in re.findall(r"^CALL (\d+) inside_sum=(\S+)", out, re.M)}
a, b = calls(f"{d}/run1.out"), calls(f"{d}/run2.out")
ta, tb = sum(a[c] for c in range(first)), sum(b[c] for c in range(first))
total_a, total_b = sum(a.values()), sum(b.values())
print(f"late_tuning_rerun {coll} P={P}: calls 0..{first - 1} inside summed {ta:.4f} s -> {tb:.4f} s "
      f"with the file; all {len(a)} calls {total_a:.4f} -> {total_b:.4f} s")
assert tb < ta, "FAIL: the rerun's first calls were not faster"
if stale:
    c, w = sum(calls(f"{d}/stale-cold.out").values()), sum(calls(f"{d}/stale-warm.out").values())
    print(f"late_tuning_rerun {coll} P={P}: {stale} with the stale file {w:.4f} s, without {c:.4f} s ({w / c:.3f}x)")
    assert w <= 1.01 * c, "FAIL: a stale late set cost more than 1 %"
carried = json.load(open(f"{d}/carried.json")).get("lateness", [])
def same(a, b):  # the library keeps times as floats: equal to 1e-6 relative
    keys = ("collective", "P", "site", "root", "tolerant_tree")
    return all(a[k] == b[k] for k in keys) and [r["rank"] for r in a["late"]] == [r["rank"] for r in b["late"]] and \
        all(abs(x["caused_s"] - y["caused_s"]) <= 1e-6 * max(abs(y["caused_s"]), 1e-12) for x, y in zip(a["late"], b["late"]))
mine = [s for s in carried if s["collective"] == coll]
want = [s for s in doc["lateness"] if s["collective"] == coll]
assert len(mine) == len(want) and all(same(a, b) for a, b in zip(mine, want)), \
    f"FAIL: a run of another collective lost or changed the file's {coll} late sets: {carried} against {want}"
print(f"late_tuning_rerun {coll} P={P}: a run of another collective kept the file's {len(sets)} late set(s)")
print(f"late_tuning_rerun {coll} P={P}: OK")
PY
