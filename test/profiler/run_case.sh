#!/bin/sh
# Runs one profiler MPI test case: launches APP under the profiler, checks the
# exit status and the profiler's messages, then the trace with trace_check.
# usage: run_case.sh MODE NP MPIEXEC PRELOAD APP CHECKER WORKDIR [SOURCE]
# MODE: coll | p2p | persist | papi | nopapi | unwritable | badenv | stripped | fortran
# SOURCE (coll, fortran): APP's source, built with -g; call-site names must
# give its lines, those of the "site: TAG" marker comments for TAG's calls.
# stripped: runs a stripped copy of APP; names must be module+0xOFFSET.
set -u
mode=$1 np=$2 mpiexec=$3 preload=$4 app=$5 checker=$6 dir=$7 src=${8:-}
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
# site_args TAG...: "--source BASE --line TAG=N ..." with N the line of the
# TAG marker comment in $src (C "/* site: TAG */" or Fortran "! site: TAG").
site_args() {
  [ -n "$src" ] || return 0
  printf -- "--source %s" "$(basename "$src")"
  for tag in "$@"; do
    n=$(grep -n -e "/\* site: $tag \*/" -e "! site: $tag\$" "$src" | cut -d: -f1)
    [ "$(echo "$n" | wc -w)" = 1 ] || { echo "run_case: no single marker 'site: $tag' in $src" >&2; exit 2; }
    printf -- " --line %s=%s" "$tag" "$n"
  done
}
trace=$dir/t.arctrace
export ARCOLL_TRACE="$trace"
export ARCOLL_PAPI=0
unset ARCOLL_PAPI_EVENTS ARCOLL_PROFILE_SUMMARY
check_args=""
kind=coll
case $mode in
  coll) check_args=$(site_args ibcast inplace) || exit 2 ;;
  stripped)
    cp "$app" "$dir/coll_stripped" && strip --strip-all "$dir/coll_stripped" || exit 1
    app=$dir/coll_stripped; check_args="--stripped" ;;
  fortran) check_args=$(site_args bcast allreduce sub) || exit 2; kind=fortran ;;
  p2p) kind=p2p ;;
  persist) kind=persist ;;
  papi)
    # The counter path needs a PAPI event this machine has (perf::TASK-CLOCK, a
    # software event of the perf_event component); skip (77) where PAPI has none.
    if ! papi_native_avail 2>/dev/null | grep -q "perf::TASK-CLOCK"; then
      echo "run_case papi: SKIP: PAPI has no perf::TASK-CLOCK here (perf_event component disabled: papi_component_avail)"
      exit 77
    fi
    export ARCOLL_PAPI=1 ARCOLL_PAPI_EVENTS=perf::TASK-CLOCK; check_args="--counters 1"; kind=p2p ;;
  nopapi) export ARCOLL_PAPI=1; kind=p2p ;;
  unwritable) export ARCOLL_TRACE=/nonexistent-arcoll-dir/t.arctrace ;;
  badenv) export ARCOLL_PROFILE_SUMMARY=maybe; kind=p2p ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
fail() { echo "run_case $mode: FAIL: $*"; echo "--- stderr:"; cat err.txt; exit 1; }
"$mpiexec" -n "$np" -env LD_PRELOAD "$preload" "$app" >out.txt 2>err.txt
rc=$?
cat out.txt err.txt
[ $rc -eq 0 ] || fail "the program exited with $rc"
case $mode in
  unwritable)
    grep -q "arcoll: cannot write the trace file '/nonexistent-arcoll-dir/t.arctrace'.*ARCOLL_TRACE" err.txt ||
      fail "no clear message about the unwritable trace path"
    [ ! -e /nonexistent-arcoll-dir ] || fail "trace directory appeared"
    echo "run_case unwritable: OK"; exit 0 ;;
  nopapi)
    n=$(grep -c "arcoll: PAPI counters unavailable (PAPI_TOT_INS: .*); recording without counters" err.txt)
    [ "$n" = 1 ] || fail "expected exactly one 'PAPI counters unavailable' message, got $n" ;;
  papi)
    ! grep -q "PAPI counters unavailable" err.txt || fail "counters unavailable" ;;
  badenv)
    grep -q "arcoll: bad value 'maybe' of environment variable ARCOLL_PROFILE_SUMMARY" err.txt ||
      fail "no message naming ARCOLL_PROFILE_SUMMARY" ;;
esac
grep -q "^arcoll: trace $trace: $np ranks" err.txt || fail "no summary naming the trace path"
grep -q "^arcoll: ranks causing waiting" err.txt || fail "no ranks causing waiting in the summary"
ls "$dir" | grep -q part && fail "part files left behind: $(ls "$dir")"
"$checker" "$kind" "$trace" "$np" $check_args || fail "trace_check"
echo "run_case $mode: OK"
