// Unit tests of the trace replay's schedule (replay_plan.hpp): no MPI, traces built in memory.
#include <gtest/gtest.h>

#include <stdexcept>

#include "replay_plan.hpp"
#include "trace_format.h"

namespace {

using arcoll::replay::make_replay_plan;
using arcoll::replay::ReplayPlan;
using arcoll::replay::StepOps;
using arcoll::trace::CcsEntry;
using arcoll::trace::CollEvent;
using arcoll::trace::Trace;

CollEvent coll(int rank, uint64_t comm, uint64_t seq, int op, uint64_t step, uint64_t bytes = 0, int root = -1) {
  CollEvent e{};
  e.rank = rank, e.comm_id = comm, e.seq = seq, e.op = op, e.step = step, e.bytes = bytes, e.root = root;
  e.t_entry = double(step), e.t_exit = double(step) + 0.5;
  return e;
}

const StepOps *step_of(const ReplayPlan &p, int rank, uint64_t step) {
  for (auto &s : p.ranks[rank])
    if (s.step == step) return &s;
  return nullptr;
}

TEST(ReplayPlan, PipelineUsesTheRecordedReceiveSteps) {
  // 0 -> 1 -> 2, blocking: rank 1 receives in its step 0 and forwards in step 1.
  Trace t;
  t.nranks = 3;
  t.ccs = {CcsEntry{0, 0, 1, 100, 1}, CcsEntry{1, 1, 2, 100, 1}};
  t.recvs = {CcsEntry{0, 0, 1, 100, 1}, CcsEntry{1, 1, 2, 100, 1}};
  ReplayPlan p = make_replay_plan(t);
  EXPECT_TRUE(p.receives_from_trace);
  EXPECT_EQ(p.messages, 2u);
  EXPECT_EQ(p.p2p_bytes, 200u);
  EXPECT_EQ(p.deferred_recvs, 0u);
  ASSERT_NE(step_of(p, 1, 0), nullptr);
  ASSERT_EQ(step_of(p, 1, 0)->recvs.size(), 1u);
  EXPECT_EQ(step_of(p, 1, 0)->recvs[0].peer, 0);
  EXPECT_TRUE(step_of(p, 1, 0)->sends.empty());
  ASSERT_EQ(step_of(p, 1, 1)->sends.size(), 1u);
  EXPECT_EQ(step_of(p, 1, 1)->sends[0].peer, 2);
  ASSERT_EQ(step_of(p, 2, 1)->recvs.size(), 1u);
}

TEST(ReplayPlan, WithoutReceivesTheSendersStepsAreUsed) {
  Trace t;
  t.nranks = 2;
  t.ccs = {CcsEntry{3, 0, 1, 64, 2}, CcsEntry{3, 1, 0, 64, 2}};
  ReplayPlan p = make_replay_plan(t);
  EXPECT_FALSE(p.receives_from_trace);
  for (int r = 0; r < 2; ++r) {
    const StepOps *s = step_of(p, r, 3);
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(s->recvs.size(), 1u);
    EXPECT_EQ(s->recvs[0].peer, 1 - r);
    EXPECT_EQ(s->recvs[0].count, 2u);
    EXPECT_EQ(s->recvs[0].bytes, 32u);
  }
  // Receives that count fewer messages than the sends (an MPI_ANY_SOURCE Irecv) are not used either.
  t.recvs = {CcsEntry{3, 0, 1, 64, 2}, CcsEntry{3, 1, 0, 32, 1}};
  EXPECT_FALSE(make_replay_plan(t).receives_from_trace);
}

TEST(ReplayPlan, ReceiveBufferHoldsTheLargestPartOfAnEntry) {
  // 10 bytes in 4 messages are sent as 4 + 2 + 2 + 2 (trace_replay.cpp): every receive takes 4.
  Trace t;
  t.nranks = 2;
  t.ccs = {CcsEntry{0, 0, 1, 10, 4}, CcsEntry{1, 0, 1, 6, 3}};
  t.recvs = {CcsEntry{0, 0, 1, 10, 4}, CcsEntry{1, 0, 1, 6, 3}};
  ReplayPlan p = make_replay_plan(t);
  for (auto &s : p.ranks[1])
    for (auto &m : s.recvs) EXPECT_EQ(m.bytes, 4u);
}

TEST(ReplayPlan, ReceivePostedBeforeTwoCollectivesIsDeferred) {
  // Rank 1 posts an Irecv in step 0 (recorded there), both ranks pass two barriers, rank 0 sends in
  // step 2: waiting for it at the end of step 0 would deadlock in the second barrier.
  Trace t;
  t.nranks = 2;
  t.ccs = {CcsEntry{2, 0, 1, 8, 1}};
  t.recvs = {CcsEntry{0, 0, 1, 8, 1}};
  for (int r = 0; r < 2; ++r)
    for (uint64_t k = 0; k < 2; ++k) t.colls.push_back(coll(r, 0, k, OP_BARRIER, k));
  ReplayPlan p = make_replay_plan(t);
  EXPECT_TRUE(p.receives_from_trace);
  EXPECT_EQ(p.deferred_recvs, 1u);
  EXPECT_EQ(p.colls, 4u);
  ASSERT_EQ(step_of(p, 1, 0)->recvs.size(), 1u);
  EXPECT_TRUE(step_of(p, 1, 0)->recvs[0].deferred);
  // The same receive recorded after the barriers is waited for in its step.
  t.recvs = {CcsEntry{2, 0, 1, 8, 1}};
  ReplayPlan q = make_replay_plan(t);
  EXPECT_EQ(q.deferred_recvs, 0u);
  EXPECT_FALSE(step_of(q, 1, 2)->recvs[0].deferred);
}

TEST(ReplayPlan, CollectiveArguments) {
  Trace t;
  t.nranks = 4;
  t.comms = {{7, {3, 1}}, {8, {0, -1}}};
  const uint64_t gv[4] = {10, 20, 30, 40};
  for (int r = 0; r < 4; ++r) {
    t.colls.push_back(coll(r, 0, 0, OP_GATHERV, 0, gv[r], 2));
    t.colls.push_back(coll(r, 0, 1, OP_ALLTOALLV, 1, 400 + 4 * r));
    t.colls.push_back(coll(r, 0, 2, OP_NEIGHBOR_ALLGATHER, 2, 8));
    t.colls.push_back(coll(r, 0, 3, OP_REDUCE_SCATTER, 3, 10));
  }
  t.colls.push_back(coll(3, 7, 0, OP_BCAST, 4, 99, 1));  // comm 7 = world ranks {3, 1}
  t.colls.push_back(coll(1, 7, 0, OP_BCAST, 4, 99, 1));
  t.colls.push_back(coll(3, 7, 1, OP_ALLREDUCE, 5, 16));  // rank 1 did not record this one
  t.colls.push_back(coll(0, 8, 0, OP_BARRIER, 6));       // a member outside MPI_COMM_WORLD
  ReplayPlan p = make_replay_plan(t);
  EXPECT_EQ(p.colls, 4u * 3 + 2);
  EXPECT_EQ(p.skipped_colls, 4u + 1 + 1);
  ASSERT_EQ(p.comms.size(), 2u);  // world, comm 7
  EXPECT_EQ(p.comms[1], (std::vector<int>{3, 1}));
  const auto &g = step_of(p, 2, 0)->colls.at(0);
  EXPECT_EQ(g.op, OP_GATHERV);
  EXPECT_EQ(g.root, 2);
  EXPECT_EQ(g.per_rank, (std::vector<uint64_t>{10, 20, 30, 40}));
  const auto &a = step_of(p, 0, 1)->colls.at(0);
  EXPECT_EQ(a.op, OP_ALLTOALL);
  EXPECT_EQ(a.bytes, 412u / 4);
  EXPECT_EQ(step_of(p, 0, 2), nullptr);  // the neighbourhood call: nothing in that step
  const auto &rs = step_of(p, 0, 3)->colls.at(0);
  EXPECT_EQ(rs.op, OP_REDUCE_SCATTER_BLOCK);
  EXPECT_EQ(rs.bytes, 3u);  // ceil(10 / 4)
  const auto &b = step_of(p, 1, 4)->colls.at(0);
  EXPECT_EQ(b.comm, 1);
  EXPECT_EQ(b.bytes, 99u);
  EXPECT_EQ(step_of(p, 3, 5), nullptr);
}

TEST(ReplayPlan, CollectivesInOppositeOrdersAreRefused) {
  Trace t;
  t.nranks = 2;
  t.comms = {{5, {0, 1}}, {6, {0, 1}}};
  t.colls = {coll(0, 5, 0, OP_BARRIER, 0), coll(0, 6, 0, OP_BARRIER, 1), coll(1, 6, 0, OP_BARRIER, 0),
             coll(1, 5, 0, OP_BARRIER, 1)};
  try {
    make_replay_plan(t);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find("cannot be replayed in the recorded order"), std::string::npos) << e.what();
  }
}

}  // namespace
