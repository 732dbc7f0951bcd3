// Checks the profiler's cause analysis against the delays fidelity_app.c
// injected (fidelity_plan.h), on the trace of that run.
// Usage: fidelity_check TRACE NRANKS SEED ITERS
// Prints the recovered-vs-injected table; exits 1 if
//  - an injected rank is not among the top k ranks by caused waiting at its
//    call site (k = ranks injected there),
//  - its median own delay differs from the median injected delay by more
//    than max(1 us, 1 % of it),
//  - an uninjected rank has a median own delay above 1 % of the largest
//    injected delay at any site,
//  - a rank spent more than 1.5 x rounds x 11 round trips (rank 1's) in the
//    clock synchronisation at MPI_Init.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <vector>

#include "cause_analysis.hpp"
#include "clock_tree.hpp"
#include "fidelity_plan.h"
#include "summary.hpp"
#include "trace_reader.hpp"

using namespace arcoll::trace;

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: fidelity_check TRACE NRANKS SEED ITERS\n");
    return 2;
  }
  const int P = std::atoi(argv[2]), iters = std::atoi(argv[4]);
  fid_plan plan;
  fid_make_plan(P, std::strtoull(argv[3], nullptr, 10), &plan);
  int fails = 0;
  auto fail = [&](const std::string &m) {
    std::printf("fidelity_check: FAIL: %s\n", m.c_str());
    fails++;
  };
  Trace t = Trace::read(argv[1]);
  if (t.nranks != P) fail("trace has " + std::to_string(t.nranks) + " ranks");
  CauseReport rep = analyse_causes(t);
  const int site_op[FID_SITES] = {OP_ALLREDUCE, OP_ALLGATHER, OP_BARRIER};

  // Injected: expected median delay per (site, rank), the largest delay.
  std::map<std::pair<int, int>, double> expect;
  double largest = 0;
  for (const fid_injection &in : plan.inj) {
    std::vector<double> d;
    for (int i = 0; i < iters; i++) d.push_back(fid_delay(&plan, in.rank, in.site, i));
    expect[{in.site, in.rank}] = lower_median(d);
    largest = std::max(largest, *std::max_element(d.begin(), d.end()));
  }
  // Ranking entries per site (first calls are excluded by the analysis).
  std::map<int, std::vector<const SiteRankCause *>> at;
  for (const SiteRankCause &s : rep.ranking)
    for (int k = 0; k < FID_SITES; k++)
      if (s.op == site_op[k] && s.calls == uint64_t(iters)) at[k].push_back(&s);  // ranking order kept

  std::printf("%-5s %-9s %5s %6s %13s %13s %10s %12s %6s\n", "site", "op", "rank", "place", "injected_us",
              "recovered_us", "error_us", "caused_ms", "cause");
  for (const fid_injection &in : plan.inj) {
    const double want = expect[{in.site, in.rank}];
    int k = 0;
    for (auto &e : expect) k += e.first.first == in.site;
    const auto &v = at[in.site];
    int place = -1;
    for (std::size_t i = 0; i < v.size(); i++)
      if (v[i]->rank == in.rank) place = int(i) + 1;
    if (place < 0) {
      fail("injected rank " + std::to_string(in.rank) + " not seen at site " + std::to_string(in.site));
      continue;
    }
    const SiteRankCause &s = *v[std::size_t(place - 1)];
    const double err = s.own_median - want;
    std::printf("%-5d %-9s %5d %6d %13.3f %13.3f %10.3f %12.3f %5.0f%%%s\n", in.site, op_name(site_op[in.site]),
                in.rank, place, want * 1e6, s.own_median * 1e6, err * 1e6, s.caused * 1e3,
                100.0 * double(s.cause_calls) / double(s.calls), in.drift > 0 ? "  (drifting)" : "");
    if (place > k) fail("rank " + std::to_string(in.rank) + " is number " + std::to_string(place) + " at site " +
                        std::to_string(in.site) + ", expected among the first " + std::to_string(k));
    if (s.caused <= 0) fail("rank " + std::to_string(in.rank) + " caused no waiting");
    if (std::fabs(err) > std::max(1e-6, 0.01 * want))
      fail("rank " + std::to_string(in.rank) + " recovered " + std::to_string(s.own_median) + " s, injected " +
           std::to_string(want) + " s");
  }
  double worst = 0, worst_caused = 0;
  int worst_rank = -1;
  for (const SiteRankCause &s : rep.ranking) {
    bool injected = false;
    for (int k = 0; k < FID_SITES; k++)
      if (s.op == site_op[k] && expect.count({k, s.rank})) injected = true;
    if (injected) continue;
    if (s.own_median > worst) worst = s.own_median, worst_rank = s.rank;
    worst_caused = std::max(worst_caused, s.caused);
  }
  std::printf("uninjected ranks: largest median own delay %.3f us (rank %d), largest caused waiting %.3f us; "
              "limit %.3f us (1 %% of the largest injected delay)\n",
              worst * 1e6, worst_rank, worst_caused * 1e6, 0.01 * largest * 1e6);
  if (worst > 0.01 * largest) fail("uninjected rank " + std::to_string(worst_rank) + " has own delay " +
                                   std::to_string(worst));

  ClockSyncStats cl = clock_sync_stats(t);
  const int R = arcoll::profiler::tree_rounds(P);
  const double hop = t.ranks.size() > 1 ? t.ranks[1].clock.rtt_init : 0;
  const double limit = 1.5 * R * 11 * hop;
  std::printf("clock synchronisation: %d rounds, one-hop rtt %.3f us, max cost at MPI_Init %.3f us (rank %d) = %.1f "
              "round trips, at MPI_Finalize %.3f us; offset error <= %.3f us; limit %.3f us\n",
              R, hop * 1e6, cl.cost_init_max * 1e6, cl.cost_init_rank, hop > 0 ? cl.cost_init_max / hop : 0.0,
              cl.cost_fini_max * 1e6, cl.error_max * 1e6, limit * 1e6);
  if (hop <= 0 || cl.cost_init_max > limit) fail("clock synchronisation held a rank too long in MPI_Init");
  if (!rep.first_calls.empty())
    std::printf("first call after MPI_Init (apart): %s, arrival spread %.3f us, ranks left MPI_Init within %.3f us\n",
                op_name(rep.first_calls[0].op), rep.first_calls[0].spread * 1e6,
                rep.first_calls[0].ready_spread * 1e6);
  else
    fail("no first call reported apart");
  std::printf("fidelity_check: %s (%d ranks, %d iterations, waiting %.3f ms, %.1f %% caused by own delays)\n",
              fails ? "FAILED" : "OK", P, iters, rep.total_wait * 1e3,
              rep.total_wait > 0 ? 100 * rep.caused_wait / rep.total_wait : 0.0);
  return fails ? 1 : 0;
}
