// Topology/hostfile parsing, hostlists, routes and every documented error.
#include <gtest/gtest.h>

#include <string>

#include "cost.hpp"
#include "expect_error.hpp"
#include "fixtures.hpp"

using namespace arcoll::placement;
using fixtures::make;
using fixtures::graph;

TEST(Hostlist, RangesPaddingAndProducts) {
  EXPECT_EQ(expand_hostlist("node[01-04,07]"),
            (std::vector<std::string>{"node01", "node02", "node03", "node04", "node07"}));
  EXPECT_EQ(expand_hostlist("n[8-10]"), (std::vector<std::string>{"n8", "n9", "n10"}));
  EXPECT_EQ(expand_hostlist("n[08-10]"), (std::vector<std::string>{"n08", "n09", "n10"}));
  EXPECT_EQ(expand_hostlist("login,gpu[1-2]x"), (std::vector<std::string>{"login", "gpu1x", "gpu2x"}));
  EXPECT_EQ(expand_hostlist("r[1-2]n[1-2]"), (std::vector<std::string>{"r1n1", "r1n2", "r2n1", "r2n2"}));
  EXPECT_EQ(expand_hostlist("s0"), (std::vector<std::string>{"s0"}));
}

TEST(Hostlist, Errors) {
  EXPECT_THROW(expand_hostlist("node[01-04"), std::invalid_argument);
  EXPECT_THROW(expand_hostlist("node01]"), std::invalid_argument);
  EXPECT_THROW(expand_hostlist("node[4-1]"), std::invalid_argument);
  EXPECT_THROW(expand_hostlist("node[a-b]"), std::invalid_argument);
  EXPECT_THROW(expand_hostlist("a,,b"), std::invalid_argument);
  EXPECT_THROW(expand_hostlist("node[]"), std::invalid_argument);
}

TEST(Topology, ParsesTreeCaseInsensitiveKeysAndComments) {
  Topology t = parse_topology_conf(
      "  # comment line\n\n"
      "switchname=leaf1 nodes=node[01-02]   # trailing comment\n"
      "SWITCHNAME=leaf2 NODES=node03,node04 LinkSpeed=40\n"
      "SwitchName=top Switches=leaf[1-2]\n",
      "t.conf");
  ASSERT_EQ(t.vertices.size(), 7u);
  EXPECT_EQ(t.vertices[t.root].name, "top");
  int n3 = t.find("node03");
  ASSERT_GE(n3, 0);
  EXPECT_TRUE(t.vertices[n3].is_host);
  EXPECT_EQ(t.vertices[t.vertices[n3].parent].name, "leaf2");
  EXPECT_EQ(t.vertices[n3].depth, 2);
  EXPECT_EQ(t.vertices[t.find("leaf1")].depth, 1);
  EXPECT_EQ(t.vertices[t.find("leaf1")].where, "t.conf:3");
}

TEST(Topology, RoutesGoUpToLowestCommonSwitchAndDown) {
  Topology t = make(fixtures::two_leaves, "node01:1\nnode02:1\nnode03:1\nnode04:1\n", 4);
  int n1 = t.find("node01"), n2 = t.find("node02"), n3 = t.find("node03"), s1 = t.find("s1"), s2 = t.find("s2");
  EXPECT_EQ(t.route(0, 1), (std::vector<int>{t.up_link(n1), t.down_link(n2)}));
  EXPECT_EQ(t.route(0, 2), (std::vector<int>{t.up_link(n1), t.up_link(s1), t.down_link(s2), t.down_link(n3)}));
  EXPECT_EQ(t.route(0, 0), (std::vector<int>{t.intra_link(0)}));
  EXPECT_EQ(t.links[t.up_link(s1)].to, t.find("s0"));
  EXPECT_DOUBLE_EQ(t.latency(0, 2), 1e-6 + 2e-6 + 2e-6 + 1e-6);
  EXPECT_DOUBLE_EQ(t.bandwidth(0, 2), 0.5e9);
  EXPECT_DOUBLE_EQ(t.bandwidth(0, 1), 1e9);
  EXPECT_DOUBLE_EQ(t.latency(1, 1), 1e-7);
  EXPECT_EQ(t.hops(0, 2), 4);
  EXPECT_EQ(t.hops(3, 3), 0);
  EXPECT_TRUE(t.homogeneous());
  EXPECT_EQ(t.fanouts(), (std::vector<int>{2, 2}));
}

