#!/bin/sh
# Replays a recorded trace with the profiler attached and checks the replay's
# trace against the original (replay_compare.cpp): every pair's messages and
# bytes, every rank's collective calls.
#
#   replay_roundtrip.sh mpich NP MPIEXEC PROFILER_SO REPLAY TRACE COMPARE WORKDIR
#   replay_roundtrip.sh smpi  NP SMPIRUN PROFILER_SO REPLAY_PROF TRACE COMPARE WORKDIR PLATFORM HOSTFILE
#
# mpich: REPLAY is the MPICH trace_replay, the profiler is LD_PRELOADed;
# smpi: REPLAY_PROF is the SMPI trace_replay_prof (profiler linked), privatised.
set -eu
backend=$1 np=$2 launcher=$3 prof=$4 replay=$5 trace=$6 compare=$7 work=$8
rm -rf "$work" && mkdir -p "$work"
out=$work/replay.arctrace
if [ "$backend" = mpich ]; then
  env ARCOLL_TRACE="$out" ARCOLL_PAPI=0 LD_PRELOAD="$prof" "$launcher" -n "$np" "$replay" -t "$trace" >"$work/run.log" 2>&1
else
  env ARCOLL_TRACE="$out" ARCOLL_PAPI=0 "$launcher" -platform "$9" -hostfile "${10}" -np "$np" \
    --cfg=smpi/simulate-computation:no --log=root.thres:warning --cfg=smpi/privatize-libs:"$prof" \
    "$replay" -t "$trace" >"$work/run.log" 2>&1
fi
grep '^WORKLOAD ' "$work/run.log"
grep -q "^WORKLOAD name=trace_replay ranks=$np .*status=OK" "$work/run.log" || { cat "$work/run.log"; exit 1; }
"$compare" "$trace" "$out"
