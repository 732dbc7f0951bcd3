// Blocking collectives on the critical path (placement/critical_path.hpp "Collectives"): a call between a
// member's point-to-point messages costs its tree's time on the mapping (binomial down for bcast, up for
// reduce, recursive doubling for allreduce), a call before every member's first message or after its last
// costs 0 s, and --no-path-collectives (TopologyParams::path_collectives = false) makes every call a 0 s
// barrier again.
#include <gtest/gtest.h>

#include <algorithm>

#include "comm_graph.hpp"
#include "critical_path.hpp"
#include "fixtures.hpp"
#include "trace_fixtures.hpp"
#include "trace_format.h"

using namespace arcoll::placement;
using arcoll::trace::CollEvent;
using arcoll::trace::Trace;

namespace {

constexpr uint64_t kCollBytes = 1 << 16;

// One call (comm 0 = MPI_COMM_WORLD, sequence `seq`) of `op` from `root` entered by every rank in `step`.
void call(Trace &tr, int op, int root, uint64_t seq, uint64_t step) {
  for (int r = 0; r < tr.nranks; ++r) {
    CollEvent c{};
    c.rank = r, c.comm_id = 0, c.seq = seq, c.bytes = kCollBytes, c.step = step, c.op = op, c.root = root;
    tr.colls.push_back(c);
  }
}

// Four ranks: 0 -> 1 in step 0, the collective in step 1, 1 -> 2 in step 2; optionally one more call
// after every message (step 3: the results' reduction of a benchmark).
Trace between(int op, bool trailing) {
  Trace tr;
  tr.path = "collectives.arctrace";
  tr.nranks = 4;
  tracefix::msg(tr, 0, 1, 0, 0);
  tracefix::msg(tr, 1, 2, 2, 2);
  call(tr, op, 0, 0, 1);
  if (trailing) call(tr, arcoll_coll_op::OP_REDUCE, 0, 1, 3);
  std::sort(tr.colls.begin(), tr.colls.end(),
            [](const CollEvent &a, const CollEvent &b) { return a.rank != b.rank ? a.rank < b.rank : a.seq < b.seq; });
  return tr;
}

struct Case {
  Topology topo;
  Mapping map;
  double hop(int a, int b, uint64_t bytes) const { return fixtures::msg_time(topo, map, a, b, bytes); }
};

Case on_two_leaves(const Mapping &m, bool path_collectives = true) {
  TopologyParams p = fixtures::round_params();
  p.path_collectives = path_collectives;
  p.async_bytes = UINT64_MAX;  // the 100 B messages flow at once (critical_path.hpp "Matched sends")
  return Case{fixtures::make(fixtures::two_leaves, "node01:2\nnode02:2\nnode03:2\nnode04:2\n", 4, p), m};
}

}  // namespace

TEST(PathCollectives, BcastBetweenMessagesCostsItsBinomialTree) {
  const CommGraph g = tracefix::by_levels(between(arcoll_coll_op::OP_BCAST, false));
  ASSERT_TRUE(g.deps);
  for (const Mapping &m : {Mapping{0, 0, 1, 1}, Mapping{0, 2, 1, 3}}) {
    const Case c = on_two_leaves(m);
    // Binomial tree from root 0 over 4 ranks: 0 -> 1, 0 -> 2, 2 -> 3.
    const double t1 = c.hop(0, 1, kCollBytes), t2 = c.hop(0, 2, kCollBytes), t3 = t2 + c.hop(2, 3, kCollBytes);
    const double c01 = c.hop(0, 1, 100), c12 = c.hop(1, 2, 100);
    const double want = c01 + std::max({t1 + c12, t2, t3});
    EXPECT_NEAR(critical_path_time(g, c.topo, c.map, PathContention::Free), want, 1e-12);
    const Case off = on_two_leaves(m, false);
    EXPECT_NEAR(critical_path_time(g, off.topo, off.map, PathContention::Free), c01 + c12, 1e-12);
  }
}

TEST(PathCollectives, ReduceAndAllreduceShapes) {
  const Case c = on_two_leaves(Mapping{0, 2, 1, 3});
  const double c01 = c.hop(0, 1, 100), c12 = c.hop(1, 2, 100);
  auto h = [&](int a, int b) { return c.hop(a, b, kCollBytes); };
  {
    // Binomial reduce to 0: 3 -> 2, then 2 -> 0 and 1 -> 0; rank 1 leaves after its send, rank 2 after its
    // subtree's data went up, the root when the last subtree is in.
    const CommGraph g = tracefix::by_levels(between(arcoll_coll_op::OP_REDUCE, false));
    const double t1 = h(1, 0), t2 = h(3, 2) + h(2, 0), t0 = std::max(t1, t2), t3 = h(3, 2);
    const double want = c01 + std::max({t1 + c12, t2, t0, t3});
    EXPECT_NEAR(critical_path_time(g, c.topo, c.map, PathContention::Free), want, 1e-12);
  }
  {
    // Recursive doubling: round 1 pairs (0,1) (2,3), round 2 pairs (0,2) (1,3); rank 0 enters at 0 (the
    // call node is the latest entry, c01, for every member).
    const CommGraph g = tracefix::by_levels(between(arcoll_coll_op::OP_ALLREDUCE, false));
    const double first_round = std::max(h(0, 1), h(2, 3));
    const double t0 = first_round + h(0, 2), t2 = t0, t1 = first_round + h(1, 3), t3 = t1;
    const double want = c01 + std::max({t1 + c12, t2, t0, t3});
    EXPECT_NEAR(critical_path_time(g, c.topo, c.map, PathContention::Free), want, 1e-12);
  }
}

TEST(PathCollectives, CallsOutsideTheMessagesCostNothing) {
  const CommGraph with = tracefix::by_levels(between(arcoll_coll_op::OP_BCAST, true));
  const CommGraph without = tracefix::by_levels(between(arcoll_coll_op::OP_BCAST, false));
  const Case c = on_two_leaves(Mapping{0, 2, 1, 3});
  for (PathContention mode : {PathContention::Free, PathContention::Sets, PathContention::Overlap})
    EXPECT_DOUBLE_EQ(critical_path_time(with, c.topo, c.map, mode), critical_path_time(without, c.topo, c.map, mode));
}

TEST(PathCollectives, EveryModeChargesTheCall) {
  const CommGraph g = tracefix::by_levels(between(arcoll_coll_op::OP_BCAST, false));
  const Case on = on_two_leaves(Mapping{0, 2, 1, 3}), off = on_two_leaves(Mapping{0, 2, 1, 3}, false);
  for (PathContention mode : {PathContention::Free, PathContention::Sets, PathContention::Overlap})
    EXPECT_GT(critical_path_time(g, on.topo, on.map, mode), critical_path_time(g, off.topo, off.map, mode) + 1e-5);
}
