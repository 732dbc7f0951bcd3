// Exact text of the launcher files.
#include <gtest/gtest.h>

#include <sstream>

#include "launch_files.hpp"

using namespace arcoll::placement;

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
