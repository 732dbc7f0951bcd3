// Dependency levels of messages (placement/levels.hpp), the concurrent
// sets build_comm_graph makes from them, and the recorded walk that replays
// longest paths (placement/dep_graph.hpp DepOrder).
#include <gtest/gtest.h>

#include <random>

#include "comm_graph.hpp"
#include "dep_graph.hpp"
#include "levels.hpp"

using arcoll::placement::build_comm_graph;
using arcoll::placement::CollStep;
using arcoll::placement::CommGraph;
using arcoll::placement::message_levels;
using arcoll::trace::CcsEntry;
using arcoll::trace::Trace;

namespace {

// A chain 0 -> 1 -> ... -> P-1 of blocking MPI_Recv / MPI_Send, `blocks`
// blocks: rank 0 sends every block in its step 0 (no synchronisation point);
// rank r > 0 receives block k in step k and sends it on in step k + 1.
void chain(int P, int blocks, std::vector<CcsEntry> &sends, std::vector<CcsEntry> &recvs) {
  sends.push_back(CcsEntry{0, 0, 1, 100u * blocks, uint32_t(blocks)});
  for (int r = 1; r < P; ++r)
    for (int k = 0; k < blocks; ++k) {
      recvs.push_back(CcsEntry{uint64_t(k), r - 1, r, 100, 1});
      if (r + 1 < P) sends.push_back(CcsEntry{uint64_t(k + 1), r, r + 1, 100, 1});
    }
}

}  // namespace

TEST(MessageLevels, SpmdStepsKeepTheirOrder) {
  // A ring: in every step s each rank sends to both neighbours and receives from both.
  const int P = 4, S = 3;
  std::vector<CcsEntry> sends, recvs;
  for (int s = 0; s < S; ++s)
    for (int r = 0; r < P; ++r)
      for (int d : {1, P - 1}) {
        sends.push_back(CcsEntry{uint64_t(s), r, (r + d) % P, 8, 1});
        recvs.push_back(CcsEntry{uint64_t(s), (r + d) % P, r, 8, 1});
      }
  auto lv = message_levels(P, sends, recvs, {});
  ASSERT_EQ(lv.of_send.size(), sends.size());
  for (std::size_t i = 0; i < sends.size(); ++i) EXPECT_EQ(lv.of_send[i], sends[i].step) << "send " << i;
  EXPECT_EQ(lv.matched, uint64_t(P * 2 * S));
  EXPECT_EQ(lv.forced, 0u);
}

TEST(MessageLevels, PipelineBlocksInFlightShareALevel) {
  // By steps, rank 1's and rank 2's block 0 (both sent in step 1) would be
  // one concurrent set though rank 2's waits for rank 1's; by level, stage r's
  // block k gets r + k (rank 0 sends every block in its step 0: level 0).
  const int P = 5;
  std::vector<CcsEntry> sends, recvs;
  chain(P, 4, sends, recvs);
  auto lv = message_levels(P, sends, recvs, {});
  for (std::size_t i = 0; i < sends.size(); ++i) {
    const uint64_t want = sends[i].src == 0 ? 0 : uint64_t(sends[i].src) + sends[i].step - 1;
    EXPECT_EQ(lv.of_send[i], want) << "send " << i << " rank " << sends[i].src << " step " << sends[i].step;
  }
  EXPECT_EQ(lv.matched, uint64_t((P - 1) * 4));
  EXPECT_EQ(lv.forced, 0u);
}

TEST(MessageLevels, BlockingCollectiveAlignsRanks) {
  // Rank 0 passes 3 synchronisation points before the barrier (entry step 3),
  // rank 1 none (entry step 0); after it both send in their next step: same level.
  std::vector<CcsEntry> sends = {CcsEntry{4, 0, 1, 8, 1}, CcsEntry{1, 1, 0, 8, 1}};
  std::vector<CcsEntry> recvs = {CcsEntry{4, 1, 0, 8, 1}, CcsEntry{1, 0, 1, 8, 1}};
  std::vector<CollStep> colls = {CollStep{0, 0, 0, 3}, CollStep{1, 0, 0, 0}};
  auto lv = message_levels(2, sends, recvs, colls);
  EXPECT_EQ(lv.of_send[0], lv.of_send[1]);
  EXPECT_EQ(lv.of_send[0], 1u);
  // Without the collective the two sends are unrelated and both stay at level 0.
  auto none = message_levels(2, sends, recvs, {});
  EXPECT_EQ(none.of_send[0], 0u);
  EXPECT_EQ(none.of_send[1], 0u);
}

TEST(MessageLevels, CycleFromEarlyPostedReceiveIsBroken) {
  // Rank 0 posts an MPI_Irecv from 1 in step 0 (recorded there) and sends to
  // 1 in step 1; rank 1 receives that in step 0 and replies in step 1: the
  // recorded steps make (0,1) -> (1,1) -> (0,1) a cycle.
  std::vector<CcsEntry> sends = {CcsEntry{1, 0, 1, 8, 1}, CcsEntry{1, 1, 0, 8, 1}};
  std::vector<CcsEntry> recvs = {CcsEntry{0, 1, 0, 8, 1}, CcsEntry{0, 0, 1, 8, 1}};
  auto lv = message_levels(2, sends, recvs, {});
  EXPECT_GE(lv.forced, 1u);
  ASSERT_EQ(lv.of_send.size(), 2u);
  EXPECT_LE(lv.of_send[0], 2u);
  EXPECT_LE(lv.of_send[1], 2u);
}

