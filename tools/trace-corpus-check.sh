#!/usr/bin/env bash
# Runs the corpus of corrupted traces (written by arcoll-trace-corpus) through
# `arcoll summary`, `arcoll place` (tools/examples topology and hosts),
# `arcoll export --otf2` and `arcoll report`. The valid trace must pass all
# four (exit 0); every corrupted one must make each command exit with a code
# in 1..127 (no signal, no crash) and print a message on stderr that names
# the file and contains the problem listed in cases.tsv, with no sanitizer
# report (and `report` must not leave a page behind).
#   usage: trace-corpus-check.sh ARCOLL CORPUS_GENERATOR WORKDIR
#   ARCOLL_CORPUS_VMEM_KB: when set, `ulimit -v` for the commands (a huge
#   allocation then fails and its message does not name the file; not usable
#   under AddressSanitizer, which reserves terabytes of address space).
set -uo pipefail
arcoll=$1 gen=$2 work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
examples=$here/examples
rm -rf "$work" && mkdir -p "$work/corpus" "$work/out" || exit 1
"$gen" "$work/corpus" || { echo "trace-corpus-check: FAIL: the corpus generator failed"; exit 1; }

run() {  # run NAME KIND TRACE -> rc in $rc, stderr in $work/out/NAME.KIND.err
  local name=$1 kind=$2 trace=$3 err=$work/out/$1.$2.err
  local args
  case $kind in
    summary) args=(summary "$trace") ;;
    place) args=(place "$trace" --topology "$examples/topology.conf" --hosts "$examples/hosts.txt"
                 -o "$work/out/$name.machinefile" --time-limit 5) ;;
    export) args=(export "$trace" --otf2 "$work/out/$name.otf2") ;;
    report) args=(report "$trace" -o "$work/out/$name.html") ;;
  esac
  (
    [ -n "${ARCOLL_CORPUS_VMEM_KB:-}" ] && ulimit -v "$ARCOLL_CORPUS_VMEM_KB"
    exec "$arcoll" "${args[@]}"
  ) >"$work/out/$name.$kind.out" 2>"$err"
  rc=$?
}

kinds=(summary place export report)
fails=0 n=0
fail() { echo "trace-corpus-check: FAIL: $*"; fails=$((fails + 1)); }

for k in "${kinds[@]}"; do
  run valid "$k" "$work/corpus/valid.arctrace"
  [ "$rc" = 0 ] || fail "arcoll $k on the valid trace exited $rc: $(head -c 600 "$work/out/valid.$k.err")"
done

while IFS=$'\t' read -r name expect; do
  trace=$work/corpus/$name.arctrace
  for k in "${kinds[@]}"; do
    n=$((n + 1))
    run "$name" "$k" "$trace"
    err=$work/out/$name.$k.err
    msg=$(head -c 800 "$err")
    if [ "$rc" = 0 ]; then fail "$name: arcoll $k accepted the corrupted trace"; continue; fi
    if [ "$rc" -ge 128 ]; then fail "$name: arcoll $k died (exit $rc, signal $((rc - 128))): $msg"; continue; fi
    if grep -qE "Sanitizer|runtime error:" "$err"; then fail "$name: arcoll $k: sanitizer report: $msg"; continue; fi
    grep -qF "$trace" "$err" || fail "$name: arcoll $k (exit $rc): the message does not name the file: $msg"
    # (the file name is left out: "truncated_at_40.arctrace" must not count as "truncated")
    awk -v t="$trace" '{ gsub(t, "") } 1' "$err" | grep -qF -- "$expect" || fail "$name: arcoll $k (exit $rc): expected '$expect' in: $msg"
    if [ "$k" = export ] && [ -e "$work/out/$name.otf2/traces.otf2" ]; then
      fail "$name: arcoll export left an archive behind"
    fi
    if [ "$k" = report ] && [ -e "$work/out/$name.html" ]; then
      fail "$name: arcoll report wrote a page"
    fi
  done
done <"$work/corpus/cases.tsv"

cases=$(wc -l <"$work/corpus/cases.tsv")
if ((fails)); then
  echo "trace-corpus-check: $fails of $n runs failed ($cases corrupted traces x ${#kinds[@]} commands: ${kinds[*]})"
  exit 1
fi
echo "trace-corpus-check: OK: $cases corrupted traces x ${#kinds[@]} commands (${kinds[*]}) = $n runs, each a clear error; the valid trace passes"
