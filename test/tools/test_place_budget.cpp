// `arcoll place`'s stopping rule end to end: by default the refinement ends on its evaluation budget
// (placement/refine.hpp kDefaultEvalsPerRank x ranks) or its work budget (kDefaultStepEvalsPerRank), so two runs write the same mapping; a search cut
// by --time-limit says so on stderr with the --max-evals that reproduces it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "refine.hpp"
#include "synth_trace.hpp"

namespace {

using clitest::Result;
using clitest::slurp;
using clitest::spit;
using clitest::TempDirTest;

constexpr int kRanks = 32;

class PlaceBudget : public TempDirTest {
 protected:
  PlaceBudget() : TempDirTest("budget") {}
  void SetUp() override {
    // Three steps of a ring over a scrambled rank numbering (i -> 7 i + 3 mod 32), 1 MiB messages.
    testtrace::Writer w(kRanks);
    for (uint64_t k = 0; k < 3; ++k)
      for (int i = 0; i < kRanks; ++i)
        w.add({k, (7 * i + 3) % kRanks, (7 * (i + 1 + static_cast<int>(k)) + 3) % kRanks, 1u << 20});
    w.write(dir + "/ring.arctrace");
    spit(dir + "/topology.conf",
         "SwitchName=l1 Nodes=n[01-04]\nSwitchName=l2 Nodes=n[05-08]\nSwitchName=l3 Nodes=n[09-12]\n"
         "SwitchName=l4 Nodes=n[13-16]\nSwitchName=top Switches=l[1-4]\n");
    std::string hosts;
    for (int h = 1; h <= 16; ++h) hosts += (h < 10 ? "n0" : "n") + std::to_string(h) + ":2\n";
    spit(dir + "/hosts.txt", hosts);
  }
  Result place(const std::string &out, const std::string &rest) {
    return run("place '" + dir + "/ring.arctrace' --topology '" + dir + "/topology.conf' --hosts '" + dir +
               "/hosts.txt' --strategy refined --json -o '" + dir + "/" + out + "' " + rest);
  }
  /** The refinement stage of a --json answer. */
  static nlohmann::json refined(const Result &r) {
    auto J = nlohmann::json::parse(r.out);
    for (auto &s : J["stages"])
      if (s.contains("evaluations")) return s;
    ADD_FAILURE() << "no stage with evaluations in " << r.out;
    return {};
  }
};

}  // namespace

TEST_F(PlaceBudget, DefaultStopsOnACountAndTwoRunsWriteTheSameMapping) {
  Result a = place("a.hosts", "");
  ASSERT_EQ(a.rc, 0) << a.err;
  Result b = place("b.hosts", "");
  ASSERT_EQ(b.rc, 0) << b.err;
  auto sa = refined(a), sb = refined(b);
  EXPECT_EQ(sa["name"], "refined");  // not "refined (time limit)"
  EXPECT_GT(sa["evaluations"].get<long>(), 0);
  EXPECT_LE(sa["evaluations"].get<long>(), arcoll::placement::kDefaultEvalsPerRank * kRanks);
  EXPECT_EQ(sa["evaluations"], sb["evaluations"]);
  EXPECT_EQ(sa["time_s"], sb["time_s"]);
  EXPECT_EQ(slurp(dir + "/a.hosts"), slurp(dir + "/b.hosts"));
  EXPECT_FALSE(slurp(dir + "/a.hosts").empty());
  EXPECT_EQ(a.err.find("warning"), std::string::npos) << a.err;
}

TEST_F(PlaceBudget, ASmallerBudgetStopsThereExactly) {
  Result r = place("c.hosts", "--max-evals 500");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(refined(r)["evaluations"], 500);
  EXPECT_EQ(refined(r)["name"], "refined");
}

TEST_F(PlaceBudget, TimeLimitCutIsNamedWithTheEvaluationsThatReproduceIt) {
  Result r = place("d.hosts", "--time-limit 0");
  ASSERT_EQ(r.rc, 0) << r.err;
  auto s = refined(r);
  EXPECT_EQ(s["name"], "refined (time limit)");
  const long n = s["evaluations"].get<long>();
  EXPECT_LT(n, arcoll::placement::kDefaultEvalsPerRank * kRanks);
  EXPECT_NE(r.err.find("stopped at --time-limit 0 s after " + std::to_string(n) + " candidate evaluations"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--max-evals " + std::to_string(n)), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("before its budget of " + std::to_string(arcoll::placement::kDefaultEvalsPerRank * kRanks)),
            std::string::npos)
      << r.err;
}

TEST_F(PlaceBudget, NegativeBudgetIsAUsageError) {
  Result r = place("e.hosts", "--max-evals -5");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("--max-evals must be >= 0"), std::string::npos) << r.err;
  Result s = place("e.hosts", "--max-step-evals -1");
  EXPECT_EQ(s.rc, 2);
  EXPECT_NE(s.err.find("--max-step-evals must be >= 0"), std::string::npos) << s.err;
}

