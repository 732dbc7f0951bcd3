// End-to-end tests of `arcoll place` on bad or unusual input: a CCS rank out of
// range, a corrupt trace, missing or malformed files (exit 2 naming the file),
// an initial mapping given as random or as a file, ranks that never
// communicate, the --contention option. The fixture: cli_fixture.hpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

using namespace clitest;  // Cli, the format readers, Result, slurp, spit (cli_fixture.hpp)

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
