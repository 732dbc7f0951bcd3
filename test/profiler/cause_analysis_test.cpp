// Unit tests of the cause analysis (cause_analysis.hpp) on synthetic
// collective calls: no MPI, no trace file.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "cause_analysis.hpp"
#include "summary.hpp"

using namespace arcoll::trace;

namespace {
constexpr double us = 1e-6, ms = 1e-3;

// n ranks that left the previous call at `prev`, computed `c`, and the
// collective releases everyone at max entry + 5 us.
std::vector<CallMember> call(int n, double prev, double c) {
  std::vector<CallMember> m(n);
  for (int r = 0; r < n; r++) m[r] = CallMember{r, prev, true, prev + c, 0};
  return m;
}
void release(std::vector<CallMember> &m) {
  double last = 0;
  for (auto &c : m) last = std::max(last, c.entry);
  for (auto &c : m) c.exit = last + 5 * us;
}
}  // namespace

TEST(CauseAnalysis, LowerMedian) {
  EXPECT_EQ(lower_median({}), 0.0);
  EXPECT_EQ(lower_median({3.0}), 3.0);
  EXPECT_EQ(lower_median({4.0, 1.0}), 1.0);
  EXPECT_EQ(lower_median({5.0, 1.0, 3.0, 2.0}), 2.0);
}

// One rank computes 1 ms longer: it causes all the waiting, (n-1) x 1 ms.
TEST(CauseAnalysis, OneLateRankCausesAllWaiting) {
  auto m = call(8, 1.0, 100 * us);
  m[5].entry += 1 * ms;
  release(m);
  auto r = analyse_call(m);
  for (int q = 0; q < 8; q++) {
    if (q == 5) continue;
    EXPECT_DOUBLE_EQ(r[q].own, 0.0) << q;
    EXPECT_EQ(r[q].caused, 0.0) << q;
    EXPECT_NEAR(r[q].waited, 1 * ms, 1e-12);
  }
  EXPECT_NEAR(r[5].own, 1 * ms, 1e-12);
  EXPECT_NEAR(r[5].skew, 1 * ms, 1e-12);
  EXPECT_NEAR(r[5].inherited, 0.0, 1e-12);
  EXPECT_NEAR(r[5].caused, 7 * ms, 1e-12);
}

// The bug of issue 17: ranks a broadcast tree released late in the previous
// call arrive late (inherited) but computed as long as everyone: own 0, no
// waiting blamed on them; the rank that computed longer is the cause.
TEST(CauseAnalysis, InheritedLatenessIsNotBlamed) {
  auto m = call(8, 1.0, 100 * us);
  for (int q : {6, 7}) {  // left the previous call 2 ms late
    m[q].prev_exit += 2 * ms;
    m[q].entry += 2 * ms;
  }
  m[3].entry += 1 * ms;  // computed 1 ms longer
  release(m);
  auto r = analyse_call(m);
  EXPECT_NEAR(r[6].skew, 2 * ms, 1e-12);
  EXPECT_NEAR(r[6].inherited, 2 * ms, 1e-12);
  EXPECT_EQ(r[6].own, 0.0);
  EXPECT_EQ(r[6].caused, 0.0);
  EXPECT_NEAR(r[3].own, 1 * ms, 1e-12);
  EXPECT_NEAR(r[3].inherited, 0.0, 1e-12);
  // During r3's own delay [1.0001, 1.0011) the 5 punctual ranks wait.
  EXPECT_NEAR(r[3].caused, 5 * ms, 1e-12);
}

// Two ranks delayed 1 ms and 0.5 ms: the first 0.5 ms of waiting is shared,
// then the 1 ms rank alone (6 waiting, then 7 once the 0.5 ms rank arrived).
TEST(CauseAnalysis, OverlappingOwnDelaysShareTheWaiting) {
  auto m = call(8, 1.0, 100 * us);
  m[1].entry += 1 * ms;
  m[2].entry += 0.5 * ms;
  release(m);
  auto r = analyse_call(m);
  EXPECT_NEAR(r[2].caused, 6 * 0.5 * ms / 2, 1e-12);
  EXPECT_NEAR(r[1].caused, 6 * 0.5 * ms / 2 + 7 * 0.5 * ms, 1e-12);
  double waited = 0, caused = 0;
  for (auto &x : r) waited += x.waited, caused += x.caused;
  EXPECT_NEAR(caused, waited, 1e-12);  // all waiting explained
}

// A rank that leaves before the late rank arrives (not below it in a
// broadcast tree) did not wait for it: only the ranks still inside count.
TEST(CauseAnalysis, RanksThatLeftEarlyDidNotWait) {
  auto m = call(4, 1.0, 100 * us);
  m[3].entry += 1 * ms;
  release(m);
  m[0].exit = m[0].entry + 10 * us;  // e.g. the root of a bcast
  auto r = analyse_call(m);
  EXPECT_NEAR(r[0].waited, 10 * us, 1e-12);
  EXPECT_NEAR(r[3].caused, 2 * ms + 10 * us, 1e-12);
}

