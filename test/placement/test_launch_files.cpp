// Exact text of the launcher files; mapping files read back (mapping_io.hpp) and
// random initial mappings.
#include <gtest/gtest.h>

#include <sstream>

#include "fixtures.hpp"
#include "launch_files.hpp"
#include "mapping_io.hpp"
#include "partition_metis.hpp"

using namespace arcoll::placement;
using fixtures::make;

namespace {
std::vector<Host> hosts() { return {{"node01", 2, 0}, {"node02", 2, 1}, {"node03", 1, 2}}; }
std::string write(LaunchFormat f, const Mapping &m) {
  std::ostringstream os;
  write_launch_file(os, f, m, hosts());
  return os.str();
}
const Mapping kMap{0, 1, 1, 0, 2};  // node01 gets ranks 0 and 3: not contiguous
}  // namespace

TEST(LaunchFiles, HydraRunLengthEncodesConsecutiveRanksOnly) {
  EXPECT_EQ(write(LaunchFormat::Hydra, kMap), "node01:1\nnode02:2\nnode01:1\nnode03:1\n");
  EXPECT_EQ(write(LaunchFormat::Hydra, {0, 0, 1, 1}), "node01:2\nnode02:2\n");
}

TEST(LaunchFiles, OpenMpiRankfile) {
  EXPECT_EQ(write(LaunchFormat::Rankfile, kMap),
            "rank 0=node01 slot=0\nrank 1=node02 slot=0\nrank 2=node02 slot=1\n"
            "rank 3=node01 slot=1\nrank 4=node03 slot=0\n");
}

TEST(LaunchFiles, SlurmArbitrary) {
  EXPECT_EQ(write(LaunchFormat::Slurm, kMap), "node01\nnode02\nnode02\nnode01\nnode03\n");
}

TEST(LaunchFiles, CrayRankOrder) {
  EXPECT_EQ(write(LaunchFormat::Cray, kMap),
            "# MPICH_RANK_ORDER written by arcoll place: use with MPICH_RANK_REORDER_METHOD=3\n"
            "# nodes in this order, ranks per node: node01=2 node02=2 node03=1\n"
            "0,3\n1,2\n4\n");
}

TEST(LaunchFiles, FormatNames) {
  EXPECT_EQ(parse_launch_format("hydra"), LaunchFormat::Hydra);
  EXPECT_EQ(parse_launch_format("rankfile"), LaunchFormat::Rankfile);
  EXPECT_EQ(parse_launch_format("slurm"), LaunchFormat::Slurm);
  EXPECT_EQ(parse_launch_format("cray"), LaunchFormat::Cray);
  EXPECT_THROW(parse_launch_format("pbs"), std::invalid_argument);
}

TEST(MappingIo, AllFormatsAndErrors) {
  Topology t = make(fixtures::two_leaves, "node01:2\nnode02:2\nnode03:1\nnode04:1\n", 5);
  Mapping want{1, 0, 0, 3, 1};
  EXPECT_EQ(parse_mapping("node02\nnode01\nnode01\nnode04\nnode02\n", "m", t, 5), want);
  EXPECT_EQ(parse_mapping("# hydra\nnode02:1\nnode01:2\nnode04\nnode02:1\n", "m", t, 5), want);
  EXPECT_EQ(parse_mapping("rank 0=node02 slot=0\nrank 1=node01 slot=0\nrank 2=node01 slot=1\n"
                          "rank 3=node04 slot=0\nrank 4=node02 slot=1\n", "m", t, 5), want);
  EXPECT_EQ(parse_mapping("# cray, hostfile order\n1,2\n0,4\n3\n", "m", t, 5), (Mapping{1, 0, 0, 2, 1}));
  std::ostringstream cray;
  write_cray(cray, want, t.hosts);  // node03 gets no rank: the header names the hosts of the lines
  EXPECT_EQ(parse_mapping(cray.str(), "m", t, 5), want);
  auto err = [&](const std::string &text) {
    try {
      parse_mapping(text, "map.txt", t, 5);
    } catch (const MappingError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(err("node01:2\nnode02:2\nnodeX\n").find("map.txt:3: host \"nodeX\""), std::string::npos);
  EXPECT_NE(err("node01:3\nnode02:2\n").find("more ranks than its 2 slots"), std::string::npos);
  EXPECT_NE(err("node01:2\nnode02:2\n").find("rank 4 is not mapped"), std::string::npos);
  EXPECT_NE(err("rank 0=node01\nrank 0=node02\n").find("rank 0 is mapped twice"), std::string::npos);
  EXPECT_NE(err("rank 9=node01\n").find("rank 9 is out of range"), std::string::npos);
  EXPECT_NE(err("node01 node02\n").find("one host name per line"), std::string::npos);
  EXPECT_NE(err("node01:x\n").find("bad count"), std::string::npos);
}

TEST(MappingIo, RandomMappingRespectsSlotsAndIsDeterministic) {
  Topology t = make(fixtures::two_leaves, "node01:3\nnode02:1\nnode03:2\nnode04:2\n", 7);
  Mapping a = random_mapping(7, t, 11), b = random_mapping(7, t, 11), c = random_mapping(7, t, 12);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_TRUE(respects_slots(a, t));
  EXPECT_TRUE(respects_slots(c, t));
  EXPECT_THROW(random_mapping(9, t, 1), std::invalid_argument);
}
