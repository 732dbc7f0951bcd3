#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the tests
# (labels unit, mpi, smpi; the slow third-party programs are in tools/tried-on.sh),
# then the corpus of corrupted traces under ASan + UBSan (tools/asan-corpus.sh).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ARCOLL_BUILD_DIR:-$here/build}
bash "$here/tools/setup.sh"
cd "$build"
ctest --output-on-failure --timeout 600 -LE realapps "$@"
ARCOLL_ASAN_BUILD_DIR=${ARCOLL_ASAN_BUILD_DIR:-$build-asan} bash "$here/tools/asan-corpus.sh"
