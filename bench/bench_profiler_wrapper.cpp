// Google Benchmark of the profiler's per-call cost (libarcoll_profiler.so's
// PMPI wrappers: timestamps, call-site lookup, record into the buffer, CCS),
// real MPICH.  Linked with libarcoll_profiler.so, so MPI_* are the wrappers;
// every pair below runs in the same process, interleaved (A B A B ...):
//   PMPI_Bcast / MPI_Bcast          8 bytes on MPI_COMM_SELF (the collective
//                                   itself costs almost nothing: the wrapper
//                                   shows in full)
//   PMPI_Allreduce / MPI_Allreduce  8 bytes (one double, MPI_SUM) on MPI_COMM_WORLD
//   PMPI_Sendrecv / MPI_Sendrecv    8 bytes to and from the neighbour rank
// wrapper cost = median(MPI_x) - median(PMPI_x), ns per call (target <= 100 ns
// for the collectives on MPI_COMM_SELF; the MPI_COMM_WORLD rows show it
// against the collective's own time).  The trace goes to ARCOLL_TRACE
// (default: bench_profiler_wrapper.arctrace in the working directory).
// Build: cmake --build B --target bench_profiler_wrapper
// Run:   mpiexec.hydra -n 2 B/bench/bench_profiler_wrapper [--reps=5]
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "rank0_reporter.hpp"

namespace {

constexpr int kIters = 100000;
int g_rank = 0, g_size = 1;

template <bool Profiled>
void BM_Bcast_self(benchmark::State &state) {
  char buf[8] = {0};
  for (auto _ : state) {
    if (Profiled) MPI_Bcast(buf, 8, MPI_BYTE, 0, MPI_COMM_SELF);
    else PMPI_Bcast(buf, 8, MPI_BYTE, 0, MPI_COMM_SELF);
  }
}

template <bool Profiled>
void BM_Allreduce_world(benchmark::State &state) {
  double x = 1.0, y = 0.0;
  PMPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) {
    if (Profiled) MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    else PMPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  benchmark::DoNotOptimize(y);
}

template <bool Profiled>
void BM_Sendrecv_ring(benchmark::State &state) {
  char s[8] = {0}, r[8];
  const int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  PMPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) {
    if (Profiled) MPI_Sendrecv(s, 8, MPI_BYTE, right, 5, r, 8, MPI_BYTE, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else PMPI_Sendrecv(s, 8, MPI_BYTE, right, 5, r, 8, MPI_BYTE, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

void register_all(int reps) {
  for (int k = 0; k < reps; ++k) {
    benchmark::RegisterBenchmark("PMPI_Bcast/self", BM_Bcast_self<false>)->Iterations(kIters);
    benchmark::RegisterBenchmark("MPI_Bcast/self", BM_Bcast_self<true>)->Iterations(kIters);
    benchmark::RegisterBenchmark("PMPI_Allreduce/world", BM_Allreduce_world<false>)->Iterations(kIters);
    benchmark::RegisterBenchmark("MPI_Allreduce/world", BM_Allreduce_world<true>)->Iterations(kIters);
    benchmark::RegisterBenchmark("PMPI_Sendrecv/ring", BM_Sendrecv_ring<false>)->Iterations(kIters);
    benchmark::RegisterBenchmark("MPI_Sendrecv/ring", BM_Sendrecv_ring<true>)->Iterations(kIters);
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (!std::getenv("ARCOLL_TRACE")) setenv("ARCOLL_TRACE", "bench_profiler_wrapper.arctrace", 0);
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  int reps = 5;
  for (int i = 1; i < argc; ++i)
    if (!std::strncmp(argv[i], "--reps=", 7)) reps = std::max(1, std::atoi(argv[i] + 7));
  benchmark::Initialize(&argc, argv);
  register_all(reps);
  Rank0Reporter rep(g_rank, [](const std::string &n) { return n.substr(0, n.find("/iterations")); });
  benchmark::RunSpecifiedBenchmarks(&rep);
  if (g_rank == 0) {
    // real time, and the calling thread's CPU time (the wrapper's cost to the
    // rank, robust against builds or other ranks sharing the 2 cores; MPICH
    // busy-polls, so waiting inside MPI is CPU time too)
    for (auto *m : {&rep.ns, &rep.cpu_ns}) {
      std::printf("\nSUMMARY P=%d, 8-byte calls, median of %d runs of %d calls, ns per call (%s)\n", g_size, reps,
                  kIters, m == &rep.ns ? "real time" : "CPU time of the thread");
      std::printf("  %-22s %10s %10s %10s %8s\n", "call", "PMPI", "profiled", "wrapper", "ratio");
      for (const char *c : {"Bcast/self", "Allreduce/world", "Sendrecv/ring"}) {
        const double p = median_of((*m)[std::string("PMPI_") + c]), q = median_of((*m)[std::string("MPI_") + c]);
        std::printf("  %-22s %10.1f %10.1f %10.1f %8.3f\n", c, p, q, q - p, p > 0 ? q / p : 0.0);
      }
    }
  }
  benchmark::Shutdown();
  MPI_Finalize();
  // the profiler writes the trace in MPI_Finalize: none, it was not active
  const char *trace = std::getenv("ARCOLL_TRACE");
  if (g_rank == 0) {
    std::FILE *f = std::fopen(trace, "rb");
    if (!f) {
      std::fprintf(stderr, "bench_profiler_wrapper: no trace %s: the profiler did not record\n", trace);
      return 2;
    }
    std::fclose(f);
  }
  return 0;
}
