// Hostfile lines with sockets / NUMA domains / an hwloc XML (HOSTS.md), and their errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "expect_error.hpp"
#include "fixtures.hpp"
#include "hwloc_shape.hpp"

using namespace arcoll::placement;

namespace {

const std::string kDir = ARCOLL_TEST_PLACEMENT_DIR;  // test/placement (CMakeLists.txt)


}  // namespace

TEST(HostStructure, SocketsAndNumaKeys) {
  auto h = parse_hostfile("node01 slots=32 sockets=2\nnode02:8 NUMA=4\nnode03:2\n", "h");
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].slots, 32);
  EXPECT_EQ(h[0].sockets, 2);
  EXPECT_EQ(h[1].slots, 8);
  EXPECT_EQ(h[1].sockets, 4);
  EXPECT_EQ(h[2].sockets, 1);
  EXPECT_EQ(h[0].where, "h:1");
}

TEST(HostStructure, AttachSplitsHostsIntoSocketEntries) {
  Topology t = fixtures::make(fixtures::two_leaves, "node01 slots=8 sockets=2\nnode02:2\n", 10);
  ASSERT_EQ(t.hosts.size(), 3u);
  EXPECT_TRUE(t.has_sockets());
  EXPECT_EQ(t.hosts[0].name, "node01");
  EXPECT_EQ(t.hosts[1].name, "node01");
  EXPECT_EQ(t.hosts[0].socket, 0);
  EXPECT_EQ(t.hosts[1].socket, 1);
  EXPECT_EQ(t.hosts[0].slots, 4);
  EXPECT_EQ(t.hosts[1].slots, 4);
  EXPECT_EQ(t.hosts[0].vertex, t.hosts[1].vertex);
  EXPECT_EQ(t.hosts[2].slots, 2);
  EXPECT_EQ(t.total_slots(), 10);
}

TEST(HostStructure, OneSocketIsTheHostOfToday) {
  Topology plain = fixtures::make(fixtures::two_leaves, "node01:4\nnode02:4\n", 8);
  Topology one = fixtures::make(fixtures::two_leaves, "node01:4 sockets=1\nnode02 slots=4 numa=1\n", 8);
  EXPECT_FALSE(one.has_sockets());
  EXPECT_EQ(one.links.size(), plain.links.size());
  EXPECT_EQ(one.hosts.size(), plain.hosts.size());
  EXPECT_EQ(one.max_route(), plain.max_route());
}

TEST(HostStructure, HwlocXmlGivesSocketsCoresAndSlots) {
  HwlocShape s = read_hwloc_shape(kDir + "/two_sockets.xml");
  EXPECT_EQ(s.packages, 2);
  EXPECT_EQ(s.numa, 2);
  EXPECT_EQ(s.cores, 8);
  // hwloc= relative to the hostfile's directory; the slots default to the cores.
  auto h = parse_hostfile("node01 hwloc=two_sockets.xml\nnode02 slots=4 hwloc=two_sockets.xml\nnode03:2\n",
                          kDir + "/hosts.txt");
  EXPECT_EQ(h[0].sockets, 2);
  EXPECT_EQ(h[0].slots, 8);
  EXPECT_EQ(h[0].cores, 4);
  EXPECT_EQ(h[1].slots, 4);
  EXPECT_EQ(h[2].sockets, 1);
  // --hwloc for every line without its own structure.
  auto all = parse_hostfile("node01:4\nnode02:2 sockets=2\n", "h", kDir + "/two_sockets.xml");
  EXPECT_EQ(all[0].sockets, 2);
  EXPECT_EQ(all[0].cores, 4);
  EXPECT_EQ(all[1].cores, 0);
}

TEST(HostStructure, HwlocXmlGivesEachCoresOsCpus) {
  // Two packages with SMT and the OS numbering many dual-socket BIOSes give: socket 0 = even CPUs.
  // Made with: lstopo-no-graphics --input "package:2 core:2 pu:2(indexes=0,4,2,6,1,5,3,7)" --of xml
  HwlocShape s = read_hwloc_shape(kDir + "/interleaved_smt.xml");
  EXPECT_EQ(s.packages, 2);
  EXPECT_EQ(s.cores, 4);
  EXPECT_EQ(s.core_cpus, (std::vector<std::string>{"0+4", "2+6", "1+5", "3+7"}));
  EXPECT_EQ(read_hwloc_shape(kDir + "/two_sockets.xml").core_cpus,
            (std::vector<std::string>{"0", "1", "2", "3", "4", "5", "6", "7"}));
}

TEST(HostStructureErrors, NameTheLineAndTheFix) {
  expect_error([] { parse_hostfile("a:4\nb:4 cores=2\n", "h.txt"); },
               {"h.txt:2", "\"cores=2\"", "sockets=S", "HOSTS.md"});
  expect_error([] { parse_hostfile("a slots=6 sockets=4\n", "h.txt"); },
               {"h.txt:1", "6 slots on 4 sockets", "must divide", "slots=4 sockets=4"});
  expect_error([] { parse_hostfile("a:4 sockets=0\n", "h.txt"); }, {"h.txt:1", "0 sockets"});
  expect_error([] { parse_hostfile("a:4 sockets=x\n", "h.txt"); }, {"h.txt:1", "not an integer"});
  expect_error([] { parse_hostfile("a:4 sockets=2 numa=2\n", "h.txt"); }, {"h.txt:1", "sockets twice"});
  expect_error([] { parse_hostfile("a:4 slots=4\n", "h.txt"); }, {"h.txt:1", "slots twice"});
  expect_error([] { parse_hostfile("a:4 sockets=2 hwloc=x.xml\n", "h.txt"); }, {"h.txt:1", "both sockets= and hwloc="});
  expect_error([] { parse_hostfile("a:4 hwloc=missing.xml\n", "dir/h.txt"); },
               {"dir/h.txt:1", "dir/missing.xml", "cannot open", "lstopo --of xml"});
  expect_error([&] { parse_hostfile("a:16 hwloc=two_sockets.xml\n", kDir + "/h.txt"); },
               {"h.txt:1", "8 slots per socket", "4 cores per socket"});
}

TEST(HostStructureErrors, UnreadableXml) {
  const std::string bad = ::testing::TempDir() + "arcoll_bad_hwloc.xml";
  std::ofstream(bad) << "<?xml version=\"1.0\"?>\n<topology><object type=\"Machine\">\n";  // truncated
  expect_error([&] { parse_hostfile("a:2 hwloc=" + bad + "\n", "h.txt"); },
               {"h.txt:1", bad, "hwloc cannot read", "lstopo --of xml"});
  std::ofstream(bad) << "not xml at all\n";
  expect_error([&] { read_hwloc_shape(bad); }, {bad, "hwloc cannot read"});
  std::remove(bad.c_str());
}
