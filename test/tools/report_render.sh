#!/bin/sh
# Renders an `arcoll report` page in headless Chromium and checks it
# (report_check.py): every plot the data calls for rendered an SVG with
# marks, no JavaScript error or warning (window.onerror, console.error/warn,
# a rejected Vega view) and no console message in Chromium's log; the data
# embedded in the page equals `--json`'s and agrees with `arcoll summary`.
# The screenshot is left in WORKDIR/report.png.
#   usage: report_render.sh MODE ARCOLL CHROMIUM WORKDIR [MODE ARGS]
#   MODE corpus CORPUS_GENERATOR: the corpus's valid trace (4 ranks, no MPI),
#        with a mapping written by `arcoll place` and a tuning file;
#   MODE mpi MPIEXEC PROFILER APP: APP = test/apps/imbalanced_bcast at 3 ranks
#        under the profiler (rank 1 loaded: it must top the caused waits),
#        then `arcoll place` and the report with its mapping.
set -u
mode=$1 arcoll=$2 chromium=$3 dir=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
examples=$here/../../tools/examples
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
fail() { echo "report_render: FAIL: $*"; exit 1; }
check_args=""
case $mode in
  corpus)
    mkdir corpus && "$1" corpus >/dev/null || fail "the corpus generator failed"
    cp corpus/valid.arctrace t.arctrace
    cat >tuning.json <<'JSON'
{"arcoll_tuning": 1, "choices": [
 {"collective": "bcast", "P": 4, "commutative": true, "size_class": 49, "bytes": 4608, "algorithm": "binomial",
  "segment_bytes": 0, "k": 0, "source": "measured"}]}
JSON
    extra="--tuning tuning.json"
    expect=waits,skew,matrix,steps,links ;;
  mpi)
    mpiexec=$1 preload=$2 app=$3
    ARCOLL_PAPI=0 ARCOLL_PROFILE_SUMMARY=0 "$mpiexec" -n 3 -env LD_PRELOAD "$preload" \
      -env ARCOLL_TRACE "$dir/t.arctrace" "$app" -n 12 -m 65536 -l 2e7 -x 16384 -L 1 >app.out 2>&1 ||
      { cat app.out; fail "the profiled program failed"; }
    extra=""
    check_args="--loaded-rank 1"
    expect=waits,skew,matrix,steps,links ;;
  *) fail "unknown mode $mode" ;;
esac
"$arcoll" place t.arctrace --topology "$examples/topology.conf" --hosts "$examples/hosts.txt" \
  -o launch.hydra --time-limit 5 >place.out 2>&1 || { cat place.out; fail "arcoll place failed"; }
"$arcoll" summary t.arctrace >summary.out 2>&1 || { cat summary.out; fail "arcoll summary failed"; }
# shellcheck disable=SC2086
"$arcoll" report t.arctrace -o report.html --json report.json --mapping launch.hydra \
  --topology "$examples/topology.conf" --hosts "$examples/hosts.txt" $extra || fail "arcoll report failed"
# A profile of its own (no first-run dialogs, no shared state with another
# Chromium); virtual time lets the page's scripts finish before the dump.
flags="--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir=$dir/chrome
  --virtual-time-budget=20000 --enable-logging=stderr --v=0"
# shellcheck disable=SC2086
timeout 180 "$chromium" $flags --dump-dom "file://$dir/report.html" >dom.html 2>chrome.log ||
  { tail -20 chrome.log; fail "chromium --dump-dom failed"; }
# shellcheck disable=SC2086
timeout 180 "$chromium" $flags --window-size=1200,2600 --screenshot="$dir/report.png" "file://$dir/report.html" \
  >/dev/null 2>chrome-shot.log || { tail -20 chrome-shot.log; fail "chromium --screenshot failed"; }
[ -s report.png ] || fail "no screenshot"
python3 "$here/report_check.py" --html report.html --json report.json --dom dom.html --log chrome.log \
  --summary summary.out --expect "$expect" $check_args || fail "see above"
echo "report_render: OK ($mode): $dir/report.html, screenshot $dir/report.png"
