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

#include "synth_trace.hpp"

namespace {

std::string slurp(const std::string &p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void spit(const std::string &p, const std::string &text) { std::ofstream(p, std::ios::trunc) << text; }

struct Result {
  int rc;
  std::string out, err;
};

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
    std::string cmd = std::string("'") + ARCOLL_CLI + "' " + args + " >'" + dir + "/stdout' 2>'" + dir + "/stderr'";
    int st = std::system(cmd.c_str());
    return Result{WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(dir + "/stdout"), slurp(dir + "/stderr")};
  }
  std::string place_args(const std::string &trace, const std::string &out, const std::string &fmt) {
    return "place '" + dir + "/" + trace + "' --topology '" + dir + "/topology.conf' --hosts '" + dir +
           "/hosts.txt' -o '" + dir + "/" + out + "' --format " + fmt + " --seed 3 --time-limit 30";
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
