// Unit tests of the propagation of inherited lateness (cause_analysis.hpp:
// analyse_call's inherited_caused, analyse_causes' caused_long_term and
// propagated_wait) on synthetic traces: no MPI, no trace file.
#include <gtest/gtest.h>

#include <sstream>

#include "cause_analysis.hpp"
#include "summary.hpp"

using namespace arcoll::trace;

namespace {
constexpr double us = 1e-6, ms = 1e-3;

// A trace of n ranks that left MPI_Init at time 1.0 (no clock model: first
// calls have no known previous exit, so they are reported apart).
Trace ranks(int n) {
  Trace t;
  t.nranks = n;
  t.ranks.resize(std::size_t(n));
  for (int r = 0; r < n; r++) t.ranks[std::size_t(r)].rank = r;
  return t;
}

CollEvent ev(int rank, uint64_t seq, const char *site, double entry, double exit) {
  CollEvent e{};
  e.rank = rank;
  e.seq = seq;
  e.op = OP_BCAST;
  e.callsite = site;
  e.t_entry = entry;
  e.t_exit = exit;
  return e;
}
}  // namespace

// One instance: ranks 2 and 3 left the previous call 1 ms late (inherited),
// nobody computed longer: their inherited intervals share the others'
// waiting, the own-delay attribution stays 0.
TEST(CausePropagation, InheritedWaitingIsSharedByTheInheritedIntervals) {
  std::vector<CallMember> m(4);
  for (int r = 0; r < 4; r++) m[r] = CallMember{r, 1.0, true, 1.0 + 100 * us, 0};
  for (int r : {2, 3}) m[r].prev_exit += 1 * ms, m[r].entry += 1 * ms;
  for (auto &c : m) c.exit = 1.0 + 1.105 * ms;
  auto r = analyse_call(m);
  for (int q = 0; q < 4; q++) EXPECT_EQ(r[q].caused, 0.0) << q;
  EXPECT_NEAR(r[2].inherited, 1 * ms, 1e-12);
  // ranks 0 and 1 wait 1 ms each while 2 and 3 are both inside their inherited interval
  EXPECT_NEAR(r[2].inherited_caused, 1 * ms, 1e-12);
  EXPECT_NEAR(r[3].inherited_caused, 1 * ms, 1e-12);
  EXPECT_EQ(r[0].inherited_caused, 0.0);
}

// A late rank's own delay, while a rank with inherited lateness is also not
// there: the own delay takes the waiting (as before), inherited takes none.
TEST(CausePropagation, OwnDelayFirst) {
  std::vector<CallMember> m(3);
  for (int r = 0; r < 3; r++) m[r] = CallMember{r, 1.0, true, 1.0 + 100 * us, 0};
  m[1].prev_exit += 500 * us, m[1].entry += 500 * us;  // inherited 500 us
  m[2].entry += 1 * ms;                                 // own 1 ms
  for (auto &c : m) c.exit = 1.0 + 1.2 * ms;
  auto r = analyse_call(m);
  EXPECT_NEAR(r[2].own, 1 * ms, 1e-12);
  // [entry0, entry1): rank 0 waits, 2 inside its own delay; then 0 and 1 wait
  EXPECT_NEAR(r[2].caused, 500 * us + 2 * 500 * us, 1e-12);
  EXPECT_EQ(r[1].inherited_caused, 0.0);
}

