// Launch files on hosts split into sockets (HOSTS.md): the binding each format writes, parsed back.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <sstream>
#include <tuple>

#include "fixtures.hpp"
#include "launch_files.hpp"
#include "mapping_io.hpp"
#include "partition_metis.hpp"
#include "refine.hpp"
#include "socket_fixtures.hpp"

using namespace arcoll::placement;
using socket_fixtures::kHosts;
using socket_fixtures::kLeaf;
using socket_fixtures::interleaved_rings;

TEST(SocketLaunchFiles, RankfileBindsEachRankToItsSocket) {
  Topology t = fixtures::make(kLeaf, kHosts, 16, TopologyParams{});
  CommGraph g = interleaved_rings(1 << 20);
  RefineOptions opt;
  opt.max_evals = 20000;
  const Mapping m = refine(g, t, in_order_mapping(16, t), opt).map;
  std::ostringstream os;
  write_rankfile(os, m, t.hosts);
  // Parse back: every rank once, slot=S:C within the host's structure, S = the mapping's socket.
  std::istringstream in(os.str());
  std::string line;
  std::set<int> ranks;
  std::set<std::tuple<std::string, int, int>> cores;
  while (std::getline(in, line)) {
    int r = -1, s = -1, c = -1;
    char host[64];
    ASSERT_EQ(std::sscanf(line.c_str(), "rank %d=%63s slot=%d:%d", &r, host, &s, &c), 4) << line;
    ASSERT_TRUE(ranks.insert(r).second) << "rank twice: " << line;
    EXPECT_EQ(host, t.hosts[m[r]].name);
    EXPECT_EQ(s, t.hosts[m[r]].socket) << line;
    EXPECT_GE(c, 0);
    EXPECT_LT(c, t.hosts[m[r]].slots) << line;
    EXPECT_TRUE(cores.insert({host, s, c}).second) << "core twice: " << line;
  }
  EXPECT_EQ(ranks.size(), 16u);
  // And arcoll reads its own rankfile back to the same mapping (--evaluate, --initial).
  EXPECT_EQ(parse_mapping(os.str(), "r.txt", t, 16), m);
}

TEST(SocketLaunchFiles, HydraCrayAndSlurmNameHosts) {
  Topology t = fixtures::make(kLeaf, "node01 slots=4 sockets=2\nnode02 slots=4 sockets=2\n", 8);
  const Mapping m{1, 0, 0, 1, 3, 2, 2, 3};  // same socket pattern on both hosts
  std::ostringstream h, c, s;
  write_hydra(h, m, t.hosts);
  EXPECT_EQ(h.str(), "node01:4\nnode02:4\n");
  EXPECT_EQ(hydra_bind_option(m, t.hosts), "-bind-to user:2,0,1,3");
  EXPECT_EQ(hydra_bind_option(in_order_mapping(8, t), t.hosts), "-bind-to user:0,1,2,3");
  EXPECT_EQ(hydra_bind_option({1, 0, 0, 1, 2, 2, 3, 3}, t.hosts), "");  // hosts differ: use the rankfile
  write_launch_file(c, LaunchFormat::Cray, m, t.hosts);
  EXPECT_EQ(c.str(),
            "# MPICH_RANK_ORDER written by arcoll place: use with MPICH_RANK_REORDER_METHOD=3\n"
            "# nodes in this order, ranks per node: node01=4 node02=4\n"
            "1,2,0,3\n5,6,4,7\n");
  write_slurm(s, m, t.hosts);
  EXPECT_EQ(s.str(), "node01\nnode01\nnode01\nnode01\nnode02\nnode02\nnode02\nnode02\n");
  // Files that name hosts only read back with the sockets filled in rank order.
  EXPECT_EQ(parse_mapping(h.str(), "h", t, 8), in_order_mapping(8, t));
  EXPECT_EQ(parse_mapping("rank 0=node01 slot=1:0\nrank 1=node01 slot=0:0\nrank 2=node01 slot=0:1\n"
                          "rank 3=node01 slot=1:1\nrank 4=node02 slot=0\nrank 5=node02 slot=1\n"
                          "rank 6=node02 slot=2\nrank 7=node02 slot=3\n", "r", t, 8),
            (Mapping{1, 0, 0, 1, 2, 2, 3, 3}));
  EXPECT_THROW(parse_mapping("rank 0=node01 slot=2:0\n", "r", t, 1), MappingError);
}

TEST(SocketLaunchFiles, HydraBindsToTheXmlsOsCpus) {
  // Socket 0 = CPUs 0,2 (+ their SMT siblings 4,6), socket 1 = CPUs 1,3 (+5,7).
  Topology t = parse_topology_conf(kLeaf, "topology.conf");
  attach_hosts(t, parse_hostfile("node01 hwloc=interleaved_smt.xml\nnode02 hwloc=interleaved_smt.xml\n",
                                 std::string(ARCOLL_TEST_PLACEMENT_DIR) + "/hosts.txt"),
               TopologyParams{}, "hosts.txt", 8);
  ASSERT_EQ(t.hosts.size(), 4u);
  EXPECT_EQ(hydra_bind_option({1, 0, 0, 1, 3, 2, 2, 3}, t.hosts), "-bind-to user:1+5,0+4,2+6,3+7");
  std::ostringstream rf;
  write_rankfile(rf, {1, 0, 0, 1, 3, 2, 2, 3}, t.hosts);  // logical socket:core, whatever the OS numbering
  EXPECT_EQ(rf.str().substr(0, 45), "rank 0=node01 slot=1:0\nrank 1=node01 slot=0:0");
}
