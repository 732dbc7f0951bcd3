// `arcoll place --sets`: by default (auto) the cost's concurrent sets are the dependency levels when the
// trace records receives (placement/levels.hpp), else the trace's communication steps; an explicit
// `--sets levels` on a trace without receives says that it falls back to the steps. With levels,
// `--evaluate` also prints the mapping's critical paths (placement/critical_path.hpp; the fluid one with
// --fluid-path).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "synth_trace.hpp"

namespace {

using clitest::Result;
using clitest::spit;
using clitest::TempDirTest;

class PlaceSets : public TempDirTest {
 protected:
  PlaceSets() : TempDirTest("sets") {}
  void SetUp() override {
    testtrace::Writer w(4);  // no receives: a two-step exchange
    for (uint64_t k = 0; k < 2; ++k)
      for (int i = 0; i < 4; ++i) w.add({k, i, (i + 1 + int(k)) % 4, 4096});
    w.write(dir + "/synth.arctrace");
    // A real program's trace with receives: xdlu (ScaLAPACK LU, 2 x 2 grid) recorded on MPICH.
    ASSERT_EQ(std::system(("zstd -dqf '" ARCOLL_XDLU_TRACE "' -o '" + dir + "/xdlu.arctrace'").c_str()), 0)
        << "zstd (Debian zstd) could not unpack " ARCOLL_XDLU_TRACE;
    spit(dir + "/topology.conf", "SwitchName=l1 Nodes=n[01-02]\n");
    spit(dir + "/hosts.txt", "n01:2\nn02:2\n");
  }
  Result place(const std::string &trace, const std::string &rest) {
    return run("place '" + dir + "/" + trace + "' --topology '" + dir + "/topology.conf' --hosts '" + dir +
               "/hosts.txt' --max-evals 500 -o '" + dir + "/out.hosts' " + rest);
  }
  static std::string sets(const Result &r) { return nlohmann::json::parse(r.out).at("sets").get<std::string>(); }
};

TEST_F(PlaceSets, DefaultIsLevelsWhenTheTraceRecordsReceives) {
  Result r = place("xdlu.arctrace", "--json");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(sets(r), "levels");
  r = place("xdlu.arctrace", "--json --sets steps");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(sets(r), "steps");
  r = place("xdlu.arctrace", "");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("dependency levels"), std::string::npos) << r.out;
}

TEST_F(PlaceSets, TraceWithoutReceivesKeepsItsSteps) {
  Result r = place("synth.arctrace", "--json");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(sets(r), "steps");
  r = place("synth.arctrace", "");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out.find("note: --sets levels"), std::string::npos) << r.out;  // auto: silent
  r = place("synth.arctrace", "--sets levels");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("note: --sets levels: the trace records no receives"), std::string::npos) << r.out;
}

