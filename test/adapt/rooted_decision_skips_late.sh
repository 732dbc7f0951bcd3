#!/usr/bin/env bash
# rooted_decision_skips_late.sh SMPIRUN_ARGS... : a bcast's or scatter's online decision
# taken by the root (adapt/decision.h) does not make the ranks wait for a
# late rank's backlog.  Runs the same coll_loop command (given after this
# script's name, ending with the program and its arguments) twice under
# SMPI: with ARCOLL_ONLINE_LAG=0 (the blocking allreduces: every rank waits
# at the decision for the latest rank's backlog) and with the default (the
# root decides from the records that arrived).  Passes when both check every
# element (errors=0) and the root's way sums less than half the time inside
# (simulated time: deterministic).
set -uo pipefail
run() {
  local out
  out=$(env "$@" 2>&1) || { printf '%s\n' "$out"; echo "rooted_decision: FAIL: exit status" >&2; exit 1; }
  printf '%s\n' "$out" >&2
  grep -E '^RESULT .* errors=0$' <<<"$out" | sed -E 's/.*inside_sum=([^ ]+).*/\1/'
}
blocking=$(run ARCOLL_ONLINE_LAG=0 "$@") || exit 1
rooted=$(run "$@") || exit 1
[ -n "$blocking" ] && [ -n "$rooted" ] || { echo "rooted_decision: FAIL: no RESULT line with errors=0"; exit 1; }
echo "rooted_decision: summed inside: blocking $blocking s, rooted $rooted s"
if awk -v b="$blocking" -v r="$rooted" 'BEGIN { exit !(r < 0.5 * b) }'; then
  echo "rooted_decision: OK"
else
  echo "rooted_decision: FAIL: the root's decision did not halve the time inside"
  exit 1
fi
