// The critical path's rendezvous waits (placement/critical_path.hpp "Rendezvous"): a blocking send of at
// least TopologyParams::rendezvous_bytes starts when its receiver is in the step it receives in, and a
// rank's blocking sends of one step go one after another; the other sends ("Matched sends") of at least
// TopologyParams::async_bytes start when their receiver is there too, without their sender waiting; smaller
// ones flow at once.
#include <gtest/gtest.h>

#include "comm_graph.hpp"
#include "critical_path.hpp"
#include "fixtures.hpp"
#include "trace_fixtures.hpp"

using namespace arcoll::placement;
using arcoll::trace::CcsEntry;
using arcoll::trace::Trace;

namespace {

constexpr uint64_t kBig = 1 << 20;

// Rank 2 sends 100 B to rank 1 (rank 1 receives it in its step 0: it reaches step 1 after that message);
// rank 0 sends kBig to rank 1 (received in rank 1's step 1), then kBig to rank 2 (received in rank 2's
// step 0), both in its step 0, `blocking` of each by a blocking call.
Trace late_receiver(uint32_t blocking) {
  Trace tr;
  tr.path = "rendezvous.arctrace";
  tr.nranks = 3;
  tr.ccs = {CcsEntry{0, 0, 1, kBig, 1, blocking}, CcsEntry{0, 0, 2, kBig, 1, blocking},
            CcsEntry{0, 2, 1, 100, 1, 1}};
  tr.recvs = {CcsEntry{0, 2, 1, 100, 1}, CcsEntry{1, 0, 1, kBig, 1}, CcsEntry{0, 0, 2, kBig, 1}};
  return tr;
}

}  // namespace

TEST(RendezvousPath, BlockingSendsWaitForTheReceiverAndForEachOther) {
  const CommGraph g = tracefix::by_levels(late_receiver(1));
  ASSERT_TRUE(g.deps);
  const Mapping m{0, 1, 2};  // node01, node02 (one leaf), node03 (the other leaf)
  for (uint64_t threshold : {uint64_t(0), uint64_t(65536), kBig, kBig + 1}) {
    SCOPED_TRACE(testing::Message() << "rendezvous_bytes " << threshold);
    TopologyParams p = fixtures::round_params();
    p.rendezvous_bytes = threshold;
    const Topology t = fixtures::make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\n", 3, p);
    auto c = [&](int a, int b, uint64_t bytes) { return fixtures::msg_time(t, m, a, b, bytes); };
    const double c0 = c(2, 1, 100), c1 = c(0, 1, kBig), c2 = c(0, 2, kBig);
    const bool rendezvous = threshold != 0 && threshold <= kBig;
    // Eager: each message leaves at its sender's step; the longest chain is one big message.
    // Rendezvous: 0 -> 1 starts when rank 1 has received rank 2's message, 0 -> 2 after it.
    const double want = rendezvous ? c0 + c1 + c2 : std::max(c1, c2);
    EXPECT_NEAR(critical_path_time(g, t, m, PathContention::Free), want, 1e-15);
    // The two big messages share rank 0's link (one set): the collisions only add.
    EXPECT_GT(critical_path_time(g, t, m, PathContention::Sets), want);
  }
}

TEST(RendezvousPath, BlockingSendsFollowTheRecordedOrder) {
  // The same sends, rank 0's to rank 2 recorded first (CcsEntry::order): it leaves at once, and the one to
  // rank 1, which waits for rank 1 to be in its step, follows it - the chain is c2 + c1 when rank 1 is
  // there earlier (c0 < c2), not c0 + c1 + c2 as in destination order.
  Trace tr = late_receiver(1);
  tr.ccs[0].order = 1, tr.ccs[1].order = 0;
  const CommGraph g = tracefix::by_levels(tr);
  const Topology t = fixtures::make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\n", 3);
  const Mapping m{0, 1, 2};
  auto c = [&](int a, int b, uint64_t bytes) { return fixtures::msg_time(t, m, a, b, bytes); };
  const double c0 = c(2, 1, 100), c1 = c(0, 1, kBig), c2 = c(0, 2, kBig);
  ASSERT_LT(c0, c2);
  EXPECT_NEAR(critical_path_time(g, t, m, PathContention::Free), c2 + c1, 1e-15);
  EXPECT_LT(critical_path_time(g, t, m, PathContention::Free),
            critical_path_time(tracefix::by_levels(late_receiver(1)), t, m, PathContention::Free));
}

