#!/bin/sh
# Fidelity of the profiler's cause analysis at scale (SimGrid SMPI): the
# ctest profiler_smpi_fidelity64 run at 256 and 1024 ranks (small messages:
# 8-byte allreduce, 4-byte-per-rank allgather, barrier; delays of
# test/profiler/fidelity_plan.h). Prints each run's recovered-vs-injected
# table; exit 1 if any run fails its checks.
# usage: tools/profiler-fidelity.sh [BUILD_DIR [SEED [ITERS]]]   (env NPS="256 1024")
# Runs SMPI: take the machine's MPI lock yourself, e.g.
#   flock /tmp/arcoll-mpi.lock tools/profiler-fidelity.sh build
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd) || exit 2
seed=${2:-17} iters=${3:-30}
smpirun=$(command -v smpirun) || { echo "profiler-fidelity: smpirun not found"; exit 2; }
app=$build/smpi/test/profiler/arcoll_prof_fidelity_smpi
lib=$build/smpi/profiler/libarcoll_profiler.so
chk=$build/test/profiler/arcoll_fidelity_check
for f in "$app" "$lib" "$chk"; do
  [ -e "$f" ] || { echo "profiler-fidelity: $f missing: build first (cmake --build $build)"; exit 2; }
done
status=0
for np in ${NPS:-256 1024}; do
  echo "=== $np ranks (seed $seed, $iters iterations)"
  out=$build/profiler-fidelity/np$np
  sh "$src/test/profiler/run_fidelity.sh" "$smpirun" "$np" "$lib" "$app" "$chk" "$out" "$seed" "$iters" \
    > "$build/profiler-fidelity-np$np.log" 2>&1
  rc=$?
  sed -n '/^site /,$p' "$build/profiler-fidelity-np$np.log"
  grep "smpirun took" "$build/profiler-fidelity-np$np.log"
  [ $rc -eq 0 ] || { echo "profiler-fidelity: $np ranks FAILED (log: $build/profiler-fidelity-np$np.log)"; status=1; }
done
exit $status
