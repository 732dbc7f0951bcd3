// Hosts split into sockets (HOSTS.md): routes, cost, and the search choosing which ranks share a socket.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>

#include "cost.hpp"
#include "fixtures.hpp"
#include "partition_metis.hpp"
#include "place.hpp"
#include "refine.hpp"
#include "socket_fixtures.hpp"
#include "sockets.hpp"

using namespace arcoll::placement;

using socket_fixtures::interleaved_rings;
using socket_fixtures::kHosts;
using socket_fixtures::kLeaf;

TEST(SocketRoutes, SameSocketOtherSocketOtherHost) {
  TopologyParams p = fixtures::round_params();
  p.socket = {0.25e-6, 5e9};
  Topology t = fixtures::make(kLeaf, kHosts, 16, p);
  const int V = static_cast<int>(t.vertices.size()), H = 4;
  ASSERT_EQ(t.links.size(), static_cast<size_t>(2 * V + H + 2 * H));
  EXPECT_EQ(t.route(0, 0), std::vector<int>{t.intra_link(0)});
  EXPECT_EQ(t.route(0, 1), (std::vector<int>{t.socket_up_link(0), t.socket_down_link(1)}));
  EXPECT_EQ(t.route(1, 0), (std::vector<int>{t.socket_up_link(1), t.socket_down_link(0)}));
  EXPECT_EQ(t.route(1, 3), (std::vector<int>{t.up_link(t.hosts[1].vertex), t.down_link(t.hosts[3].vertex)}));
  EXPECT_EQ(t.route(0, 2), t.route(1, 3));  // the sockets of a host share its network link
  EXPECT_EQ(t.hops(0, 1), 0);
  EXPECT_EQ(t.hops(0, 2), 2);
  EXPECT_DOUBLE_EQ(t.latency(0, 1), 0.5e-6);
  EXPECT_DOUBLE_EQ(t.bandwidth(0, 1), 5e9);
  EXPECT_DOUBLE_EQ(t.latency(0, 0), 1e-7);
  EXPECT_EQ(t.links[t.socket_up_link(2)].kind, Link::Socket);
  EXPECT_EQ(t.max_route(), 2);
}

TEST(SocketCost, CrossSocketMessagesShareTheSocketLinks) {
  Topology t = fixtures::make(kLeaf, "node01 slots=4 sockets=2\nnode02:4\n", 4);
  const double S = 1e6, Ls = t.links[t.socket_up_link(0)].latency_s, Bs = t.links[t.socket_up_link(0)].bandwidth_Bps;
  const double Li = t.links[t.intra_link(0)].latency_s, Bi = t.links[t.intra_link(0)].bandwidth_Bps;
  CommGraph g = fixtures::graph(4, {{{0, 2, 1000000}, {1, 3, 1000000}}});
  const Mapping split{0, 0, 1, 1}, paired{0, 1, 0, 1};  // entries 0, 1 = node01's sockets
  CostReport a = evaluate(g, t, split), b = evaluate(g, t, paired);
  EXPECT_DOUBLE_EQ(a.time_s, 2 * Ls + S * 2 / Bs);  // both on up(socket 0), down(socket 1)
  EXPECT_DOUBLE_EQ(b.time_s, Li + S / Bi);           // one message on each socket's own link
  EXPECT_DOUBLE_EQ(a.inter_socket_bytes, 2 * S);
  EXPECT_DOUBLE_EQ(b.inter_socket_bytes, 0);
  EXPECT_DOUBLE_EQ(a.hop_bytes, 0);
  EXPECT_EQ(a.max_congestion, 0);  // socket links are not network links
  for (Contention c : {Contention::Count, Contention::Volume, Contention::Fluid, Contention::Blend}) {
    t.contention = c;
    EXPECT_GT(estimated_time(g, t, split), estimated_time(g, t, paired)) << static_cast<int>(c);
    EXPECT_DOUBLE_EQ(estimated_time(g, t, split), 2 * Ls + S * 2 / Bs) << static_cast<int>(c);
    CostModel m(g, t, 1);  // per-link path for Count / Volume
    EXPECT_DOUBLE_EQ(m.reset(split), estimated_time(g, t, split));
    EXPECT_DOUBLE_EQ(m.apply(1, 1, 2, 0), estimated_time(g, t, paired));
  }
}