TEST(Topology, LinkSpeedDefinesBandwidthOfTheSwitchsLinks) {
  auto p = fixtures::round_params();
  p.linkspeed_gbps = 2.0;  // LinkSpeed=4 -> 8 Gbit/s = 1e9 bytes/s
  Topology t = make("SwitchName=s1 Nodes=a,b LinkSpeed=4\nSwitchName=s2 Nodes=c\nSwitchName=s0 Switches=s1,s2\n",
                    "a:1\nb\nc slots=2\n", 4, p);
  EXPECT_DOUBLE_EQ(t.links[t.up_link(t.find("a"))].bandwidth_Bps, 1e9);
  EXPECT_DOUBLE_EQ(t.links[t.down_link(t.find("b"))].bandwidth_Bps, 1e9);
  EXPECT_DOUBLE_EQ(t.links[t.up_link(t.find("c"))].bandwidth_Bps, 1e9);  // default node_leaf
  EXPECT_EQ(t.hosts[1].slots, 1);
  EXPECT_EQ(t.hosts[2].slots, 2);
  EXPECT_FALSE(t.homogeneous());  // s1 has 2 hosts, s2 has 1
}

TEST(Topology, HostfileSyntaxes) {
  auto h = parse_hostfile("# hosts\nnode01:2\nnode02 slots=3\n\nnode03\n", "h");
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].name, "node01");
  EXPECT_EQ(h[0].slots, 2);
  EXPECT_EQ(h[1].slots, 3);
  EXPECT_EQ(h[2].slots, 1);
}

TEST(TopologyErrors, UnknownKey) {
  expect_error([] { parse_topology_conf("SwitchName=s0 Nodes=a\nSwitchName=s1 Nodez=b\n", "x.conf"); },
               {"x.conf:2", "unknown key \"Nodez\"", "SwitchName, Nodes, Switches and LinkSpeed"});
}

TEST(TopologyErrors, NodeInTwoSwitches) {
  expect_error([] {
    parse_topology_conf("SwitchName=s1 Nodes=n[1-3]\nSwitchName=s2 Nodes=n[3-4]\nSwitchName=s0 Switches=s[1-2]\n",
                        "x.conf");
  }, {"x.conf:2", "node n3 is in two switches", "s1"});
}

TEST(TopologyErrors, Cycle) {
  expect_error([] {
    parse_topology_conf("SwitchName=top Switches=a\nSwitchName=a Nodes=n1\n"
                        "SwitchName=b Switches=c\nSwitchName=c Switches=b\n", "x.conf");
  }, {"x.conf:", "cycle", "b", "c"});
  expect_error([] { parse_topology_conf("SwitchName=s0 Switches=s0 Nodes=n1\n", "y.conf"); }, {"y.conf:1", "cycle"});
}

TEST(TopologyErrors, SeveralRoots) {
  expect_error([] { parse_topology_conf("SwitchName=s1 Nodes=a\nSwitchName=s2 Nodes=b\n", "x.conf"); },
               {"x.conf", "not one tree", "s1 (x.conf:1)", "s2 (x.conf:2)", "SwitchName=top"});
}

