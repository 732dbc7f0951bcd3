/**
 * @file replay_compare.cpp
 * @brief Checks a replay's trace against the trace it replayed (test helper).
 *
 *     replay_compare ORIGINAL.arctrace REPLAY.arctrace
 *
 * ORIGINAL: a recorded trace; REPLAY: the trace the profiler wrote while
 * trace_replay replayed ORIGINAL. Checks, printing every difference:
 *  - the same rank count;
 *  - point-to-point: per pair src -> dst, the same number of messages and the
 *    same bytes (the replay splits an entry's bytes over its messages);
 *  - collectives: per rank and operation, as many calls as the replay plan
 *    of ORIGINAL replays (make_replay_plan(): alltoallv / alltoallw as
 *    alltoall, reduce_scatter as reduce_scatter_block), plus the replay's own
 *    MPI_Barrier and MPI_Reduce (timing) on every rank.
 * Exit 0 when all agree, 1 on a difference, 2 on an unreadable trace.
 */
#include <cstdio>
#include <map>
#include <tuple>

#include "replay_plan.hpp"
#include "trace_format.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: replay_compare ORIGINAL.arctrace REPLAY.arctrace\n");
    return 2;
  }
  using arcoll::trace::Trace;
  Trace a, b;
  arcoll::replay::ReplayPlan plan;
  try {
    a = Trace::read(argv[1]);
    b = Trace::read(argv[2]);
    plan = arcoll::replay::make_replay_plan(a);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "replay_compare: %s\n", e.what());
    return 2;
  }
  int bad = 0;
  if (a.nranks != b.nranks) {
    std::printf("ranks: original %d, replay %d\n", a.nranks, b.nranks);
    return 1;
  }
  std::map<std::pair<int, int>, std::pair<uint64_t, uint64_t>> pa, pb;  // (count, bytes)
  for (auto &e : a.ccs) pa[{e.src, e.dst}].first += e.count, pa[{e.src, e.dst}].second += e.bytes;
  for (auto &e : b.ccs) pb[{e.src, e.dst}].first += e.count, pb[{e.src, e.dst}].second += e.bytes;
  for (auto &[k, v] : pa)
    if (pb[k] != v)
      ++bad, std::printf("p2p %d -> %d: original %llu messages / %llu bytes, replay %llu / %llu\n", k.first, k.second,
                         (unsigned long long)v.first, (unsigned long long)v.second,
                         (unsigned long long)pb[k].first, (unsigned long long)pb[k].second);
  for (auto &[k, v] : pb)
    if (!pa.count(k))
      ++bad, std::printf("p2p %d -> %d: not in the original, replay %llu messages\n", k.first, k.second,
                         (unsigned long long)v.first);
  std::map<std::pair<int, int>, uint64_t> ca, cb;  // (rank, op) -> calls
  for (int r = 0; r < a.nranks; ++r) {
    for (auto &s : plan.ranks[r])
      for (auto &c : s.colls) ++ca[{r, c.op}];
    ++ca[{r, OP_BARRIER}], ++ca[{r, OP_REDUCE}];
  }
  for (auto &e : b.colls) ++cb[{e.rank, e.op}];
  for (auto &[k, v] : ca)
    if (cb[k] != v)
      ++bad, std::printf("rank %d op %d: %llu calls expected, replay %llu\n", k.first, k.second,
                         (unsigned long long)v, (unsigned long long)cb[k]);
  for (auto &[k, v] : cb)
    if (!ca.count(k)) ++bad, std::printf("rank %d op %d: %llu calls in the replay only\n", k.first, k.second,
                                         (unsigned long long)v);
  std::printf("replay_compare: %zu pairs, %llu messages, %llu collective calls: %s\n", pa.size(),
              (unsigned long long)plan.messages, (unsigned long long)plan.colls, bad ? "DIFFERENT" : "same");
  return bad ? 1 : 0;
}