// Three bcasts at two sites: in call 1 (site "a") rank 3 computes 1 ms
// longer and ranks 0..2 wait for it; the tree releases rank 1 1 ms after the
// others (it waited longer); in call 2 (site "b") rank 1 arrives 1 ms late
// with no own delay and ranks 0, 2, 3 wait for it: 3 ms of waiting that the
// short-term analysis blames on nobody and the propagation charges to rank
// 3 at site a.  (Call 0 is every rank's first call, reported apart.)
TEST(CausePropagation, InheritedLatenessIsChargedToTheEarlierOwnDelay) {
  Trace t = ranks(4);
  std::vector<std::vector<CollEvent>> per(4);
  for (int r = 0; r < 4; r++) per[r].push_back(ev(r, 0, "a", 1.0, 1.0 + 10 * us));
  const double e1 = 1.0 + 110 * us, last1 = e1 + 1 * ms;
  for (int r = 0; r < 4; r++) {
    const double exit = last1 + 5 * us + (r == 1 ? 1 * ms : 0);
    per[r].push_back(ev(r, 1, "a", r == 3 ? last1 : e1, exit));
  }
  const double last2 = per[1][1].t_exit + 100 * us;
  for (int r = 0; r < 4; r++)
    per[r].push_back(ev(r, 2, "b", per[r][1].t_exit + 100 * us, last2 + 5 * us));
  for (auto &v : per) t.colls.insert(t.colls.end(), v.begin(), v.end());
  CauseReport rep = analyse_causes(t);
  EXPECT_EQ(rep.instances, 2u);
  EXPECT_NEAR(rep.caused_wait, 3 * ms, 1e-9);
  EXPECT_NEAR(rep.propagated_wait, 3 * ms, 1e-9);
  ASSERT_FALSE(rep.ranking.empty());
  const SiteRankCause &top = rep.ranking[0];
  EXPECT_EQ(top.rank, 3);
  EXPECT_EQ(top.callsite, "a");
  EXPECT_NEAR(top.caused, 3 * ms, 1e-9);
  EXPECT_NEAR(top.caused_long_term, 6 * ms, 1e-9);
  for (const SiteRankCause &s : rep.ranking)
    if (s.rank != 3) EXPECT_EQ(s.caused_long_term, 0.0) << s.rank << " " << s.callsite;
  std::ostringstream os;
  print_summary(t, os, 3);
  const std::string s = os.str();
  EXPECT_NE(s.find("more traced back to own delays of earlier calls"), std::string::npos) << s;
  EXPECT_NE(s.find("with the waiting it propagated into later calls 6.000 ms"), std::string::npos) << s;
}

// The chain goes on: the lateness inherited in call 2 makes rank 0 late in
// call 3, and that waiting also goes back to rank 3's delay in call 1.
TEST(CausePropagation, ChargedThroughSeveralCalls) {
  Trace t = ranks(3);
  std::vector<std::vector<CollEvent>> per(3);
  for (int r = 0; r < 3; r++) per[r].push_back(ev(r, 0, "a", 1.0, 1.0 + 10 * us));
  // call 1: rank 2 computes 1 ms longer; rank 1 leaves 1 ms late
  const double e1 = 1.0 + 110 * us, last1 = e1 + 1 * ms;
  for (int r = 0; r < 3; r++)
    per[r].push_back(ev(r, 1, "a", r == 2 ? last1 : e1, last1 + 5 * us + (r == 1 ? 1 * ms : 0)));
  // call 2: rank 1 late (inherited); rank 0 leaves 1 ms after the others
  const double last2 = per[1][1].t_exit + 100 * us;
  for (int r = 0; r < 3; r++)
    per[r].push_back(ev(r, 2, "b", per[r][1].t_exit + 100 * us, last2 + 5 * us + (r == 0 ? 1 * ms : 0)));
  // call 3: rank 0 late (inherited)
  const double last3 = per[0][2].t_exit + 100 * us;
  for (int r = 0; r < 3; r++) per[r].push_back(ev(r, 3, "c", per[r][2].t_exit + 100 * us, last3 + 5 * us));
  for (auto &v : per) t.colls.insert(t.colls.end(), v.begin(), v.end());
  CauseReport rep = analyse_causes(t);
  ASSERT_FALSE(rep.ranking.empty());
  EXPECT_EQ(rep.ranking[0].rank, 2);
  EXPECT_NEAR(rep.ranking[0].caused, 2 * ms, 1e-9);            // ranks 0, 1 wait 1 ms in call 1
  EXPECT_NEAR(rep.ranking[0].caused_long_term, 6 * ms, 1e-9);  // + 2 ms in call 2 + 2 ms in call 3
  EXPECT_NEAR(rep.propagated_wait, 4 * ms, 1e-9);
}
