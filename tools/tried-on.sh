#!/usr/bin/env bash
# Opt-in check on real MPI programs nobody here wrote (README, "Tried on").
# Runs each program at 2 ranks with MPICH three times: without preload, with
# libarcoll_profiler.so and with libarcoll.so preloaded, and checks that it
# passes its own checks every time:
#   scalapack  Debian's ScaLAPACK MPICH testers xdlu and xdqr (inputs in
#              tools/tried-on/*.dat: process grids 1x1, 1x2, 2x1)
#   mpi4py     mpi4py built from PyPI against MPICH, its own test suite from
#              the sdist (test/main.py, -e test_util_sync: that test hangs at
#              2 ranks on plain MPICH 4.0.2, with or without arcoll)
#   nwchem     NWChem (nwchem-mpich), water SCF/6-31G*: the energy with a
#              preload must equal the one without to 1e-9 hartree
# Usage: tools/tried-on.sh [scalapack] [mpi4py] [nwchem]   (default: all)
# Env: ARCOLL_BUILD_DIR, ARCOLL_PREFIX as in tools/setup.sh.
# Installs what it needs (Debian packages, a venv under the build directory).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ARCOLL_BUILD_DIR:-$here/build}
prefix=${ARCOLL_PREFIX:-$build/prefix}
programs=("$@"); ((${#programs[@]})) || programs=(scalapack mpi4py nwchem)

bash "$here/tools/setup.sh"
need=()
for p in scalapack-mpi-test nwchem-mpich python3-venv python3-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if ((${#need[@]})); then
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q "${need[@]}" >/dev/null
fi

work=$build/tried-on
rm -rf "$work"; mkdir -p "$work"
declare -A preload=([none]="" [profiler]="$prefix/lib/libarcoll_profiler.so" [arcoll]="$prefix/lib/libarcoll.so")
modes=(none profiler arcoll)
passed=0; failed=0
report() {  # name mode ok detail
  if [ "$3" = ok ]; then passed=$((passed + 1)); r=PASS; else failed=$((failed + 1)); r=FAIL; fi
  printf '%-10s %-9s %s  %s\n' "$1" "$2" "$r" "$4" | tee -a "$work/summary.txt"
}
# run MODE DIR LOG cmd...: mpiexec.hydra -n 2 with the mode's preload, in DIR.
run() {
  local mode=$1 dir=$2 log=$3; shift 3
  local env=(-env ARCOLL_TRACE "$dir/$mode.arctrace")
  [ -n "${preload[$mode]}" ] && env+=(-env LD_PRELOAD "${preload[$mode]}")
  # flock: one MPI job at a time on this machine (other jobs take the same lock)
  (cd "$dir" && flock /tmp/arcoll-mpi.lock timeout 900 mpiexec.hydra -n 2 "${env[@]}" "$@") >"$log" 2>&1
}
# After a profiler run the trace must exist and be readable by arcoll.
trace_ok() { [ "$1" != profiler ] || "$prefix/bin/arcoll" summary "$2/profiler.arctrace" >>"$3" 2>&1; }

scalapack() {
  local tests=/usr/lib/x86_64-linux-gnu/scalapack/mpich-tests
  for t in xdlu xdqr; do
    for mode in "${modes[@]}"; do
      local dir=$work/scalapack-$t-$mode; mkdir -p "$dir"; cp "$here"/tools/tried-on/*.dat "$dir/"
      local rc=0; run "$mode" "$dir" "$dir/out.txt" "$tests/$t" || rc=$?
      local npass nfail
      npass=$(grep -m1 'tests completed and passed residual checks' "$dir/out.txt" | awk '{print $1}')
      nfail=$(grep -m1 'tests completed and failed residual checks' "$dir/out.txt" | awk '{print $1}')
      if [ "$rc" = 0 ] && [ "${npass:-0}" -gt 0 ] && [ "$nfail" = 0 ] && trace_ok "$mode" "$dir" "$dir/out.txt"; then
        report "$t" "$mode" ok "$npass tests completed and passed residual checks, $nfail failed"
      else
        report "$t" "$mode" fail "rc=$rc passed=${npass:-?} failed=${nfail:-?} (see $dir/out.txt)"
      fi
    done
  done
}

mpi4py() {
  local venv=$build/venv-mpi4py
  if ! "$venv/bin/python" -c 'import mpi4py' 2>/dev/null; then
    /usr/bin/python3 -m venv "$venv"
    MPICC=mpicc.mpich "$venv/bin/pip" install -q --no-binary mpi4py mpi4py
  fi
  local ver; ver=$("$venv/bin/python" -c 'import mpi4py; print(mpi4py.__version__)')
  local src=$build/mpi4py-src
  if [ ! -f "$src/test/main.py" ]; then
    rm -rf "$src" "$build/mpi4py-sdist"; mkdir -p "$build/mpi4py-sdist"
    "$venv/bin/pip" download -q --no-deps --no-binary mpi4py "mpi4py==$ver" -d "$build/mpi4py-sdist"
    mkdir -p "$src"; tar -xzf "$build"/mpi4py-sdist/mpi4py-*.tar.gz -C "$src" --strip-components=1
  fi
  if ! "$venv/bin/python" -c 'import mpi4py.MPI as M, sys; sys.exit("MPICH" not in M.Get_library_version())'; then
    echo "tried-on: mpi4py in $venv is not built against MPICH" >&2; exit 1
  fi
  for mode in "${modes[@]}"; do
    local dir=$work/mpi4py-$mode; mkdir -p "$dir"
    local rc=0; run "$mode" "$dir" "$dir/out.txt" "$venv/bin/python" "$src/test/main.py" -e test_util_sync || rc=$?
    local ran; ran=$(grep -m1 -E '^Ran [0-9]+ tests' "$dir/out.txt" | awk '{print $2}')
    # the two ranks' unittest summaries may interleave on one line ("OK (skipped=N)OK ..."):
    # count the OK verdicts, not lines, and require no FAILED verdict
    if [ "$rc" = 0 ] && [ "$(grep -oE '(^|\))OK' "$dir/out.txt" | wc -l)" = 2 ] &&
       ! grep -qE 'FAILED \(' "$dir/out.txt" && trace_ok "$mode" "$dir" "$dir/out.txt"; then
      report mpi4py "$mode" ok "mpi4py $ver: Ran $ran tests per rank, OK on both ranks"
    else
      report mpi4py "$mode" fail "rc=$rc (see $dir/out.txt)"
    fi
  done
}

nwchem() {
  local ref=""
  for mode in "${modes[@]}"; do
    local dir=$work/nwchem-$mode; mkdir -p "$dir"; cp "$here/tools/tried-on/water.nw" "$dir/"
    local rc=0; run "$mode" "$dir" "$dir/out.txt" -env ARMCI_USE_WIN_ALLOCATE 0 nwchem.mpich water.nw || rc=$?
    local e; e=$(grep -m1 'Total SCF energy' "$dir/out.txt" | awk '{print $NF}')
    [ "$mode" = none ] && ref=$e
    if [ "$rc" = 0 ] && [ -n "$e" ] && [ -n "$ref" ] &&
       awk -v a="$e" -v b="$ref" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9) }' &&
       trace_ok "$mode" "$dir" "$dir/out.txt"; then
      report nwchem "$mode" ok "SCF energy $e (no preload: $ref)"
    else
      report nwchem "$mode" fail "rc=$rc energy=${e:-?} reference=${ref:-?} (see $dir/out.txt)"
    fi
  done
}

for p in "${programs[@]}"; do
  case $p in
    scalapack|mpi4py|nwchem) "$p" ;;
    *) echo "tried-on: unknown program '$p' (valid: scalapack mpi4py nwchem)" >&2; exit 2 ;;
  esac
done
echo "tried-on: $passed passed, $failed failed"
[ "$failed" = 0 ]
