// bench_noharm: does preloading libarcoll harm a balanced program?  Google
// Benchmark, real MPICH, 2-4 ranks: back-to-back MPI_Bcast / MPI_Reduce /
// MPI_Allreduce from the same root (0) with no computation between calls,
// each through libarcoll (MPI_*, linked first so its symbols win) and
// through MPICH directly (PMPI_*), interleaved in one run; prints per
// collective and size the median time per call (ns) and the ratio
// libarcoll / PMPI.  The library's own costs are all in: dispatch, online
// measurement of the first calls of each size, and - with
// ARCOLL_LATE_ORDER=on - the lateness tracking and its exchanges.
//
// Build: cmake --build B --target bench_noharm
// Run:   mpiexec.hydra -n 3 B/bench/bench_noharm [--reps=5] [--benchmark_...]
//        (again with -genv ARCOLL_LATE_ORDER on for the tracking's cost)
// Wall-clock numbers: meaningful on an otherwise idle machine only; never
// asserted in tests.
#include <benchmark/benchmark.h>
#include <mpi.h>

#include "rank0_reporter.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

int g_rank = 0;
constexpr int kSizes[] = {8, 32768, 1 << 20};  // bytes per rank

int iters_for(int bytes) { return bytes <= 64 ? 20000 : bytes <= 65536 ? 2000 : 100; }

template <bool kArcoll>
void BM_Bcast(benchmark::State &state) {
  std::vector<char> buf((size_t)state.range(0), 1);
  PMPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) {
    if (kArcoll) MPI_Bcast(buf.data(), (int)buf.size(), MPI_BYTE, 0, MPI_COMM_WORLD);
    else PMPI_Bcast(buf.data(), (int)buf.size(), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
  PMPI_Barrier(MPI_COMM_WORLD);
}

template <bool kArcoll>
void BM_Reduce(benchmark::State &state) {
  const int n = (int)state.range(0) / 8 > 0 ? (int)state.range(0) / 8 : 1;
  std::vector<double> in((size_t)n, 1.0), out((size_t)n);
  PMPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) {
    if (kArcoll) MPI_Reduce(in.data(), out.data(), n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    else PMPI_Reduce(in.data(), out.data(), n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  PMPI_Barrier(MPI_COMM_WORLD);
}

template <bool kArcoll>
void BM_Allreduce(benchmark::State &state) {
  const int n = (int)state.range(0) / 8 > 0 ? (int)state.range(0) / 8 : 1;
  std::vector<double> in((size_t)n, 1.0), out((size_t)n);
  PMPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) {
    if (kArcoll) MPI_Allreduce(in.data(), out.data(), n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    else PMPI_Allreduce(in.data(), out.data(), n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  PMPI_Barrier(MPI_COMM_WORLD);
}

void register_all(int reps) {
  for (int r = 0; r < reps; ++r)
    for (int m : kSizes) {
      const int it = iters_for(m);
      benchmark::RegisterBenchmark("bcast/pmpi", BM_Bcast<false>)->Arg(m)->Iterations(it);
      benchmark::RegisterBenchmark("bcast/libarcoll", BM_Bcast<true>)->Arg(m)->Iterations(it);
      benchmark::RegisterBenchmark("reduce/pmpi", BM_Reduce<false>)->Arg(m)->Iterations(it);
      benchmark::RegisterBenchmark("reduce/libarcoll", BM_Reduce<true>)->Arg(m)->Iterations(it);
      benchmark::RegisterBenchmark("allreduce/pmpi", BM_Allreduce<false>)->Arg(m)->Iterations(it);
      benchmark::RegisterBenchmark("allreduce/libarcoll", BM_Allreduce<true>)->Arg(m)->Iterations(it);
    }
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int P = 0, reps = 5;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  for (int i = 1; i < argc; ++i)
    if (!std::strncmp(argv[i], "--reps=", 7)) reps = std::max(1, std::atoi(argv[i] + 7));
  benchmark::Initialize(&argc, argv);
  register_all(reps);
  Rank0Reporter rep(g_rank, [](const std::string &n) { return n; });
  benchmark::RunSpecifiedBenchmarks(&rep);
  if (g_rank == 0) {
    const char *lo = std::getenv("ARCOLL_LATE_ORDER");
    std::printf("\nSUMMARY P=%d, balanced back-to-back calls, root 0, ARCOLL_LATE_ORDER=%s, median of %d runs\n",
                P, lo ? lo : "(unset)", reps);
    std::printf("  %-10s %9s %14s %14s %8s\n", "collective", "bytes", "PMPI ns/call", "arcoll ns/call",
                "ratio");
    for (const char *c : {"bcast", "reduce", "allreduce"})
      for (int m : kSizes) {
        const std::string k = "/" + std::to_string(m) + "/iterations:" + std::to_string(iters_for(m));
        const double pm = median_of(rep.ns[std::string(c) + "/pmpi" + k]);
        const double ar = median_of(rep.ns[std::string(c) + "/libarcoll" + k]);
        std::printf("  %-10s %9d %14.1f %14.1f %8.3f\n", c, m, pm, ar, pm > 0 ? ar / pm : 0.0);
      }
  }
  MPI_Finalize();
  return 0;
}
