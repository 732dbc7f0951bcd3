// The fluid replay of the happened-before graph (placement/critical_path.hpp "Fluid", path_replay.hpp):
// messages active at the same time share their links max-min fairly, messages apart in time do not, a
// rendezvous send waits for its receiver and its sender's earlier ones, and an entry of several messages
// is replayed message by message.
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
// Three nodes under one switch, one rank each: every inter-node route is two node links (1e9 B/s, 1 us).
const char *kOneSwitch = "SwitchName=s1 Nodes=node[01-03]\n";

Topology one_switch(uint64_t rendezvous_bytes, uint64_t async_bytes = 0) {
  TopologyParams p = fixtures::round_params();
  p.rendezvous_bytes = rendezvous_bytes;
  p.async_bytes = async_bytes;
  return fixtures::make(kOneSwitch, "node01:1\nnode02:1\nnode03:1\n", 3, p);
}

// Ranks 0 and 1 each send `bytes` to rank 2 in their step 0 (blocking sends); rank 2 receives both in its
// step 0.
Trace two_into_one(uint64_t bytes) {
  Trace tr;
  tr.path = "fluid.arctrace";
  tr.nranks = 3;
  tr.ccs = {CcsEntry{0, 0, 2, bytes, 1, 1}, CcsEntry{0, 1, 2, bytes, 1, 1}};
  tr.recvs = {CcsEntry{0, 0, 2, bytes, 1}, CcsEntry{0, 1, 2, bytes, 1}};
  return tr;
}

}  // namespace

TEST(PathFluid, MessagesAtTheSameTimeShareTheLink) {
  // Both transfers cross node03's link at once: each at B / 2, both done at L + 2 S / B; alone L + S / B.
  const Topology t = one_switch(0);  // eager: both leave at time 0
  const Mapping m{0, 1, 2};
  const CommGraph g = tracefix::by_levels(two_into_one(kBig));
  const double L = t.latency(0, 2), B = t.bandwidth(0, 2);
  EXPECT_NEAR(critical_path_time(g, t, m, PathContention::Fluid), L + 2.0 * kBig / B, 1e-12);
  EXPECT_NEAR(critical_path_time(g, t, m, PathContention::Free), L + kBig / B, 1e-12);
  // Rank 1 on rank 2's node: its message takes the node-internal link, rank 0's has node03's link alone.
  const Topology packed = fixtures::make(kOneSwitch, "node01:1\nnode03:2\n", 3);
  const Mapping pm{0, 1, 1};
  EXPECT_NEAR(critical_path_time(g, packed, pm, PathContention::Fluid), fixtures::msg_time(packed, pm, 0, 2, kBig),
              1e-12);
}

TEST(PathFluid, MessagesApartInTimeDoNotShare) {
  // Rank 2 receives rank 0's message, then sends it on to rank 1 (its step 1): the second transfer starts
  // when the first has arrived, so each runs alone on its links.
  Trace tr;
  tr.path = "chain.arctrace";
  tr.nranks = 3;
  tr.ccs = {CcsEntry{0, 0, 2, kBig, 1, 0}, CcsEntry{1, 2, 1, kBig, 1, 0}};
  tr.recvs = {CcsEntry{0, 0, 2, kBig, 1}, CcsEntry{0, 2, 1, kBig, 1}};
  const CommGraph g = tracefix::by_levels(tr);
  const Topology t = one_switch(0);
  const Mapping m{0, 1, 2};
  const double want = fixtures::msg_time(t, m, 0, 2, kBig) + fixtures::msg_time(t, m, 2, 1, kBig);
  EXPECT_NEAR(critical_path_time(g, t, m, PathContention::Fluid), want, 1e-12);
  EXPECT_NEAR(critical_path_time(g, t, m, PathContention::Free), want, 1e-12);
}

