#!/usr/bin/env bash
# Builds the `arcoll` command line (and with it the trace reader) and the
# corpus generator once with AddressSanitizer + UndefinedBehaviorSanitizer in
# a small separate build directory (no SMPI, no tests: only the targets
# arcoll_cli and arcoll_trace_corpus), then runs the corpus of corrupted
# traces through it (tools/trace-corpus-check.sh). Only the C++ code is
# instrumented (reader, writer, CLI, placement, export); the C collectives are
# built only to generate the CLI's table of algorithm names. Any sanitizer report,
# crash or unclear message fails. Called by tools/test.sh after the tests.
#   ARCOLL_ASAN_BUILD_DIR  build directory (default: build-asan)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ARCOLL_ASAN_BUILD_DIR:-$here/build-asan}
start=$(date +%s)
san='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer'
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich \
  -DARCOLL_WITH_SMPI=OFF -DARCOLL_BUILD_TESTS=OFF \
  -DCMAKE_C_FLAGS="" -DCMAKE_CXX_FLAGS="$san" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >"$build.configure.log" 2>&1 \
  || { cat "$build.configure.log" >&2; exit 1; }
cmake --build "$build" -j"${ARCOLL_ASAN_JOBS:-$(nproc)}" --target arcoll_cli arcoll_trace_corpus >"$build.build.log" 2>&1 \
  || { tail -50 "$build.build.log" >&2; exit 1; }
built=$(date +%s)
# Huge allocations abort with a report instead of succeeding; leaks of the
# libraries the CLI links (OTF2, Scotch) are not this check's subject.
export ASAN_OPTIONS=${ASAN_OPTIONS:-max_allocation_size_mb=256:allocator_may_return_null=0:detect_leaks=0:exitcode=201}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1:exitcode=202}
bash "$here/tools/trace-corpus-check.sh" "$build/tools/arcoll" "$build/tools/arcoll_trace_corpus" "$build/corpus"
echo "asan-corpus: ASan+UBSan build $((built - start)) s, corpus $(($(date +%s) - built)) s ($build)"