TEST(TopologyErrors, OtherStructuralErrors) {
  expect_error([] { parse_topology_conf("SwitchName=s0 Switches=s9\n", "x.conf"); }, {"x.conf:1", "s9"});
  expect_error([] { parse_topology_conf("SwitchName=s0 Nodes=a\nSwitchName=s0 Nodes=b\n", "x.conf"); },
               {"x.conf:2", "defined twice", "x.conf:1"});
  expect_error([] { parse_topology_conf("Nodes=a\n", "x.conf"); }, {"x.conf:1", "SwitchName"});
  expect_error([] { parse_topology_conf("SwitchName=s0 Nodes=a LinkSpeed=-3\n", "x.conf"); },
               {"x.conf:1", "LinkSpeed"});
  expect_error([] { parse_topology_conf("SwitchName=s0 Nodes=a[1-\n", "x.conf"); }, {"x.conf:1", "hostlist"});
  expect_error([] { parse_topology_conf("# nothing\n", "x.conf"); }, {"x.conf", "no switch"});
  expect_error([] { parse_topology_conf("SwitchName=s0 Nodes=a garbage\n", "x.conf"); }, {"x.conf:1", "garbage"});
}

TEST(TopologyErrors, HostNotInTopology) {
  expect_error([] { make(fixtures::two_leaves, "node01:1\nnode09:1\n", 2); },
               {"hosts.txt", "node09", "topology.conf", "Nodes="});
  expect_error([] { make(fixtures::two_leaves, "s1:1\n", 1); }, {"hosts.txt", "s1", "switch"});
}

TEST(TopologyErrors, BadSlots) {
  expect_error([] { parse_hostfile("a:2\nb:0\n", "h.txt"); }, {"h.txt:2", "0 slots"});
  expect_error([] { parse_hostfile("a:-1\n", "h.txt"); }, {"h.txt:1", "-1 slots"});
  expect_error([] { parse_hostfile("a slots=0\n", "h.txt"); }, {"h.txt:1", "0 slots"});
  expect_error([] { parse_hostfile("a:x\n", "h.txt"); }, {"h.txt:1", "not an integer"});
  expect_error([] { parse_hostfile("a:1\na:2\n", "h.txt"); }, {"h.txt:2", "listed twice"});
  expect_error([] { parse_hostfile("\n# only comments\n", "h.txt"); }, {"h.txt", "no host"});
}

TEST(TopologyErrors, TooFewSlots) {
  expect_error([] { make(fixtures::two_leaves, "node01:2\nnode02:1\n", 4); },
               {"hosts.txt", "3 slots for 4 ranks"});
}

TEST(TopologyErrors, UnreadableFiles) {
  expect_error([] { read_topology_conf("/nonexistent/topology.conf"); }, {"/nonexistent/topology.conf", "cannot open"});
  expect_error([] { read_hostfile("/nonexistent/hosts"); }, {"/nonexistent/hosts", "cannot open"});
}

TEST(Topology, OversubscribedFatTreeUplinks) {
  // Leaves at 100 Gbit/s to their hosts; the top switch's LinkSpeed=50 makes the leaf uplinks 2:1.
  const char *conf = "SwitchName=l1 Nodes=a[1-2] LinkSpeed=100\nSwitchName=l2 Nodes=b[1-2] LinkSpeed=100\n"
                     "SwitchName=top Switches=l[1-2] LinkSpeed=50\n";
  TopologyParams p;
  Topology t = parse_topology_conf(conf, "ft.conf");
  attach_hosts(t, parse_hostfile("a1\na2\nb1\nb2\n", "h"), p, "h", 4);
  EXPECT_DOUBLE_EQ(t.bandwidth(0, 1), 100e9 / 8);
  EXPECT_DOUBLE_EQ(t.bandwidth(0, 2), 50e9 / 8);
  // Two flows a1->b1, a2->b2 share up(l1) at 50 Gbit/s: coll 2.
  CommGraph g = graph(4, {{{0, 2, 1 << 20}, {1, 3, 1 << 20}}});
  EXPECT_DOUBLE_EQ(estimated_time(g, t, {0, 1, 2, 3}), 4e-6 + (1 << 20) * 2.0 / (50e9 / 8));
  EXPECT_EQ(t.route(0, 2).size(), 4u);
  EXPECT_EQ(t.max_route(), 4);
}
