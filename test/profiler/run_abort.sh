#!/bin/sh
# A profiled run that ends in MPI_Abort or SIGTERM (abort_run.c) leaves its
# trace parts; `arcoll recover` assembles them; the trace reads back with the
# 30 broadcasts and the barrier of the last rank (flushed by the abort / signal handler) and,
# with ARCOLL_FLUSH_SECONDS=0, of every rank.  Then: a torn part file is cut
# to its intact blocks, an existing output is never overwritten, a path
# without parts is an error naming it.
# usage: run_abort.sh abort|sigterm NP MPIEXEC PRELOAD APP ARCOLL CHECKER WORKDIR
set -u
mode=$1 np=$2 mpiexec=$3 preload=$4 app=$5 arcoll=$6 checker=$7 dir=$8
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
fail() { echo "run_abort $mode: FAIL: $*"; for f in out.txt err.txt rec.txt; do [ -f $f ] && { echo "--- $f"; cat $f; }; done; exit 1; }
last=$((np - 1))
for flush in default 0; do
  trace=$dir/t-$flush.arctrace
  if [ $flush = default ]; then unset ARCOLL_FLUSH_SECONDS; else export ARCOLL_FLUSH_SECONDS=$flush; fi
  # Hydra may tear the job down before it forwards the aborting rank's
  # stderr (seen once in CI: err.txt empty, not even MPICH's own abort
  # line): an empty err.txt reruns the job, at most 3 times; any output
  # without our line is a failure.
  for try in 1 2 3; do
    rm -f "$trace" "$trace".part*
    ARCOLL_TRACE=$trace ARCOLL_PAPI=0 timeout 60 "$mpiexec" -n "$np" -env LD_PRELOAD "$preload" "$app" "$mode" \
      >out.txt 2>err.txt
    rc=$?
    [ -s err.txt ] && break
    echo "run_abort $mode: try $try: exit $rc, the job's stderr is empty"
  done
  [ $rc -ne 0 ] || fail "the job exited 0"
  [ $rc -ne 124 ] || fail "the job hung"
  want=MPI_Abort; [ $mode = sigterm ] && want=SIGTERM
  grep -q "arcoll: $want: rank $last wrote its trace part $trace.part$last; .*arcoll recover $trace" err.txt ||
    fail "no message from rank $last naming its part file and arcoll recover"
  [ -s "$trace" ] && fail "a trace was written without MPI_Finalize"
  "$arcoll" recover "$trace" --nranks "$np" >rec.txt 2>&1 || fail "arcoll recover failed"
  cat rec.txt
  grep -q "^wrote $trace: $np ranks (0 complete" rec.txt || fail "recover output"
  all=""; [ $flush = 0 ] && all=--all
  "$checker" aborted "$trace" "$np" --delayed "$last" $all || fail "trace_check aborted (flush $flush)"
  "$arcoll" summary "$trace" >/dev/null 2>&1 || fail "arcoll summary of the recovered trace"
done
# an existing output is not overwritten; no parts: an error naming the path
"$arcoll" recover "$trace" >rec.txt 2>&1 && fail "recover overwrote $trace"
grep -q "exists already" rec.txt || fail "no 'exists already' message"
"$arcoll" recover "$dir/none.arctrace" >rec.txt 2>&1 && fail "recover without parts succeeded"
grep -q "no part file $dir/none.arctrace.part0" rec.txt || fail "no message naming the missing part"
# a torn part: the last rank's part cut in its last block
p=$trace.part$last
size=$(stat -c %s "$p")
head -c $((size - 5)) "$p" >"$p.cut" && mv "$p.cut" "$p"
"$arcoll" recover "$trace" -o "$dir/torn.arctrace" >rec.txt 2>&1 || fail "recover of a torn part"
grep -q "rank $last: kept [0-9]* bytes, dropped [0-9]* (block at byte [0-9]* is cut short" rec.txt ||
  fail "the torn block is not reported"
"$arcoll" summary "$dir/torn.arctrace" >/dev/null 2>&1 || fail "the trace from a torn part does not read back"
echo "run_abort $mode: OK"