// A head start (left the previous call early) makes inherited negative and
// the own delay still the gap excess; a rank without a known previous exit
// has no own delay.
TEST(CauseAnalysis, HeadStartAndUnknownPrevious) {
  auto m = call(4, 1.0, 100 * us);
  m[0].prev_exit -= 30 * us;  // left 30 us early ...
  m[0].entry += 200 * us;     // ... and computed 230 us longer
  m[1].has_prev = false;
  m[1].entry += 50 * us;
  release(m);
  auto r = analyse_call(m);
  EXPECT_NEAR(r[0].own, 230 * us, 1e-12);
  EXPECT_NEAR(r[0].inherited, -30 * us, 1e-12);
  EXPECT_EQ(r[1].own, 0.0);
  EXPECT_NEAR(r[1].inherited, 50 * us, 1e-12);
}

// Whole trace: 3 ranks, 5 bcasts at one site; rank 2 computes 1 ms longer
// before calls 1..4; the first call (rank 1 released late from MPI_Init) is
// reported apart and rank 1 is not blamed.
TEST(CauseAnalysis, TraceRankingAndFirstCall) {
  Trace t;
  t.nranks = 3;
  t.ranks.resize(3);
  for (int r = 0; r < 3; r++) {
    t.ranks[r].rank = r;
    t.ranks[r].clock.t_ready = 1.0;
    t.ranks[r].ready = r == 1 ? 1.0 + 3 * ms : 1.0;
    t.ranks[r].clock.cost_init = r == 1 ? 3 * ms : 1 * ms;
  }
  // Simulated run: entry = previous exit + 100 us (+ 1 ms on rank 2 after
  // the first call); everyone leaves 5 us after the last entry.
  std::vector<std::vector<CollEvent>> per(3);
  std::vector<double> prev = {t.ranks[0].ready, t.ranks[1].ready, t.ranks[2].ready};
  for (uint64_t k = 0; k < 5; k++) {
    double last = 0;
    for (int r = 0; r < 3; r++) {
      CollEvent e{};
      e.rank = r;
      e.seq = k;
      e.op = OP_BCAST;
      e.callsite = "app+0x40";
      e.t_entry = prev[r] + 100 * us + (r == 2 && k > 0 ? 1 * ms : 0);
      last = std::max(last, e.t_entry);
      per[r].push_back(e);
    }
    for (int r = 0; r < 3; r++) prev[r] = per[r].back().t_exit = last + 5 * us;
  }
  for (auto &v : per) t.colls.insert(t.colls.end(), v.begin(), v.end());  // sorted by (rank, t_entry)
  CauseReport rep = analyse_causes(t);
  ASSERT_EQ(rep.first_calls.size(), 1u);
  EXPECT_EQ(rep.first_calls[0].latest_rank, 1);
  EXPECT_NEAR(rep.first_calls[0].ready_spread, 3 * ms, 1e-12);
  EXPECT_EQ(rep.instances, 4u);
  ASSERT_FALSE(rep.ranking.empty());
  const SiteRankCause &top = rep.ranking[0];
  EXPECT_EQ(top.rank, 2);
  EXPECT_EQ(top.callsite, "app+0x40");
  EXPECT_EQ(top.calls, 4u);
  EXPECT_EQ(top.cause_calls, 4u);
  EXPECT_NEAR(top.own_median, 1 * ms, 1e-9);
  EXPECT_NEAR(top.caused, 4 * 2 * 1 * ms, 1e-9);  // 2 ranks wait 1 ms in 4 calls
  for (size_t i = 1; i < rep.ranking.size(); i++) {
    EXPECT_EQ(rep.ranking[i].caused, 0.0) << rep.ranking[i].rank;
    EXPECT_LT(rep.ranking[i].own_median, 1 * us) << rep.ranking[i].rank;
  }
  std::ostringstream os;
  print_summary(t, os, 3);
  std::string s = os.str();
  EXPECT_NE(s.find("1. rank 2 at bcast app+0x40: caused"), std::string::npos) << s;
  EXPECT_NE(s.find("the cause in 100% of calls"), std::string::npos) << s;
  EXPECT_NE(s.find("(last: rank 1)"), std::string::npos) << s;
  EXPECT_NE(s.find("at MPI_Init max 3.000 ms (rank 1)"), std::string::npos) << s;
  EXPECT_EQ(s.find("2. rank"), std::string::npos) << s;
  EXPECT_NE(s.find("largest own delays (median gap beyond the others', whether or not anyone waited):\n  rank 2 at "
                   "bcast app+0x40: own delay median 1000.000 us over 4 calls"),
            std::string::npos)
      << s;
}
