// `arcoll place` end to end on hosts with sockets (placement/HOSTS.md): the hostfile keys,
// --hwloc, the stage table's inter-socket bytes, the rankfile's binding read back by --evaluate.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "synth_trace.hpp"

namespace {

using clitest::Result;
using clitest::slurp;
using clitest::spit;
using clitest::TempDirTest;

class PlaceSockets : public TempDirTest {
 protected:
  PlaceSockets() : TempDirTest("sockets") {}
  void SetUp() override {
    // Two rings of 8 ranks (one per host) visiting 0,4,1,5,2,6,3,7: in rank order every ring
    // neighbour is on the other socket. 1 MiB messages, one step.
    const int seq[8] = {0, 4, 1, 5, 2, 6, 3, 7};
    testtrace::Writer w(16);
    for (int base : {0, 8})
      for (int i = 0; i < 8; ++i) w.add({0, base + seq[i], base + seq[(i + 1) % 8], 1u << 20});
    w.write(dir + "/rings.arctrace");
    spit(dir + "/topology.conf", "SwitchName=l1 Nodes=n[01-02]\n");
    spit(dir + "/hosts.txt", "n01 slots=8 sockets=2\nn02:8 numa=2\n");
  }
  std::string place(const std::string &hosts, const std::string &rest) {
    return "place '" + dir + "/rings.arctrace' --topology '" + dir + "/topology.conf' --hosts '" + dir + "/" + hosts +
           "' --max-evals 20000 " + rest;
  }
};

}  // namespace

TEST_F(PlaceSockets, RankfileBindsAndEvaluatesBack) {
  Result r = run(place("hosts.txt", "-o '" + dir + "/out.rf' --format rankfile --json"));
  ASSERT_EQ(r.rc, 0) << r.err;
  auto J = nlohmann::json::parse(r.out);
  EXPECT_EQ(J["machine"]["hosts"], 2);
  EXPECT_EQ(J["machine"]["sockets"], 4);
  const auto &first = J["stages"][0];  // in-order
  double chosen_t = 0, chosen_x = 0;
  for (auto &s : J["stages"])
    if (s["name"] == J["chosen"]) chosen_t = s["time_s"], chosen_x = s["inter_socket_bytes"];
  EXPECT_LT(chosen_t, 0.5 * first["time_s"].get<double>());
  EXPECT_LT(chosen_x, first["inter_socket_bytes"].get<double>());
  // Every rank once, slot=S:C within 2 sockets x 4 cores, no core twice.
  std::istringstream in(slurp(dir + "/out.rf"));
  std::string line;
  std::set<int> ranks;
  std::set<std::string> cores;
  while (std::getline(in, line)) {
    int rank = -1, s = -1, c = -1;
    char host[16];
    ASSERT_EQ(std::sscanf(line.c_str(), "rank %d=%15s slot=%d:%d", &rank, host, &s, &c), 4) << line;
    EXPECT_TRUE(ranks.insert(rank).second) << line;
    EXPECT_TRUE(s == 0 || s == 1) << line;
    EXPECT_TRUE(c >= 0 && c < 4) << line;
    EXPECT_TRUE(cores.insert(std::string(host) + ":" + std::to_string(s) + ":" + std::to_string(c)).second) << line;
  }
  EXPECT_EQ(ranks.size(), 16u);
  // --evaluate reads the sockets back from slot=S:C: the chosen stage's cost.
  Result e = run(place("hosts.txt", "--evaluate '" + dir + "/out.rf' --json"));
  ASSERT_EQ(e.rc, 0) << e.err;
  auto E = nlohmann::json::parse(e.out);
  EXPECT_DOUBLE_EQ(E["evaluate"]["time_s"].get<double>(), chosen_t);
  EXPECT_DOUBLE_EQ(E["evaluate"]["inter_socket_bytes"].get<double>(), chosen_x);
}

TEST_F(PlaceSockets, TextTableAndHydraBinding) {
  Result r = run(place("hosts.txt", "-o '" + dir + "/out.hydra'"));
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("machine: 2 hosts (4 sockets), 16 slots"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("inter-socket B"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("run: mpiexec.hydra -f"), std::string::npos) << r.out;
  // Both hosts' rings are alike: one -bind-to user: list fits, or the note says to use the rankfile.
  EXPECT_TRUE(r.out.find("-bind-to user:") != std::string::npos ||
              r.out.find("use --format rankfile") != std::string::npos) << r.out;
  EXPECT_EQ(slurp(dir + "/out.hydra"), "n01:8\nn02:8\n");
}

TEST_F(PlaceSockets, HwlocForAllHostsAndBadLines) {
  spit(dir + "/plain.txt", "n01\nn02\n");
  Result r = run(place("plain.txt", "-o '" + dir + "/o' --json --hwloc '" ARCOLL_TWO_SOCKETS_XML "'"));
  ASSERT_EQ(r.rc, 0) << r.err;
  auto J = nlohmann::json::parse(r.out);
  EXPECT_EQ(J["machine"]["sockets"], 4);
  EXPECT_EQ(J["machine"]["slots"], 16);  // the XML's 8 cores per host
  spit(dir + "/bad.txt", "n01:8 sockets=3\nn02:8\n");
  Result b = run(place("bad.txt", "-o '" + dir + "/o'"));
  EXPECT_NE(b.rc, 0);
  EXPECT_NE(b.err.find("bad.txt:1"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("must divide"), std::string::npos) << b.err;
  spit(dir + "/bad2.txt", "n01:8\nn02:8 hwloc=nowhere.xml\n");
  Result c = run(place("bad2.txt", "-o '" + dir + "/o'"));
  EXPECT_NE(c.rc, 0);
  EXPECT_NE(c.err.find("bad2.txt:2"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("nowhere.xml"), std::string::npos) << c.err;
}
