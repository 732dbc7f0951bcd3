// `arcoll place` / `arcoll summary` end to end on synthesized trace files.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "synth_trace.hpp"

namespace {

using clitest::Result;
using clitest::sh;
using clitest::slurp;
using clitest::spit;

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/arcoll-cli-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir = tmpl;
    // 8 ranks, recursive doubling, 1 MiB per message.
    testtrace::Writer w(8);
    for (int k = 0, mask = 1; mask < 8; mask <<= 1, ++k)
      for (int i = 0; i < 8; ++i) w.add({static_cast<uint64_t>(k), i, i ^ mask, 1u << 20});
    w.write(dir + "/rd8.arctrace");
    spit(dir + "/topology.conf",
         "SwitchName=l1 Nodes=n[01-02]\nSwitchName=l2 Nodes=n[03-04]\nSwitchName=top Switches=l[1-2]\n");
    spit(dir + "/hosts.txt", "n01:2\nn02:2\nn03:2\nn04:2\n");
  }
  void TearDown() override { std::system(("rm -rf '" + dir + "'").c_str()); }

  Result run(const std::string &args) {
    return sh(std::string("'") + ARCOLL_CLI + "' " + args, dir);
  }
  std::string place_args(const std::string &trace, const std::string &out, const std::string &fmt,
                         const std::string &seed = "3") {
    return "place '" + dir + "/" + trace + "' --topology '" + dir + "/topology.conf' --hosts '" + dir +
           "/hosts.txt' -o '" + dir + "/" + out + "' --format " + fmt + (seed.empty() ? "" : " --seed " + seed) +
           " --time-limit 30";
  }
  std::string dir;
};

const std::set<std::string> kHosts{"n01", "n02", "n03", "n04"};

// rank -> host from each format; checks the syntax on the way.
std::vector<std::string> from_hydra(const std::string &text) {
  std::vector<std::string> m;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t c = line.find(':');
    EXPECT_NE(c, std::string::npos) << line;
    int n = std::stoi(line.substr(c + 1));
    EXPECT_GT(n, 0);
    for (int i = 0; i < n; ++i) m.push_back(line.substr(0, c));
  }
  return m;
}
std::vector<std::string> from_rankfile(const std::string &text) {
  std::vector<std::string> m;
  std::map<std::string, int> next_slot;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::string expect = "rank " + std::to_string(m.size()) + "=";
    EXPECT_EQ(line.rfind(expect, 0), 0u) << line;
    size_t sp = line.find(" slot=");
    std::string host = line.substr(expect.size(), sp - expect.size());
    EXPECT_EQ(std::stoi(line.substr(sp + 6)), next_slot[host]++) << line;
    m.push_back(host);
  }
  return m;
}
std::vector<std::string> from_slurm(const std::string &text) {
  std::vector<std::string> m;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) m.push_back(line);
  return m;
}
std::vector<std::string> from_cray(const std::string &text, int nranks) {
  std::vector<std::string> m(nranks);
  std::istringstream in(text);
  std::string line;
  std::vector<std::pair<std::string, int>> hosts;  // from the header
  std::vector<std::vector<int>> lines;
  while (std::getline(in, line)) {
    if (line.rfind("# nodes in this order", 0) == 0) {
      std::istringstream h(line.substr(line.find(':') + 1));
      std::string item;
      while (h >> item) hosts.emplace_back(item.substr(0, item.find('=')), std::stoi(item.substr(item.find('=') + 1)));
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::vector<int> ranks;
    std::istringstream l(line);
    std::string tok;
    while (std::getline(l, tok, ',')) ranks.push_back(std::stoi(tok));
    lines.push_back(ranks);
  }
  EXPECT_EQ(hosts.size(), lines.size());
  for (size_t i = 0; i < lines.size() && i < hosts.size(); ++i) {
    EXPECT_EQ(static_cast<int>(lines[i].size()), hosts[i].second);
    for (int r : lines[i]) {
      EXPECT_TRUE(r >= 0 && r < nranks);
      if (r >= 0 && r < nranks) {
        EXPECT_TRUE(m[r].empty()) << "rank " << r << " listed twice";
        m[r] = hosts[i].first;
      }
    }
  }
  return m;
}

void expect_valid(const std::vector<std::string> &m, int nranks, int slots) {
  ASSERT_EQ(static_cast<int>(m.size()), nranks);
  std::map<std::string, int> count;
  for (auto &h : m) {
    EXPECT_TRUE(kHosts.count(h)) << h;
    ++count[h];
  }
  for (auto &kv : count) EXPECT_LE(kv.second, slots) << kv.first;
}

}  // namespace

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

