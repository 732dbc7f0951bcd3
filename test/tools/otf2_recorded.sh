#!/bin/sh
# Records a trace of APP (point-to-point steps and collectives) with the
# profiler at 3 ranks, then runs test_export_otf2's RecordedTrace on it:
# `arcoll export --otf2`, otf2-print, event counts per rank vs the reader.
# usage: otf2_recorded.sh MPIEXEC PRELOAD APP TEST_EXPORT_OTF2 WORKDIR
set -u
mpiexec=$1 preload=$2 app=$3 test=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || exit 1
ARCOLL_PAPI=0 ARCOLL_PROFILE_SUMMARY=0 "$mpiexec" -n 3 -env LD_PRELOAD "$preload" \
  -env ARCOLL_TRACE "$dir/t.arctrace" "$app" >out.txt 2>&1 ||
  { echo "otf2_recorded: FAIL: the profiled program failed"; cat out.txt; exit 1; }
ARCOLL_OTF2_TRACE="$dir/t.arctrace" "$test" --gtest_filter='ExportOtf2.RecordedTrace' 2>&1 |
  tee test.txt
grep -q "^\[  PASSED  \] 1 test" test.txt && ! grep -q SKIPPED test.txt