TEST_F(PlaceSets, EvaluatePrintsTheCriticalPathsOnlyWithLevels) {
  // placement/critical_path.hpp: by sets, contention-free, with time overlap.
  Result r = place("xdlu.arctrace", "--json");
  ASSERT_EQ(r.rc, 0) << r.err;
  r = place("xdlu.arctrace", "--json --evaluate '" + dir + "/out.hosts'");
  ASSERT_EQ(r.rc, 0) << r.err;
  auto e = nlohmann::json::parse(r.out).at("evaluate");
  ASSERT_TRUE(e.contains("critical_path_s")) << r.out;
  const double sets = e.at("critical_path_s"), free = e.at("critical_path_free_s"),
               overlap = e.at("critical_path_overlap_s");
  EXPECT_GT(free, 0);
  EXPECT_LE(free, sets);     // collisions only lengthen a message
  EXPECT_LE(free, overlap);
  EXPECT_FALSE(e.contains("critical_path_fluid_s")) << r.out;  // only asked for (--fluid-path)
  r = place("xdlu.arctrace", "--json --fluid-path --evaluate '" + dir + "/out.hosts'");
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto withfluid = nlohmann::json::parse(r.out).at("evaluate");
  EXPECT_EQ(double(withfluid.at("critical_path_s")), sets);
  EXPECT_GE(double(withfluid.at("critical_path_fluid_s")), free * (1 - 1e-9));  // sharing only slows
  // Without the collectives' times and with every send flowing at once (no matched sends: their transfers
  // also wait for the receivers, which the levels do not charge) a path crosses each level at most once.
  r = place("xdlu.arctrace",
            "--json --no-path-collectives --async-bytes 18446744073709551615 --evaluate '" + dir + "/out.hosts'");
  ASSERT_EQ(r.rc, 0) << r.err;
  const auto bare = nlohmann::json::parse(r.out).at("evaluate");
  EXPECT_LE(double(bare.at("critical_path_s")), double(bare.at("time_s")) * (1 + 1e-12));
  EXPECT_GT(sets, double(bare.at("critical_path_s")));  // xdlu's BLACS calls between its messages
  EXPECT_GE(free, double(bare.at("critical_path_free_s")));
  r = place("xdlu.arctrace", "--evaluate '" + dir + "/out.hosts'");
  EXPECT_NE(r.out.find("critical path (placement/critical_path.hpp)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(", fluid "), std::string::npos) << r.out;
  r = place("xdlu.arctrace", "--fluid-path --evaluate '" + dir + "/out.hosts'");
  EXPECT_NE(r.out.find(", fluid "), std::string::npos) << r.out;
  // The path opinion's score (placement/place.hpp PathOpinion): overlap^w x fluid^(1 - w), w from the option.
  for (double w : {0.3, 1.0, 0.0}) {
    r = place("xdlu.arctrace",
              "--json --fluid-path --path-overlap-weight " + std::to_string(w) + " --evaluate '" + dir + "/out.hosts'");
    ASSERT_EQ(r.rc, 0) << r.err;
    const auto ev = nlohmann::json::parse(r.out).at("evaluate");
    const double o = ev.at("critical_path_overlap_s"), f = ev.at("critical_path_fluid_s");
    ASSERT_GT(f, 0.0);
    EXPECT_NEAR(double(ev.at("path_score_s")), std::pow(o, w) * std::pow(f, 1 - w), 1e-12 * o) << "w " << w;
  }
  r = place("xdlu.arctrace", "--path-overlap-weight 1.5");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("--path-overlap-weight"), std::string::npos) << r.err;
  for (const char *t : {"xdlu.arctrace", "synth.arctrace"}) {
    r = place(t, std::string("--json --sets steps --evaluate '") + dir + "/out.hosts'");
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out).at("evaluate").contains("critical_path_s")) << t;
  }
  r = place("xdlu.arctrace", "--json --no-path-opinion");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out).contains("path_opinion"));
}

TEST_F(PlaceSets, UnknownSetsIsAUsageError) {
  Result r = place("synth.arctrace", "--sets phases");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("--sets phases: use auto"), std::string::npos) << r.err;
}

}  // namespace

// `--rank`: under the count model the stages are ranked by the blend model's time by default
// (placement/place.hpp, Ranking); `--rank count` ranks by the count model's; anything else is a usage error.
using PlaceRank = PlaceSets;

TEST_F(PlaceRank, DefaultRanksByTheBlendTimeAndCountIsTheOldRanking) {
  Result r = place("xdlu.arctrace", "--json");
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("ranking"), "blend");
  double lo = 1e300, chosen = -1, start = -1;
  for (auto &s : j.at("stages")) {
    const double b = s.at("blend_s").get<double>();
    EXPECT_GT(b, 0.0) << s.at("name");
    lo = std::min(lo, b);
    if (s.at("name") == j.at("chosen")) chosen = b;
    if (start < 0) start = b;
  }
  ASSERT_GE(chosen, 0.0) << "the chosen stage is among the stages";
  if (!j.at("start_kept").get<bool>() && !j.contains("path_opinion") && !j.contains("second_opinion"))
    EXPECT_LE(chosen, lo * (1 + j.at("tie_tolerance").get<double>())) << r.out;
  if (j.at("start_kept").get<bool>()) EXPECT_LE(start, lo * (1 + j.at("tie_tolerance").get<double>())) << r.out;
  r = place("xdlu.arctrace", "");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("blend time (s)"), std::string::npos) << r.out;
  r = place("xdlu.arctrace", "--json --rank count");
  ASSERT_EQ(r.rc, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("ranking"), "count");
  for (auto &s : j.at("stages")) EXPECT_FALSE(s.contains("blend_s")) << s.at("name");
  r = place("xdlu.arctrace", "--rank volume");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("--rank"), std::string::npos) << r.err;
}

// (The margin's decision and report: test_place_budget.cpp, whose ring ranks the refined mapping first.)
TEST_F(PlaceRank, RefinedMarginOutsideZeroToOneIsAUsageError) {
  for (const char *bad : {"1.5", "-0.1", "1"}) {
    Result r = place("xdlu.arctrace", std::string("--refined-margin ") + bad);
    EXPECT_EQ(r.rc, 2) << bad;
    EXPECT_NE(r.err.find("--refined-margin"), std::string::npos) << r.err;
  }
  Result r = place("xdlu.arctrace", "--json --refined-margin 0");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out).contains("second_opinion")) << "margin 0: off";
}