TEST(MessageLevels, UnmatchedMessagesKeepTheSendersLevel) {
  // Two messages 0 -> 1, only one receive recorded (the other from MPI_ANY_SOURCE).
  std::vector<CcsEntry> sends = {CcsEntry{0, 0, 1, 16, 2}, CcsEntry{2, 1, 0, 8, 1}};
  std::vector<CcsEntry> recvs = {CcsEntry{1, 0, 1, 8, 1}};
  auto lv = message_levels(2, sends, recvs, {});
  EXPECT_EQ(lv.matched, 1u);
  EXPECT_EQ(lv.of_send[0], 0u);
  EXPECT_EQ(lv.of_send[1], 1u);  // rank 1's step 2 follows its receive completed at the end of step 1
}

TEST(MessageLevels, RankOutOfRangeThrows) {
  std::vector<CcsEntry> sends = {CcsEntry{0, 0, 1, 8, 1}};
  std::vector<CcsEntry> recvs = {CcsEntry{0, 0, 7, 8, 1}};
  EXPECT_THROW(message_levels(2, sends, recvs, {}), std::invalid_argument);
}

TEST(CommGraph, StepsAreLevelsWhenTheTraceHasReceives) {
  Trace tr;
  tr.path = "chain.arctrace";
  tr.nranks = 4;
  chain(4, 3, tr.ccs, tr.recvs);
  arcoll::placement::CommGraphOptions levels;
  levels.by_levels = true;
  CommGraph g = build_comm_graph(tr, levels);
  EXPECT_TRUE(g.by_levels);
  // level l holds stage r's block l - r: {0->1 all}, {1->2 b0}, {1->2 b1, 2->3 b0}, {1->2 b2, 2->3 b1}, {2->3 b2}
  const std::vector<std::vector<int>> want = {{0}, {1}, {1, 2}, {1, 2}, {2}};
  ASSERT_EQ(g.steps.size(), want.size());
  for (std::size_t l = 0; l < want.size(); ++l) {
    EXPECT_EQ(g.steps[l].id, l);
    ASSERT_EQ(g.steps[l].msgs.size(), want[l].size()) << "level " << l;
    for (std::size_t j = 0; j < want[l].size(); ++j) EXPECT_EQ(g.steps[l].msgs[j].src, want[l][j]) << "level " << l;
  }
  EXPECT_EQ(g.steps[0].msgs[0].bytes, 300u);  // rank 0's three blocks, sent in one step
  // By the trace's steps (the default), step k + 1 holds block k of both stages.
  CommGraph h = build_comm_graph(tr);
  EXPECT_FALSE(h.by_levels);
  ASSERT_EQ(h.steps.size(), 4u);
  for (std::size_t k = 1; k < 4; ++k) EXPECT_EQ(h.steps[k].msgs.size(), 2u) << "step " << k;
  EXPECT_EQ(g.total_bytes, h.total_bytes);
}

TEST(CommGraph, ReceiveNamingAMissingRankIsAClearError) {
  Trace tr;
  tr.path = "bad-recv.arctrace";
  tr.nranks = 2;
  tr.ccs = {CcsEntry{0, 0, 1, 8, 1}};
  tr.recvs = {CcsEntry{0, 5, 1, 8, 1}};
  try {
    build_comm_graph(tr);
    FAIL();
  } catch (const std::invalid_argument &e) {
    std::string m = e.what();
    EXPECT_NE(m.find("bad-recv.arctrace"), std::string::npos) << m;
    EXPECT_NE(m.find("receive entry"), std::string::npos) << m;
  }
}

TEST(DepOrder, ReplaysLongestPathsBitForBitCyclesIncluded) {
  // A 5-rank chain of 3 blocks, a blocking collective of ranks 1-3, and the early-posted-receive cycle of
  // ranks 0 and 4 (which the walk breaks by force): under several random weightings the recorded order
  // gives exactly the walk's values.
  std::vector<CcsEntry> sends, recvs;
  chain(5, 3, sends, recvs);
  sends.push_back(CcsEntry{7, 0, 4, 8, 1});
  sends.push_back(CcsEntry{7, 4, 0, 8, 1});
  recvs.push_back(CcsEntry{6, 4, 0, 8, 1});
  recvs.push_back(CcsEntry{6, 0, 4, 8, 1});
  const std::vector<CollStep> colls = {{1, 9, 0, 2}, {2, 9, 0, 2}, {3, 9, 0, 3}};
  const arcoll::placement::DepGraph g = arcoll::placement::build_dep_graph(5, sends, recvs, colls);
  uint64_t forced = 0;
  std::vector<double> ew(g.edges.size(), 1.0), pw(g.rank_nodes(), 0.0);
  arcoll::placement::longest_paths(g, ew, pw, &forced);
  ASSERT_GE(forced, 1u);  // the cycle is there
  const arcoll::placement::DepOrder order(g);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1e-3);
  for (int round = 0; round < 5; ++round) {
    for (double &w : ew) w = u(rng);
    for (double &w : pw) w = round % 2 ? u(rng) : 0.0;
    const std::vector<double> walk = arcoll::placement::longest_paths(g, ew, pw, nullptr);
    EXPECT_EQ(order.longest(ew, pw), walk) << "round " << round;
    EXPECT_GT(*std::max_element(walk.begin(), walk.end()), 0.0);
  }
}