TEST(RendezvousPath, NonblockingSendsDoNotWait) {
  const CommGraph blocking = tracefix::by_levels(late_receiver(1)), isend = tracefix::by_levels(late_receiver(0));
  TopologyParams p = fixtures::round_params();
  p.async_bytes = UINT64_MAX;  // every send not by rendezvous flows at once
  const Topology t = fixtures::make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\n", 3, p);
  const Mapping m{0, 1, 2};
  const double c1 = fixtures::msg_time(t, m, 0, 1, kBig), c2 = fixtures::msg_time(t, m, 0, 2, kBig);
  EXPECT_NEAR(critical_path_time(isend, t, m, PathContention::Free), std::max(c1, c2), 1e-15);
  EXPECT_GT(critical_path_time(blocking, t, m, PathContention::Free), c1 + c2);
  // The overlap schedule starts each transfer where the path does: the rendezvous transfers follow each
  // other on rank 0's link (no overlap, the free costs), the eager ones share it (slower than alone).
  const double c0 = fixtures::msg_time(t, m, 2, 1, 100);
  EXPECT_NEAR(critical_path_time(blocking, t, m, PathContention::Overlap), c0 + c1 + c2, 1e-12);
  EXPECT_GT(critical_path_time(isend, t, m, PathContention::Overlap), std::max(c1, c2) * 1.01);
}

TEST(RendezvousPath, MatchedSendsWaitForTheirReceiverNotForTheirSender) {
  // Rank 1 on the other leaf: rank 2's 100 B to it and rank 0's kBig to it cross the top switch, rank 0's
  // kBig to rank 2 stays in the leaf, so rank 1's late receive is what the path turns on.
  const Mapping m{0, 2, 1};
  auto topo = [](uint64_t async) {
    TopologyParams p = fixtures::round_params();
    p.async_bytes = async;
    return fixtures::make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\n", 3, p);
  };
  const Topology matched = topo(0), at_once = topo(UINT64_MAX), above = topo(kBig + 1);
  auto c = [&](int a, int b, uint64_t bytes) { return fixtures::msg_time(matched, m, a, b, bytes); };
  const double c0 = c(2, 1, 100), c1 = c(0, 1, kBig), c2 = c(0, 2, kBig);
  ASSERT_GT(c0 + c1, c2);
  const CommGraph isend = tracefix::by_levels(late_receiver(0)), blocking = tracefix::by_levels(late_receiver(1));
  // Matched (SMPI's default): 0 -> 1 starts when rank 1 has received rank 2's message; 0 -> 2 does not
  // wait for it (the sender is free), unlike the rendezvous pair, which goes one after the other.
  EXPECT_NEAR(critical_path_time(isend, matched, m, PathContention::Free), std::max(c0 + c1, c2), 1e-15);
  EXPECT_NEAR(critical_path_time(blocking, matched, m, PathContention::Free), c0 + c1 + c2, 1e-15);
  // Messages below async_bytes flow at once, as without matched sends.
  for (const Topology *t : {&at_once, &above})
    EXPECT_NEAR(critical_path_time(isend, *t, m, PathContention::Free), std::max(c1, c2), 1e-15);
  // Every path and the fluid replay start the transfer at the receiver's step too.
  for (PathContention mode : {PathContention::Sets, PathContention::Overlap, PathContention::Fluid})
    EXPECT_GE(critical_path_time(isend, matched, m, mode), c0 + c1 - 1e-15) << static_cast<int>(mode);
  EXPECT_LT(critical_path_time(isend, at_once, m, PathContention::Fluid), c0 + c1);
}

