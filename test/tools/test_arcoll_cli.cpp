// `arcoll place` / `arcoll summary` end to end on synthesized trace files: the
// four launch-file formats, the bundled examples, the level options, the
// strategies and --evaluate. Bad or unusual input: test_arcoll_cli_inputs.cpp.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

using namespace clitest;  // Cli, the format readers, Result, slurp, spit (cli_fixture.hpp)

TEST_F(Cli, PlaceWritesAllFourFormatsOfTheSameMapping) {
  std::map<std::string, std::vector<std::string>> maps;
  for (std::string f : {"hydra", "rankfile", "slurm", "cray"}) {
    Result r = run(place_args("rd8.arctrace", "out." + f, f));
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.err, "");
    for (const char *word : {"in-order", "metis", "scotch", "refined", "<- chosen", "est. time (s)", "8 ranks"})
      EXPECT_NE(r.out.find(word), std::string::npos) << word << "\n" << r.out;
    std::string text = slurp(dir + "/out." + f);
    if (f == "hydra") maps[f] = from_hydra(text);
    if (f == "rankfile") maps[f] = from_rankfile(text);
    if (f == "slurm") maps[f] = from_slurm(text);
    if (f == "cray") maps[f] = from_cray(text, 8);
    expect_valid(maps[f], 8, 2);
  }
  EXPECT_EQ(maps["hydra"], maps["rankfile"]);
  EXPECT_EQ(maps["hydra"], maps["slurm"]);
  EXPECT_EQ(maps["hydra"], maps["cray"]);
}

TEST_F(Cli, BundledExampleFiles) {
  testtrace::Writer w(4);
  w.add({0, 0, 2, 4096});
  w.add({0, 1, 3, 4096});
  w.add({1, 0, 1, 64});
  w.write(dir + "/demo.arctrace");
  Result r = run("place '" + dir + "/demo.arctrace' --topology '" + ARCOLL_EXAMPLES + "/topology.conf' --hosts '" +
              ARCOLL_EXAMPLES + "/hosts.txt' -o '" + dir + "/machinefile'");
  ASSERT_EQ(r.rc, 0) << r.err;
  auto m = from_hydra(slurp(dir + "/machinefile"));
  ASSERT_EQ(m.size(), 4u);
  // 0->2 and 1->3 are the big messages: the chosen mapping keeps each pair under one leaf switch.
  auto leaf = [](const std::string &h) { return h == "node01" || h == "node02" ? 1 : 2; };
  EXPECT_EQ(leaf(m[0]), leaf(m[2]));
  EXPECT_EQ(leaf(m[1]), leaf(m[3]));
  EXPECT_EQ(std::set<std::string>(m.begin(), m.end()).size(), 4u);
}

TEST_F(Cli, LevelOptionsChangeTheEstimate) {
  Result a = run(place_args("rd8.arctrace", "out", "hydra"));
  Result b = run(place_args("rd8.arctrace", "out", "hydra") + " --bandwidth-gbps switch=1 --latency-us node=50");
  ASSERT_EQ(a.rc, 0) << a.err;
  ASSERT_EQ(b.rc, 0) << b.err;
  auto in_order = [](const std::string &out) {
    size_t p = out.find("\nin-order");
    std::istringstream l(out.substr(p + 1));
    std::string name;
    double t = 0;
    l >> name >> t;
    return t;
  };
  EXPECT_GT(in_order(b.out), in_order(a.out));
}

TEST_F(Cli, VersionAndSummary) {
  Result v = run("--version");
  EXPECT_EQ(v.rc, 0);
  EXPECT_NE(v.out.find("arcoll 0."), std::string::npos) << v.out;
  Result s = run("summary '" + dir + "/rd8.arctrace'");
  EXPECT_EQ(s.rc, 0) << s.err;
  EXPECT_FALSE(s.out.empty());
  Result bad = run("summary '" + dir + "/nope.arctrace'");
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("nope.arctrace"), std::string::npos) << bad.err;
}

TEST_F(Cli, EachStrategyWritesItsStageAndEvaluateScoresItAgain) {
  std::map<std::string, std::string> stage_of{{"identity", "in-order"}, {"hopbytes", "hopbytes"},
                                              {"metis", "metis"},       {"scotch", "scotch"},
                                              {"metis_time", "metis (message time)"},
                                              {"scotch_time", "scotch (message time, "},
                                              {"refined", "refined"},   {"best", ""}};
  for (auto &[strategy, stage] : stage_of) {
    Result r = run(place_args("rd8.arctrace", strategy + ".slurm", "slurm") + " --json --strategy " + strategy);
    ASSERT_EQ(r.rc, 0) << strategy << ": " << r.err;
    auto j = json_of(r);
    std::string chosen = j["chosen"];
    if (!stage.empty()) EXPECT_EQ(chosen.rfind(stage, 0), 0u) << strategy << " chose " << chosen;
    double t_chosen = -1;
    for (auto &s : j["stages"])
      if (s["name"] == chosen) t_chosen = s["time_s"];
    ASSERT_GT(t_chosen, 0) << r.out;
    if (strategy == "best")
      for (auto &s : j["stages"]) EXPECT_LE(t_chosen, s["time_s"].get<double>());
    if (strategy == "identity") {
      EXPECT_EQ(j["stages"].size(), 1u);
      EXPECT_EQ(from_slurm(slurp(dir + "/identity.slurm")),
                (std::vector<std::string>{"n01", "n01", "n02", "n02", "n03", "n03", "n04", "n04"}));
    }
    // --evaluate of the written file gives back the same cost.
    Result e = run("place '" + dir + "/rd8.arctrace' --topology '" + dir + "/topology.conf' --hosts '" + dir +
                   "/hosts.txt' --json --evaluate '" + dir + "/" + strategy + ".slurm'");
    ASSERT_EQ(e.rc, 0) << e.err;
    auto je = json_of(e);
    EXPECT_DOUBLE_EQ(je["evaluate"]["time_s"].get<double>(), t_chosen) << strategy;
    EXPECT_GE(je["evaluate"]["max_congestion"].get<int>(), 1);
    EXPECT_EQ(je["advice"]["pairs"].get<int>(), 2);  // 3 steps -> 2 consecutive pairs
  }
}

