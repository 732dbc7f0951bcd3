#!/usr/bin/env bash
# expect_lines.sh [--status N] REGEX... -- COMMAND ARGS...: runs COMMAND (stdout and stderr
# together, printed), then fails unless its exit status is N (default 0) and every
# extended REGEX matches one of its lines, and no line matches a REGEX given
# as !REGEX (ctest's PASS_REGULAR_EXPRESSION passes on any one of its
# patterns and ignores the exit status).
set -uo pipefail
pats=() want=0
if [ "${1:-}" = --status ]; then want=$2; shift 2; fi
while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
[ $# -gt 1 ] || { echo "usage: expect_lines.sh [--status N] REGEX... -- COMMAND ARGS..." >&2; exit 2; }
shift
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc -eq "$want" ] || { echo "expect_lines: FAIL: exit status $rc, not $want" >&2; exit 1; }
for p in "${pats[@]}"; do
  if [ "${p:0:1}" = '!' ]; then
    ! grep -Eq -- "${p:1}" <<<"$out" || { echo "expect_lines: FAIL: a line matches: ${p:1}" >&2; exit 1; }
  else
    grep -Eq -- "$p" <<<"$out" || { echo "expect_lines: FAIL: no line matches: $p" >&2; exit 1; }
  fi
done
echo "expect_lines: OK (${#pats[@]} patterns)"
