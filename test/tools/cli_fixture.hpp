// The fixture of the `arcoll` command line's end-to-end tests
// (test_arcoll_cli.cpp, test_arcoll_cli_inputs.cpp): a temporary directory
// with an 8-rank recursive-doubling trace, a two-switch topology.conf and
// four hosts of two slots; readers of the four launch-file formats back to a
// rank -> host list, checking their syntax on the way.
#ifndef ARCOLL_TEST_CLI_FIXTURE_HPP
#define ARCOLL_TEST_CLI_FIXTURE_HPP

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "synth_trace.hpp"

namespace clitest {

class Cli : public TempDirTest {
 protected:
  Cli() : TempDirTest("cli") {}
  void SetUp() override {
    // 8 ranks, recursive doubling, 1 MiB per message.
    testtrace::Writer w(8);
    for (int k = 0, mask = 1; mask < 8; mask <<= 1, ++k)
      for (int i = 0; i < 8; ++i) w.add({static_cast<uint64_t>(k), i, i ^ mask, 1u << 20});
    w.write(dir + "/rd8.arctrace");
    spit(dir + "/topology.conf",
         "SwitchName=l1 Nodes=n[01-02]\nSwitchName=l2 Nodes=n[03-04]\nSwitchName=top Switches=l[1-2]\n");
    spit(dir + "/hosts.txt", "n01:2\nn02:2\nn03:2\nn04:2\n");
  }

  std::string place_args(const std::string &trace, const std::string &out, const std::string &fmt,
                         const std::string &seed = "3") {
    return "place '" + dir + "/" + trace + "' --topology '" + dir + "/topology.conf' --hosts '" + dir +
           "/hosts.txt' -o '" + dir + "/" + out + "' --format " + fmt + (seed.empty() ? "" : " --seed " + seed) +
           " --time-limit 30";
  }
};

inline const std::set<std::string> kHosts{"n01", "n02", "n03", "n04"};

// rank -> host from each format; checks the syntax on the way.
inline std::vector<std::string> from_hydra(const std::string &text) {
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
inline std::vector<std::string> from_rankfile(const std::string &text) {
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
inline std::vector<std::string> from_slurm(const std::string &text) {
  std::vector<std::string> m;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) m.push_back(line);
  return m;
}
inline std::vector<std::string> from_cray(const std::string &text, int nranks) {
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

inline void expect_valid(const std::vector<std::string> &m, int nranks, int slots) {
  ASSERT_EQ(static_cast<int>(m.size()), nranks);
  std::map<std::string, int> count;
  for (auto &h : m) {
    EXPECT_TRUE(kHosts.count(h)) << h;
    ++count[h];
  }
  for (auto &kv : count) EXPECT_LE(kv.second, slots) << kv.first;
}

// The command's standard output as JSON (a test failure when it is not).
inline nlohmann::json json_of(const Result &r) {
  try {
    return nlohmann::json::parse(r.out);
  } catch (const std::exception &e) {
    ADD_FAILURE() << "not JSON: " << e.what() << "\n" << r.out << r.err;
    return {};
  }
}

}  // namespace clitest

#endif