TEST_F(Cli, CcsRankOutOfRangeIsExit2) {
  testtrace::Writer w(4);
  w.add({0, 0, 1, 100});
  w.add({0, 1, 7, 100});  // rank 7 does not exist
  w.write(dir + "/bad.arctrace");
  Result r = run(place_args("bad.arctrace", "out", "hydra"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("bad.arctrace"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("7"), std::string::npos) << r.err;
}

TEST_F(Cli, CorruptTraceIsExit2) {
  spit(dir + "/garbage.arctrace", "this is not a trace at all, just some text long enough for a header");
  Result r = run(place_args("garbage.arctrace", "out", "hydra"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("garbage.arctrace"), std::string::npos) << r.err;

  testtrace::Writer w(8);
  w.add({0, 0, 1, 100});
  std::string b = w.bytes();
  spit(dir + "/cut.arctrace", b.substr(0, b.size() - 20));
  r = run(place_args("cut.arctrace", "out", "hydra"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("cut.arctrace"), std::string::npos) << r.err;

  r = run(place_args("missing.arctrace", "out", "hydra"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("missing.arctrace"), std::string::npos) << r.err;
}

TEST_F(Cli, BadInputsAreExit2AndNameTheFile) {
  spit(dir + "/hosts.txt", "n01:2\nn09:2\n");
  Result r = run(place_args("rd8.arctrace", "out", "hydra"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("hosts.txt"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("n09"), std::string::npos) << r.err;

  spit(dir + "/hosts.txt", "n01:2\nn02:2\n");  // 4 slots for 8 ranks
  r = run(place_args("rd8.arctrace", "out", "hydra"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("4 slots for 8 ranks"), std::string::npos) << r.err;

  spit(dir + "/hosts.txt", "n01:2\nn02:2\nn03:2\nn04:2\n");
  spit(dir + "/topology.conf", "SwitchName=l1 Nodes=n[01-04] Speed=3\n");
  r = run(place_args("rd8.arctrace", "out", "hydra"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("topology.conf:1"), std::string::npos) << r.err;

  spit(dir + "/topology.conf", "SwitchName=l1 Nodes=n[01-04]\n");
  r = run(place_args("rd8.arctrace", "out", "pbs"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("pbs"), std::string::npos) << r.err;

  r = run(place_args("rd8.arctrace", "out", "hydra") + " --latency-us core=3");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("core"), std::string::npos) << r.err;

  r = run(place_args("rd8.arctrace", "no-such-dir/out", "hydra"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("no-such-dir/out"), std::string::npos) << r.err;

  r = run("place");  // missing arguments
  EXPECT_EQ(r.rc, 2);
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

// ---------------------------------------------------------------- issue 4 options
namespace {
nlohmann::json json_of(const Result &r) {
  try {
    return nlohmann::json::parse(r.out);
  } catch (const std::exception &e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << r.out << r.err;
    return {};
  }
}
}  // namespace

TEST_F(Cli, EachStrategyWritesItsStageAndEvaluateScoresItAgain) {
  std::map<std::string, std::string> stage_of{{"identity", "in-order"}, {"hopbytes", "hopbytes"},
                                              {"metis", "metis"},       {"scotch", "scotch"},
                                              {"metis_time", "metis (message time)"},
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

TEST_F(Cli, InitialRandomAndFile) {
  auto initial_stage = [&](const std::string &extra, const std::string &out) {
    Result r = run(place_args("rd8.arctrace", out, "slurm", "") + " --json --strategy identity " + extra);
    EXPECT_EQ(r.rc, 0) << r.err;
    return json_of(r);
  };
  auto j7 = initial_stage("--initial random --seed 7", "r7.slurm");
  auto j7b = initial_stage("--initial random --seed 7", "r7b.slurm");
  auto j8 = initial_stage("--initial random --seed 8", "r8.slurm");
  EXPECT_EQ(j7["stages"][0]["name"], "initial (random, seed 7)");
  EXPECT_EQ(slurp(dir + "/r7.slurm"), slurp(dir + "/r7b.slurm"));  // deterministic
  EXPECT_NE(slurp(dir + "/r7.slurm"), slurp(dir + "/r8.slurm"));
  expect_valid(from_slurm(slurp(dir + "/r7.slurm")), 8, 2);
  // The random mapping as a file gives the same current cost.
  auto jf = initial_stage("--initial '" + dir + "/r7.slurm'", "f.slurm");
  EXPECT_DOUBLE_EQ(jf["stages"][0]["time_s"].get<double>(), j7["stages"][0]["time_s"].get<double>());
  // The search starts from the initial mapping and never gets worse than it.
  Result r = run(place_args("rd8.arctrace", "best.slurm", "slurm", "") + " --json --initial random --seed 7");
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = json_of(r);
  EXPECT_EQ(j["stages"][0]["name"], "initial (random, seed 7)");
  double t0 = j["stages"][0]["time_s"];
  for (auto &s : j["stages"])
    if (s["name"].get<std::string>().rfind("refined", 0) == 0) EXPECT_LE(s["time_s"].get<double>(), t0);
}

TEST_F(Cli, TraceWithSilentAndIncompleteRanks) {
  // 6 ranks: 5 never appears in the CCS; rank 4's section is cut (no RT_RANK_END); rank 3 has no section.
  testtrace::Writer w(6);
  w.add({0, 0, 1, 1000});
  w.add({0, 2, 3, 1000});
  w.add({1, 4, 0, 500});
  w.omit_end(4);
  w.omit_section(3);
  w.write(dir + "/holes.arctrace");
  Result r = run(place_args("holes.arctrace", "h.slurm", "slurm"));
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("1 of 6 ranks never appear"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("incomplete or missing"), std::string::npos) << r.out;
  auto m = from_slurm(slurp(dir + "/h.slurm"));
  ASSERT_EQ(m.size(), 6u);
  expect_valid(m, 6, 2);
  Result j = run(place_args("holes.arctrace", "h2.slurm", "slurm") + " --json");
  ASSERT_EQ(j.rc, 0) << j.err;
  auto js = json_of(j);
  EXPECT_EQ(js["trace"]["ranks_without_messages"], 1);
  EXPECT_EQ(js["trace"]["incomplete_rank_sections"], (std::vector<int>{3, 4}));
}

TEST_F(Cli, ContentionOptionSelectsTheCollisionModel) {
  // Equal message sizes (rd8): both models give the same in-order estimate.
  Result c = run(place_args("rd8.arctrace", "c.slurm", "slurm") + " --json --strategy identity");
  Result v = run(place_args("rd8.arctrace", "v.slurm", "slurm") + " --json --strategy identity --contention volume");
  ASSERT_EQ(c.rc, 0) << c.err;
  ASSERT_EQ(v.rc, 0) << v.err;
  auto jc = json_of(c), jv = json_of(v);
  EXPECT_EQ(jv["machine"]["contention"], "volume");
  EXPECT_DOUBLE_EQ(jc["stages"][0]["time_s"].get<double>(), jv["stages"][0]["time_s"].get<double>());
  // Unequal sizes, in-order (ranks 0,1 on n01, 2,3 on n02, both under l1): 0->2 (1 MiB) and 1->3 (1 KiB)
  // share up(n01) and down(n02) (defaults: 1 us, 100 Gbit/s = 12.5e9 B/s each).
  testtrace::Writer w(4);
  w.add({0, 0, 2, 1u << 20});
  w.add({0, 1, 3, 1u << 10});
  w.write(dir + "/uneq.arctrace");
  spit(dir + "/hosts.txt", "n01:2\nn02:2\n");
  c = run(place_args("uneq.arctrace", "c.slurm", "slurm") + " --json --strategy identity");
  v = run(place_args("uneq.arctrace", "v.slurm", "slurm") + " --json --strategy identity --contention volume");
  ASSERT_EQ(c.rc, 0) << c.err;
  ASSERT_EQ(v.rc, 0) << v.err;
  EXPECT_NEAR(json_of(c)["stages"][0]["time_s"].get<double>(), 2e-6 + 2.0 * (1 << 20) / 12.5e9, 1e-15);
  EXPECT_NEAR(json_of(v)["stages"][0]["time_s"].get<double>(), 2e-6 + ((1 << 20) + (1 << 10)) / 12.5e9, 1e-15);
  // Blend (cost.hpp): both busy links carry the same bytes, so the busy-time-weighted mean busy
  // time is that of each, and the blend equals the volume estimate.
  Result bl = run(place_args("uneq.arctrace", "bl.slurm", "slurm") + " --json --strategy identity --contention blend");
  ASSERT_EQ(bl.rc, 0) << bl.err;
  EXPECT_EQ(json_of(bl)["machine"]["contention"], "blend");
  EXPECT_NEAR(json_of(bl)["stages"][0]["time_s"].get<double>(), 2e-6 + ((1 << 20) + (1 << 10)) / 12.5e9, 1e-15);
  Result bad = run(place_args("rd8.arctrace", "b.slurm", "slurm") + " --contention fair");
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("--contention fair"), std::string::npos) << bad.err;
}