TEST(RendezvousPath, AnMpiRecvIsPostedAfterItsStepsBlockingSends) {
  // Two blocks of kBig through a 2 x 2 wavefront (rank 0 -> 1, 2; 1 -> 3; 2 -> 3; each rank receives from
  // the west, then the south, with MPI_Recv, and sends east, then north, with MPI_Send). Rank 1 posts its
  // receive of block 1 only when its send of block 0 to rank 3 has returned, which waits for rank 3 to have
  // received block 0 from rank 2: the chain is a + b + c + d per block (CM02 and SMPI agree,
  // placement/notes/chooser-suite-2026-12-03-to-04.md "The wavefront's miss"). Without RT_RECV's MPI_Recv
  // count the receive counts as
  // posted when the step begins, and block 1 overlaps block 0.
  auto trace = [](uint32_t by_recv) {
    Trace tr;
    tr.path = "wavefront2x2.arctrace";
    tr.nranks = 4;
    tr.ccs = {CcsEntry{0, 0, 1, 2 * kBig, 2, 2, 0}, CcsEntry{0, 0, 2, 2 * kBig, 2, 2, 1},
              CcsEntry{1, 1, 3, kBig, 1, 1}, CcsEntry{2, 1, 3, kBig, 1, 1},
              CcsEntry{1, 2, 3, kBig, 1, 1}, CcsEntry{2, 2, 3, kBig, 1, 1}};
    tr.recvs = {CcsEntry{0, 0, 1, kBig, 1, by_recv}, CcsEntry{1, 0, 1, kBig, 1, by_recv},
                CcsEntry{0, 0, 2, kBig, 1, by_recv}, CcsEntry{1, 0, 2, kBig, 1, by_recv},
                CcsEntry{0, 2, 3, kBig, 1, by_recv}, CcsEntry{1, 1, 3, kBig, 1, by_recv},
                CcsEntry{2, 2, 3, kBig, 1, by_recv}, CcsEntry{3, 1, 3, kBig, 1, by_recv}};
    return tr;
  };
  const Topology t = fixtures::make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\nnode04:1\n", 4);
  const Mapping m{0, 1, 2, 3};
  auto c = [&](int a, int b) { return fixtures::msg_time(t, m, a, b, kBig); };
  const double block = c(0, 1) + c(0, 2) + c(2, 3) + c(1, 3);
  const CommGraph alone = tracefix::by_levels(trace(1)), step_start = tracefix::by_levels(trace(0));
  EXPECT_NEAR(critical_path_time(alone, t, m, PathContention::Free), 2 * block, 1e-15);
  EXPECT_LT(critical_path_time(step_start, t, m, PathContention::Free), 2 * block - 0.5 * c(0, 1));
  // The fluid replay and the other paths follow the same graph.
  for (PathContention mode : {PathContention::Sets, PathContention::Overlap, PathContention::Fluid})
    EXPECT_GE(critical_path_time(alone, t, m, mode), 2 * block - 1e-15) << static_cast<int>(mode);
}

TEST(RendezvousPath, OneCriticalPathsObjectServesEveryMappingAndMode) {
  // CriticalPaths builds the protocol graph once (the rendezvous waits above) and times any mapping with
  // it: the same values as a fresh critical_path_time, whatever was timed before on the same object.
  const CommGraph g = tracefix::by_levels(late_receiver(1));
  TopologyParams p = fixtures::round_params();
  p.rendezvous_bytes = 65536;
  const Topology t = fixtures::make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\n", 3, p);
  const CriticalPaths paths(g, t);
  const Mapping across{0, 1, 2}, swapped{1, 0, 2}, other{2, 1, 0};
  for (int round = 0; round < 2; ++round)
    for (const Mapping *m : {&across, &swapped, &other})
      for (PathContention mode :
           {PathContention::Sets, PathContention::Free, PathContention::Overlap, PathContention::Fluid}) {
        SCOPED_TRACE(testing::Message() << "round " << round << " mode " << static_cast<int>(mode));
        EXPECT_EQ(paths.time(*m, mode), critical_path_time(g, t, *m, mode));
      }
  // The two rendezvous sends wait in turn on every mapping: each path is above its free single transfer.
  EXPECT_GT(paths.time(across, PathContention::Free), fixtures::msg_time(t, across, 0, 1, kBig));
  const CommGraph steps = build_comm_graph(late_receiver(1), CommGraphOptions{});
  EXPECT_EQ(CriticalPaths(steps, t).time(across), -1.0);  // no dependency graph
}