TEST_F(Cli, EvaluateReadsEveryWrittenFormatAndTextMode) {
  // in-order hand-computed with the default parameters: 1 us + 1 us links, 100 Gbit/s, intra 0.3 us, 20e9 B/s.
  // Step mask 1: pairs on one host: intra link carries 2 messages: 0.3e-6 + 2^20 * 2 / 20e9.
  // Step mask 2: 0->2, 1->3, 2->0, 3->1 ...: up(n01) carries 2 (0->2, 1->3): 2e-6 + 2^20 * 2 / 12.5e9.
  // Step mask 4: crosses the top: up(n01), up(l1), down(l2), down(n03); up(l1) carries the 4 messages
  // 0->4, 1->5, 2->6, 3->7: coll 4: 4e-6 + 2^20 * 4 / 12.5e9.
  const double M = 1 << 20;
  const double expect = (0.3e-6 + M * 2 / 20e9) + (2e-6 + M * 2 / 12.5e9) + (4e-6 + M * 4 / 12.5e9);
  spit(dir + "/m.hydra", "n01:2\nn02:2\nn03:2\nn04:2\n");
  spit(dir + "/m.slurm", "n01\nn01\nn02\nn02\nn03\nn03\nn04\nn04\n");
  spit(dir + "/m.rankfile", "rank 0=n01 slot=0\nrank 1=n01 slot=1\nrank 2=n02 slot=0\nrank 3=n02 slot=1\n"
                            "rank 4=n03 slot=0\nrank 5=n03 slot=1\nrank 6=n04 slot=0\nrank 7=n04 slot=1\n");
  spit(dir + "/m.cray", "# hosts n01 n02 n03 n04\n0,1\n2,3\n4,5\n6,7\n");
  for (std::string f : {"hydra", "slurm", "rankfile", "cray"}) {
    Result e = run("place '" + dir + "/rd8.arctrace' --topology '" + dir + "/topology.conf' --hosts '" + dir +
                   "/hosts.txt' --json --evaluate '" + dir + "/m." + f + "'");
    ASSERT_EQ(e.rc, 0) << f << ": " << e.err;
    EXPECT_NEAR(json_of(e)["evaluate"]["time_s"].get<double>(), expect, 1e-15) << f;
  }
  Result t = run("place '" + dir + "/rd8.arctrace' --topology '" + dir + "/topology.conf' --hosts '" + dir +
                 "/hosts.txt' --evaluate '" + dir + "/m.hydra' --advice");
  ASSERT_EQ(t.rc, 0) << t.err;
  EXPECT_NE(t.out.find("est. time"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("barrier advice"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("overlap (s)"), std::string::npos) << t.out;
}

TEST_F(Cli, EvaluateRejectsBadMappingsNamingTheFile) {
  struct Case {
    const char *text, *needle;
  };
  for (auto c : {Case{"n01:2\nn02:2\nn03:2\nzz:2\n", "zz"}, Case{"n01:2\nn02:2\n", "rank 4 is not mapped"},
                 Case{"n01:3\nn02:1\nn03:2\nn04:2\n", "more ranks than its 2 slots"},
                 Case{"n01:2\nn02:2\nn03:2\nn04:3\n", "more than the trace's 8 ranks"}, Case{"", "empty"}}) {
    spit(dir + "/bad.map", c.text);
    Result e = run("place '" + dir + "/rd8.arctrace' --topology '" + dir + "/topology.conf' --hosts '" + dir +
                   "/hosts.txt' --evaluate '" + dir + "/bad.map'");
    EXPECT_EQ(e.rc, 2) << c.text;
    EXPECT_NE(e.err.find("bad.map"), std::string::npos) << e.err;
    EXPECT_NE(e.err.find(c.needle), std::string::npos) << e.err;
  }
  Result u = run("place '" + dir + "/rd8.arctrace' --topology '" + dir + "/topology.conf' --hosts '" + dir +
                 "/hosts.txt' -o '" + dir + "/x' --strategy fastest");
  EXPECT_EQ(u.rc, 2);
  EXPECT_NE(u.err.find("--strategy"), std::string::npos) << u.err;
  Result noout = run("place '" + dir + "/rd8.arctrace' --topology '" + dir + "/topology.conf' --hosts '" + dir +
                     "/hosts.txt'");
  EXPECT_EQ(noout.rc, 2);
  EXPECT_NE(noout.err.find("-o OUT"), std::string::npos) << noout.err;
}