TEST(SocketSearch, RefinementPutsRingNeighboursOnOneSocket) {
  Topology t = fixtures::make(kLeaf, kHosts, 16, TopologyParams{});
  CommGraph g = interleaved_rings(1 << 20);
  const Mapping in_order = in_order_mapping(16, t);
  EXPECT_EQ(in_order, (Mapping{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
  const CostReport before = evaluate(g, t, in_order);
  RefineOptions opt;
  opt.max_evals = 20000;
  RefineResult r = refine(g, t, in_order, opt);
  const CostReport after = evaluate(g, t, r.map);
  EXPECT_TRUE(respects_slots(r.map, t));
  EXPECT_EQ(node_mapping(r.map, t), node_mapping(in_order, t));  // the hosts were already right
  EXPECT_LT(after.time_s, 0.5 * before.time_s);
  EXPECT_LT(after.inter_socket_bytes, 0.5 * before.inter_socket_bytes);
  // 4 consecutive ring ranks per socket: 2 crossings per ring (each direction once).
  EXPECT_DOUBLE_EQ(after.inter_socket_bytes, 4.0 * (1 << 20));
  // The whole pipeline (METIS partitions onto the sockets) finds it too.
  PlaceOptions popt;
  popt.refine.max_evals = 20000;
  PlaceResult pr = place(g, t, popt);
  EXPECT_DOUBLE_EQ(pr.chosen().cost.time_s, after.time_s);
  RecordProperty("in_order_s", std::to_string(before.time_s));
  RecordProperty("refined_s", std::to_string(after.time_s));
}

TEST(SocketSearch, ScotchStageKeepsHostsAndSockets) {
  Topology t = fixtures::make(kLeaf, kHosts, 16, TopologyParams{});
  CommGraph g = interleaved_rings(1 << 20);
  Mapping parts = partition_metis(g, t, 1);
  EXPECT_TRUE(respects_slots(parts, t));
  PlaceOptions popt;
  popt.strategy = Strategy::Scotch;
  PlaceResult pr = place(g, t, popt);
  EXPECT_TRUE(respects_slots(pr.chosen().map, t));
}

// A 2-D halo (8 x 4 grid, 256 KiB per neighbour) with scrambled rank numbers on 2 hosts x 2 sockets
// x 8 slots: the host-only pipeline (sockets unknown, then filled in rank order) splits each host's
// ranks over the sockets by rank number, i.e. at random; the socket-aware one chooses the split (and,
// seeing two socket links instead of one shared node link, also keeps more traffic inside the hosts).
TEST(SocketSearch, HostOnlyPlacementLosesOnScrambledHalo) {
  const int W = 8, Hh = 4, n = W * Hh;
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  std::mt19937_64 rng(7);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<Message> step;
  for (int y = 0; y < Hh; ++y)
    for (int x = 0; x < W; ++x)
      for (auto [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}})
        if (x + dx >= 0 && x + dx < W && y + dy >= 0 && y + dy < Hh)
          step.push_back({perm[y * W + x], perm[(y + dy) * W + x + dx], 256u << 10});
  CommGraph g = fixtures::graph(n, {step});
  Topology plain = fixtures::make(kLeaf, "node01:16\nnode02:16\n", n, TopologyParams{});
  Topology t = fixtures::make(kLeaf, "node01 slots=16 sockets=2\nnode02 slots=16 sockets=2\n", n, TopologyParams{});
  PlaceOptions popt;
  popt.refine.max_evals = 50000;
  const Mapping host_only = spread_over_sockets(place(g, plain, popt).chosen().map, t);
  const CostReport h = evaluate(g, t, host_only);
  const PlaceResult aware = place(g, t, popt);
  const CostReport a = aware.chosen().cost;
  EXPECT_LT(a.time_s, h.time_s);
  EXPECT_LT(a.inter_socket_bytes, h.inter_socket_bytes);
  RecordProperty("host_only_s", std::to_string(h.time_s));
  RecordProperty("host_only_inter_socket_B", std::to_string(h.inter_socket_bytes));
  RecordProperty("aware_s", std::to_string(a.time_s));
  RecordProperty("aware_inter_socket_B", std::to_string(a.inter_socket_bytes));
  RecordProperty("in_order_s", std::to_string(aware.stages[0].cost.time_s));
  RecordProperty("in_order_inter_socket_B", std::to_string(aware.stages[0].cost.inter_socket_bytes));
  RecordProperty("host_only_hop_bytes", std::to_string(h.hop_bytes));
  RecordProperty("aware_hop_bytes", std::to_string(a.hop_bytes));
}

TEST(SocketHelpers, NodeTopologyMergesSocketsAndSpreadFillsThem) {
  Topology t = fixtures::make(kLeaf, "node01 slots=8 sockets=2\nnode02 slots=6 sockets=3\n", 14);
  EXPECT_EQ(node_of_entries(t), (std::vector<int>{0, 0, 1, 1, 1}));
  Topology n = node_topology(t);
  ASSERT_EQ(n.hosts.size(), 2u);
  EXPECT_FALSE(n.has_sockets());
  EXPECT_EQ(n.hosts[0].slots, 8);
  EXPECT_EQ(n.hosts[1].slots, 6);
  EXPECT_EQ(n.route(0, 1), t.route(0, 2));  // the network routes are the same links
  EXPECT_DOUBLE_EQ(n.latency(0, 1), t.latency(0, 2));
  EXPECT_EQ(node_mapping({1, 0, 4, 2}, t), (Mapping{0, 0, 1, 1}));
  // Rank order fills socket 0 first; a hint keeps a rank on its socket while there is room;
  // a hint to socket 2 on a 2-socket host is ignored.
  EXPECT_EQ(spread_over_sockets({0, 0, 0, 0, 0, 1, 1, 1}, t), (Mapping{0, 0, 0, 0, 1, 2, 2, 3}));
  EXPECT_EQ(spread_over_sockets({0, 0, 1, 0}, t, {1, 4, 4, 0}), (Mapping{1, 0, 4, 0}));
  EXPECT_THROW(spread_over_sockets(Mapping(7, 1), t), std::invalid_argument);
}

TEST(SocketHelpers, OneSocketCostsExactlyAsBefore) {
  CommGraph g = interleaved_rings(1 << 20);
  Topology plain = fixtures::make(kLeaf, "node01:8\nnode02:8\n", 16, TopologyParams{});
  Topology one = fixtures::make(kLeaf, "node01:8 sockets=1\nnode02 slots=8 numa=1\n", 16, TopologyParams{});
  const Mapping m{0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0};
  for (Contention c : {Contention::Count, Contention::Volume, Contention::Fluid, Contention::Blend}) {
    plain.contention = one.contention = c;
    CostReport a = evaluate(g, plain, m), b = evaluate(g, one, m);
    EXPECT_EQ(a.time_s, b.time_s);
    EXPECT_EQ(a.hop_bytes, b.hop_bytes);
    EXPECT_EQ(a.max_congestion, b.max_congestion);
    EXPECT_EQ(b.inter_socket_bytes, 0);
  }
}