// --max-step-evals (placement/refine.hpp kDefaultStepEvalsPerRank): the refinement's work in whole-step
// evaluations of the cost model. The ring's three steps stay far below the default; a small bound ends
// the search at the first candidate that reaches it, the same way twice, and the text report says so.
TEST_F(PlaceBudget, WorkBudgetEndsTheSearchOnACountAndSaysSo) {
  Result d = place("w0.hosts", "");
  ASSERT_EQ(d.rc, 0) << d.err;
  EXPECT_FALSE(refined(d)["step_budget"].get<bool>());
  EXPECT_LT(refined(d)["step_evaluations"].get<long>(), arcoll::placement::kDefaultStepEvalsPerRank * kRanks);
  Result a = place("w1.hosts", "--max-step-evals 60"), b = place("w2.hosts", "--max-step-evals 60");
  ASSERT_EQ(a.rc, 0) << a.err;
  ASSERT_EQ(b.rc, 0) << b.err;
  auto sa = refined(a);
  EXPECT_TRUE(sa["step_budget"].get<bool>());
  EXPECT_EQ(sa["name"], "refined");
  const long steps = sa["step_evaluations"].get<long>();
  EXPECT_GE(steps, 60);
  EXPECT_LE(steps, 60 + 3);  // one candidate re-evaluates at most the three steps
  EXPECT_LT(sa["evaluations"].get<long>(), refined(d)["evaluations"].get<long>());
  for (const char *k : {"evaluations", "step_evaluations", "time_s", "hop_bytes"}) EXPECT_EQ(sa[k], refined(b)[k]) << k;
  EXPECT_EQ(slurp(dir + "/w1.hosts"), slurp(dir + "/w2.hosts"));
  Result text = run("place '" + dir + "/ring.arctrace' --topology '" + dir + "/topology.conf' --hosts '" + dir +
                    "/hosts.txt' --strategy refined -o '" + dir + "/w3.hosts' --max-step-evals 60");
  ASSERT_EQ(text.rc, 0) << text.err;
  EXPECT_NE(text.out.find("stage \"refined\" ended on its work budget: " + std::to_string(steps) +
                          " whole-step evaluations of the cost model (--max-step-evals 60"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(slurp(dir + "/w1.hosts"), slurp(dir + "/w3.hosts"));
}

// --threads: the cost model's threads change the speed only (placement/cost.hpp set_threads).
TEST_F(PlaceBudget, ThreadCountsWriteTheSameMapping) {
  Result one = place("t1.hosts", "--threads 1"), three = place("t3.hosts", "--threads 3");
  ASSERT_EQ(one.rc, 0) << one.err;
  ASSERT_EQ(three.rc, 0) << three.err;
  EXPECT_EQ(refined(one)["evaluations"], refined(three)["evaluations"]);
  EXPECT_EQ(refined(one)["time_s"], refined(three)["time_s"]);
  EXPECT_EQ(slurp(dir + "/t1.hosts"), slurp(dir + "/t3.hosts"));
  Result bad = place("t.hosts", "--threads -2");
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("--threads"), std::string::npos) << bad.err;
}

// --strategy best's margin on the refined mapping (placement/place.hpp SecondOpinion under Ranking::Blend):
// the scrambled ring's refined mapping ranks first; a margin above its lead writes the stage ranked first
// among the others instead, a smaller one keeps it, 0 checks nothing; all of it in the --json report.
TEST_F(PlaceBudget, RefinedMarginDecidesBetweenTheRefinedMappingAndTheNextStage) {
  auto best = [&](const std::string &margin) {
    Result r = run("place '" + dir + "/ring.arctrace' --topology '" + dir + "/topology.conf' --hosts '" + dir +
                   "/hosts.txt' --json -o '" + dir + "/best.hosts' --refined-margin " + margin);
    EXPECT_EQ(r.rc, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  const auto off = best("0");
  const std::string refined = off.at("stages").back().at("name");
  ASSERT_EQ(off.at("chosen"), refined) << off.dump(1);
  EXPECT_FALSE(off.contains("second_opinion"));
  for (const char *m : {"0.001", "0.999"}) {
    const auto j = best(m);
    ASSERT_TRUE(j.contains("second_opinion")) << j.dump(1);
    const auto &o = j.at("second_opinion");
    EXPECT_DOUBLE_EQ(o.at("margin").get<double>(), std::stod(m));
    EXPECT_DOUBLE_EQ(o.at("refined_s").get<double>(), j.at("stages").back().at("blend_s").get<double>());
    EXPECT_NE(o.at("start"), refined);
    const bool below = o.at("refined_s").get<double>() < o.at("start_s").get<double>() * (1 - std::stod(m));
    EXPECT_EQ(o.at("overruled").get<bool>(), !below);
    EXPECT_EQ(j.at("chosen"), below ? refined : o.at("start").get<std::string>()) << j.dump(1);
    EXPECT_EQ(below, std::string(m) == "0.001") << "a lead between 0.1 % and 99.9 %";
  }
}
