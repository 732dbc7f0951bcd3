#!/usr/bin/env bash
# Installs what arcoll needs (Debian 12, as root) when it is missing, then
# configures, builds and installs arcoll into $ARCOLL_PREFIX (default: build/prefix).
# Used by both README commands and by .ci/run. Idempotent.
#   ARCOLL_BUILD_DIR  build directory (default: build)
#   ARCOLL_PREFIX     install prefix  (default: $ARCOLL_BUILD_DIR/prefix)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ARCOLL_BUILD_DIR:-$here/build}
prefix=${ARCOLL_PREFIX:-$build/prefix}

packages=(build-essential cmake pkg-config python3 gfortran
  mpich libmpich-dev libmetis-dev libscotch-dev libpapi-dev papi-tools
  libsimgrid-dev libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  libopen-trace-format2-dev otf2-tools libxxhash-dev libdw-dev
  libjs-vega chromium libhwloc-dev liblz4-dev libzstd-dev zstd)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [ "$(id -u)" != 0 ]; then
    echo "arcoll setup: missing Debian packages: ${missing[*]}; run as root or install them with apt-get install" >&2
    exit 1
  fi
  echo "arcoll setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
  apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich \
  -DCMAKE_INSTALL_PREFIX="$prefix" >"$build.configure.log" 2>&1 \
  || { cat "$build.configure.log" >&2; exit 1; }
cmake --build "$build" -j"$(nproc)"
cmake --install "$build" --prefix "$prefix" >/dev/null
# Every installed library must link MPICH, never Open MPI.
for f in "$prefix"/lib/libarcoll*.so "$prefix"/bin/arcoll; do
  [ -e "$f" ] || continue
  if ldd "$f" | grep "libmpi.so" >/dev/null; then
    echo "arcoll setup: $f links Open MPI's libmpi.so; it must link libmpich" >&2; exit 1
  fi
done
echo "arcoll setup: installed into $prefix" >&2
