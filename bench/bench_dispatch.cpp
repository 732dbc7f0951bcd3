// Google Benchmark of libarcoll's per-call dispatch overhead (issue 3 target:
// <= 150 ns for an 8-byte MPI_Bcast), real MPICH, 2 ranks.  Linked with
// libarcoll.so, so MPI_Bcast is libarcoll's; three benchmarks, same run:
//   PMPI_Bcast      MPICH's own broadcast (what the application had before)
//   MPI_Bcast       through libarcoll: checks, per-communicator state, cached
//                   choice, then the chosen algorithm (ARCOLL_BCAST_ALGORITHM,
//                   default auto) on arcoll's private communicator
//   algorithm       the same collectives/ algorithm called directly (same
//                   schedule, its own private communicator): no dispatch
// dispatch overhead = MPI_Bcast - algorithm (median ns per call); the table
// printed at the end also gives MPI_Bcast / PMPI_Bcast.  The root alternates
// between the two ranks every call, so every call is on the critical path
// (a chain of one-way latencies) and a per-call overhead shows in full.
// Every benchmark has a fixed iteration count so both ranks run the same calls.
// Build: cmake --build B --target bench_dispatch
// Run:   mpiexec.hydra -n 2 B/bench/bench_dispatch [--benchmark_repetitions=N]
#include <benchmark/benchmark.h>
#include <mpi.h>

#include "rank0_reporter.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include "bcast.h"
#include "select.h"
const char *arcoll_last_algorithm(const char *collective);  // libarcoll.so (arcoll.h)
}

namespace {

constexpr int kIters = 200000;
MPI_Comm g_direct = MPI_COMM_NULL;  // private copy for the direct algorithm calls
const arcoll_algo_desc_t *g_algo = nullptr;
int g_rank = 0;

void BM_PMPI_Bcast(benchmark::State &state) {
  char buf[8] = {0};
  PMPI_Barrier(MPI_COMM_WORLD);
  int i = 0;
  for (auto _ : state) {
    PMPI_Bcast(buf, 8, MPI_BYTE, i & 1, MPI_COMM_WORLD);
    ++i;
  }
}

void BM_MPI_Bcast_libarcoll(benchmark::State &state) {
  char buf[8] = {0};
  PMPI_Barrier(MPI_COMM_WORLD);
  int i = 0;
  for (auto _ : state) {
    MPI_Bcast(buf, 8, MPI_BYTE, i & 1, MPI_COMM_WORLD);
    ++i;
  }
}

void BM_algorithm_direct(benchmark::State &state) {
  char buf[8] = {0};
  const arcoll_bcast_fn fn = reinterpret_cast<arcoll_bcast_fn>(g_algo->fn);
  const arcoll_sched_t s = {nullptr, 0, 0, 7001};
  PMPI_Barrier(MPI_COMM_WORLD);
  int i = 0;
  for (auto _ : state) {
    fn(buf, 8, MPI_BYTE, i & 1, g_direct, &s);
    ++i;
  }
}

// Runs interleaved (A B C A B C ...) by registering repetitions by hand.
void register_all(int reps) {
  for (int r = 0; r < reps; ++r) {
    benchmark::RegisterBenchmark("PMPI_Bcast/8B", BM_PMPI_Bcast)->Iterations(kIters);
    benchmark::RegisterBenchmark("MPI_Bcast_libarcoll/8B", BM_MPI_Bcast_libarcoll)
        ->Iterations(kIters);
    benchmark::RegisterBenchmark("algorithm_direct/8B", BM_algorithm_direct)->Iterations(kIters);
  }
}

// Console output on rank 0 only; keeps every run's ns/call for the summary.
}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int P = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  int reps = 5;
  for (int i = 1; i < argc; ++i)
    if (!std::strncmp(argv[i], "--reps=", 7)) reps = std::max(1, std::atoi(argv[i] + 7));
  benchmark::Initialize(&argc, argv);
  // Which algorithm libarcoll runs for this call (also: is libarcoll active?)
  char warm[8] = {0};
  MPI_Bcast(warm, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
  const char *name = arcoll_last_algorithm("bcast");
  g_algo = name ? arcoll_algorithm_find(ARCOLL_COLL_BCAST, name) : nullptr;
  if (!g_algo) {
    if (g_rank == 0)
      std::fprintf(stderr,
                   "bench_dispatch: libarcoll ran '%s' for an 8-byte MPI_Bcast, not an arcoll "
                   "algorithm (set ARCOLL_BCAST_ALGORITHM to auto or an algorithm name)\n",
                   name ? name : "(nothing)");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_split(MPI_COMM_WORLD, 0, g_rank, &g_direct);
  register_all(reps);
  Rank0Reporter rep(g_rank, [](const std::string &n) { return n.substr(0, n.find("/8B")); });
  benchmark::RunSpecifiedBenchmarks(&rep);
  if (g_rank == 0) {
    double pm = median_of(rep.ns["PMPI_Bcast"]), ar = median_of(rep.ns["MPI_Bcast_libarcoll"]),
           di = median_of(rep.ns["algorithm_direct"]);
    std::printf(
        "\nSUMMARY P=%d, 8-byte MPI_Bcast, root alternating, median of %d runs of %d calls\n"
        "  PMPI_Bcast (MPICH)                       %8.1f ns/call\n"
        "  MPI_Bcast via libarcoll (algorithm %s)  %8.1f ns/call  ratio to PMPI_Bcast %.3f\n"
        "  %s called directly                   %8.1f ns/call\n"
        "  dispatch overhead = libarcoll - direct   %8.1f ns/call (target <= 150 ns)\n",
        P, reps, kIters, pm, name, ar, pm > 0 ? ar / pm : 0.0, name, di, ar - di);
  }
  MPI_Comm_free(&g_direct);
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