TEST(PathFluid, RendezvousSendsWaitForTheReceiverAndEachOther) {
  // Rank 2 sends 100 B to rank 1 (received in rank 1's step 0); rank 0 sends kBig to rank 1 (received in
  // its step 1), then kBig to rank 2, by blocking calls: as rendezvous sends, 0 -> 1 waits for rank 1 to
  // have the small message and 0 -> 2 for 0 -> 1, so nothing shares a link: c0 + c1 + c2.
  Trace tr;
  tr.path = "rendezvous.arctrace";
  tr.nranks = 3;
  tr.ccs = {CcsEntry{0, 0, 1, kBig, 1, 1}, CcsEntry{0, 0, 2, kBig, 1, 1}, CcsEntry{0, 2, 1, 100, 1, 1}};
  tr.recvs = {CcsEntry{0, 2, 1, 100, 1}, CcsEntry{1, 0, 1, kBig, 1}, CcsEntry{0, 0, 2, kBig, 1}};
  tr.ccs[1].order = 1;
  const CommGraph g = tracefix::by_levels(tr);
  const Mapping m{0, 1, 2};
  const Topology rdv = one_switch(65536), eager = one_switch(kBig + 1);
  auto c = [&](int a, int b, uint64_t bytes) { return fixtures::msg_time(rdv, m, a, b, bytes); };
  EXPECT_NEAR(critical_path_time(g, rdv, m, PathContention::Fluid), c(2, 1, 100) + c(0, 1, kBig) + c(0, 2, kBig),
              1e-12);
  // Eager: both big messages leave at 0 and share node01's link: each at B / 2 until both are done.
  EXPECT_NEAR(critical_path_time(g, eager, m, PathContention::Fluid),
              eager.latency(0, 1) + 2.0 * kBig / eager.bandwidth(0, 1), 1e-12);
}

TEST(PathFluid, AnEntryOfSeveralMessagesIsReplayedMessageByMessage) {
  // Rank 0 receives nothing, so its four blocking sends of kBig to rank 1 fall in one step: one entry of
  // 4 kBig, count 4. Rank 1 receives them in its steps 0-3 and after each sends 100 B to rank 2. As
  // rendezvous sends, each message of the entry waits for the one before: 4 transfers of kBig one after
  // another, and rank 2's last message leaves after the fourth (not after one transfer of 4 kBig that
  // would wait for rank 1's step 3, which waits for it).
  Trace tr;
  tr.path = "entry.arctrace";
  tr.nranks = 3;
  tr.ccs = {CcsEntry{0, 0, 1, 4 * kBig, 4, 4}};
  for (uint64_t s = 0; s < 4; ++s) {
    tr.recvs.push_back(CcsEntry{s, 0, 1, kBig, 1});
    tr.ccs.push_back(CcsEntry{s + 1, 1, 2, 100, 1, 1});
    tr.recvs.push_back(CcsEntry{s, 1, 2, 100, 1});
  }
  const CommGraph g = tracefix::by_levels(tr);
  const Topology t = one_switch(65536);
  const Mapping m{0, 1, 2};
  const double big = fixtures::msg_time(t, m, 0, 1, kBig), small = fixtures::msg_time(t, m, 1, 2, 100);
  EXPECT_NEAR(critical_path_time(g, t, m, PathContention::Fluid), 4 * big + small, 1e-12);
  // The other paths split the entry the same way (path_protocol.hpp: one rendezvous node per run).
  for (PathContention mode : {PathContention::Free, PathContention::Sets, PathContention::Overlap})
    EXPECT_NEAR(critical_path_time(g, t, m, mode), 4 * big + small, 1e-12) << static_cast<int>(mode);
  // Eager and flowing at once (no matched sends), the four leave back to back: the k-th arrives at
  // L + k S / B (the path), or all four at L + 4 S / B sharing the link (the replay); rank 1 forwards each
  // when it is in.
  const Topology eager = one_switch(0, UINT64_MAX);
  const double L = eager.latency(0, 1), B = eager.bandwidth(0, 1);
  EXPECT_NEAR(critical_path_time(g, eager, m, PathContention::Free), L + 4.0 * kBig / B + small, 1e-12);
  const double fluid = critical_path_time(g, eager, m, PathContention::Fluid);
  EXPECT_GE(fluid, L + 4.0 * kBig / B + small - 1e-12);
  EXPECT_LE(fluid, L + 4.0 * kBig / B + 4 * small);
}
