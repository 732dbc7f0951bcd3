#!/usr/bin/env bash
# The README's first command: the whole arcoll workflow on the bundled example
# (test/apps/imbalanced_bcast.c: one middle rank works before each MPI_Bcast,
# and the ranks exchange halos with their ring neighbours).
#   1. profile   4 ranks of real MPICH with libarcoll_profiler.so preloaded;
#                the trace exported to OTF2 (arcoll export)
#   2. place     arcoll place -> hydra machinefile, Open MPI rankfile, Slurm
#                hostfile, Cray MPICH_RANK_ORDER (tools/examples/ topology)
#   2b. tune     arcoll tune -> tuning.json: the profile run's late ranks
#   3. rerun     with the machinefile, libarcoll.so preloaded and the tuning
#                file; the result must be the same as without it
#   4. scale     256 ranks under SimGrid SMPI without and with libarcoll
#   5. report    arcoll report: the HTML page of the trace and the placement
# Env: ARCOLL_BUILD_DIR, ARCOLL_PREFIX (tools/setup.sh), ARCOLL_DEMO_RANKS (4).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ARCOLL_BUILD_DIR:-$here/build}
prefix=${ARCOLL_PREFIX:-$build/prefix}
ranks=${ARCOLL_DEMO_RANKS:-4}

bash "$here/tools/setup.sh"
app=$build/test/apps/imbalanced_bcast
demo=$build/demo
rm -rf "$demo"; mkdir -p "$demo"; cd "$demo"
# Real MPICH on few cores: a modest load and message.
args=(-n 20 -m 262144 -l 2e7 -x 65536)
say() { printf '\n== %s\n' "$*"; }

say "1. profile: mpiexec.hydra -n $ranks -env LD_PRELOAD $prefix/lib/libarcoll_profiler.so $app ${args[*]}"
mpiexec.hydra -n "$ranks" -env LD_PRELOAD "$prefix/lib/libarcoll_profiler.so" \
  -env ARCOLL_TRACE "$demo/demo.arctrace" "$app" "${args[@]}" | tee profile.out
mpiexec.hydra -n "$ranks" "$app" "${args[@]}" > plain.out
say "1b. export: arcoll export demo.arctrace --otf2 otf2 (for Vampir, Score-P tools, otf2-print)"
"$prefix/bin/arcoll" export "$demo/demo.arctrace" --otf2 "$demo/otf2"

say "2. place: arcoll place demo.arctrace --topology tools/examples/topology.conf --hosts tools/examples/hosts.txt"
for fmt in hydra rankfile slurm cray; do
  "$prefix/bin/arcoll" place "$demo/demo.arctrace" --topology "$here/tools/examples/topology.conf" \
    --hosts "$here/tools/examples/hosts.txt" -o "$demo/launch.$fmt" --format "$fmt" > "place.$fmt.out"
done
cat place.hydra.out
for fmt in hydra rankfile slurm cray; do
  printf -- '-- launch.%s\n' "$fmt"; cat "launch.$fmt"
done

say "2b. tune: arcoll tune demo.arctrace -o tuning.json (the profile run's late ranks, for libarcoll.so)"
"$prefix/bin/arcoll" tune "$demo/demo.arctrace" -o "$demo/tuning.json"

say "3. rerun: mpiexec.hydra -launcher fork -f launch.hydra -n $ranks -env LD_PRELOAD $prefix/lib/libarcoll.so -env ARCOLL_TUNING tuning.json"
# -launcher fork: the demo's host names are fake; every process runs here.
mpiexec.hydra -launcher fork -f "$demo/launch.hydra" -n "$ranks" -env LD_PRELOAD "$prefix/lib/libarcoll.so" \
  -env ARCOLL_TUNING "$demo/tuning.json" "$app" "${args[@]}" | tee rerun.out
# Same results: the program checks every element; compare its checksum too.
sum() { grep -o 'checksum=[^ ]*' "$1"; }
if [ "$(sum plain.out)" != "$(sum rerun.out)" ] || ! grep -q 'errors=0' rerun.out; then
  echo "demo: the rerun with libarcoll.so differs from the plain run" >&2; exit 1
fi
echo "same result as without arcoll: $(sum rerun.out)"

say "4. scale: 256 ranks under SimGrid SMPI"
bash "$here/tools/smpi-demo.sh" "$build"
say "5. report: arcoll report demo.arctrace -o report.html --mapping launch.hydra (topology and hosts as in 2.)"
"$prefix/bin/arcoll" report "$demo/demo.arctrace" -o "$demo/report.html" --mapping "$demo/launch.hydra" \
  --topology "$here/tools/examples/topology.conf" --hosts "$here/tools/examples/hosts.txt"
say "files: trace $demo/demo.arctrace, OTF2 archive $demo/otf2/traces.otf2, machinefile $demo/launch.hydra"
echo "report: $demo/report.html"
