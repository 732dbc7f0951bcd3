// The root's lead and the tests built on it (adapt/lateness.h
// arcoll_late_group_t.lead, arcoll_late_synchronised, arcoll_late_root_paced,
// arcoll_late_wavefront): computed from the
// sampled records of consecutive calls, carried by the summary's wire
// format, unknown when no pair of consecutive calls of the group was
// sampled.  No MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

extern "C" {
#include "late_pattern.h"
#include "lateness.h"
}

namespace {

constexpr int kP = 8;
constexpr double kLevel = 50e-6;  // one tree level, seconds

// Records of `n` consecutive calls of root 0 (classic order, site 77):
// rank r enters call j at entry(j, r, its exit of call j - 1; -1 for j = 0)
// and leaves it (1 + popcount r) levels after the root entered (its data
// came down the binomial tree), not before its own entry; the root leaves
// 1 us after entering.  rec[r * n + j].
template <class Entry>
std::vector<arcoll_late_record_t> calls(int n, Entry entry) {
  std::vector<arcoll_late_record_t> rec((size_t)kP * n);
  std::vector<double> exit(kP, -1.0);
  for (int j = 0; j < n; ++j) {
    const double root_in = entry(j, 0, exit[0]);
    for (int r = 0; r < kP; ++r) {
      arcoll_late_record_t &x = rec[(size_t)r * n + j];
      x.entry = r ? entry(j, r, exit[r]) : root_in;
      x.exit = r ? std::max(x.entry, root_in + (1 + __builtin_popcount(r)) * kLevel) : root_in + 1e-6;
      x.gap = j ? x.entry - exit[r] : 0.0;
      x.site = 77;
      x.pos = r;
      x.root = 0;
      x.t_level = (float)kLevel;
      x.flags = ARCOLL_LATE_VALID;
    }
    for (int r = 0; r < kP; ++r) exit[r] = rec[(size_t)r * n + j].exit;
  }
  return rec;
}

// A barrier after every call: everybody enters call j at 10 j levels (the
// previous call's last rank left 4 levels after its start).
double after_barrier(int j, int, double) { return j * 10 * kLevel; }

TEST(RootLead, BarrierBetweenCallsIsSynchronised) {
  auto rec = calls(3, after_barrier);
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(kP, 4, 3, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.ngroups, 1);
  // the last exit of call j - 1 is 4 levels after its start, the root enters call j 10 levels after it
  EXPECT_NEAR(s.group[0].lead, -6 * kLevel, 1e-9);
  EXPECT_NEAR(s.group[0].spread, 0.0, 1e-6);  // all entered together
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 1);
  EXPECT_EQ(arcoll_late_synchronised(&s, 1), 0);  // no group of root 1: nothing known
}

TEST(RootLead, StreamIsNotSynchronised) {
  // back to back: everybody re-enters 1 us after leaving; the root long
  // before the deepest rank left the previous call
  auto rec = calls(3, [](int j, int, double prev) { return j ? prev + 1e-6 : 0.0; });
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 3, rec.data(), 0.0, &s), 0);
  EXPECT_GT(s.group[0].lead, 2 * kLevel);
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 0);
}

TEST(RootLead, ComputationBetweenCallsIsNotSynchronised) {
  // 1 ms of computation after every call: the root enters after the last
  // rank left (no lead), but each rank enters in the order it left - a
  // chain would pipeline from call to call
  auto rec = calls(3, [](int j, int, double prev) { return j ? prev + 1e-3 : 0.0; });
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 3, rec.data(), 0.0, &s), 0);
  EXPECT_LT(s.group[0].lead, 0.0f);
  EXPECT_GT(s.group[0].spread, 0.9f);  // the entries spread as the exits did
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 0);
  // the same after a barrier: lined up again
  rec = calls(3, [](int j, int, double) { return j * 2e-3; });
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 3, rec.data(), 0.0, &s), 0);
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 1);
}

TEST(RootLead, OneOverlappingOrSpreadPairIsEnough) {
  // call 2's root enters 0.5 levels before call 1's deepest rank left
  auto rec = calls(3, [](int j, int r, double) {
    return j == 2 && r == 0 ? 10 * kLevel + 3.5 * kLevel : j * 10 * kLevel;
  });
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 3, rec.data(), 0.0, &s), 0);
  EXPECT_NEAR(s.group[0].lead, 0.5 * kLevel, 1e-9);
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 0);
  // everybody entering call 2 0.4 levels before call 1's deepest rank left
  // (a clock error of that size): still synchronised
  rec = calls(3, [](int j, int, double) { return j == 2 ? 13.6 * kLevel : j * 10 * kLevel; });
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 3, rec.data(), 0.0, &s), 0);
  EXPECT_NEAR(s.group[0].lead, 0.4 * kLevel, 1e-9);
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 1);
  // one rank entering call 1 three levels after the others: entries spread 3 of the exits' 4 levels
  rec = calls(3, [](int j, int r, double) { return j * 10 * kLevel + (j == 1 && r == 5 ? 3 * kLevel : 0.0); });
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 3, rec.data(), 0.0, &s), 0);
  EXPECT_NEAR(s.group[0].spread, 3 * kLevel / (4 * kLevel - 1e-6), 1e-5);  // the root left at 1 us
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 0);
}

TEST(RootLead, UnknownWithoutConsecutiveCallsOfTheGroup) {
  auto rec = calls(1, after_barrier);
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 1, rec.data(), 0.0, &s), 0);
  EXPECT_TRUE(std::isnan(s.group[0].lead));
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 0);
  // two calls from different call sites: two groups, neither has a pair
  rec = calls(2, after_barrier);
  rec[1].site = 78;  // the root's record of call 1
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 2, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.ngroups, 2);
  EXPECT_TRUE(std::isnan(s.group[0].lead));
  EXPECT_TRUE(std::isnan(s.group[1].lead));
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 0);
  // the root's record of the later call missing: no pair either
  rec = calls(2, after_barrier);
  rec[1].flags = 0;
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 2, rec.data(), 0.0, &s), 0);
  EXPECT_TRUE(std::isnan(s.group[0].lead));
  EXPECT_EQ(arcoll_late_synchronised(nullptr, 0), 0);
}

TEST(RootLead, EveryGroupOfTheRootMustBeSynchronised) {
  arcoll_late_summary_t s{};
  s.ngroups = 2;
  s.group[0].root = s.group[1].root = 3;
  s.group[0].t_level = s.group[1].t_level = (float)kLevel;
  s.group[0].lead = s.group[1].lead = (float)(-kLevel);
  EXPECT_EQ(arcoll_late_synchronised(&s, 3), 1);
  s.group[1].lead = NAN;  // one site unknown
  EXPECT_EQ(arcoll_late_synchronised(&s, 3), 0);
  s.group[1].lead = (float)(2 * kLevel);  // one site streams
  EXPECT_EQ(arcoll_late_synchronised(&s, 3), 0);
  s.group[1].lead = (float)(-kLevel), s.group[1].t_level = 0.0f;  // no tree level known
  EXPECT_EQ(arcoll_late_synchronised(&s, 3), 0);
}

TEST(RootLead, TravelsInTheSummary) {
  auto rec = calls(3, after_barrier);
  arcoll_late_summary_t s, u;
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 3, rec.data(), 0.0, &s), 0);
  std::vector<unsigned char> buf(ARCOLL_LATE_PACKED_MAX);
  const int n = arcoll_late_pack(&s, buf.data());
  ASSERT_EQ(arcoll_late_unpack(buf.data(), n, &u), 0);
  EXPECT_EQ(u.group[0].lead, s.group[0].lead);
  EXPECT_EQ(arcoll_late_synchronised(&u, 0), 1);
  EXPECT_EQ(arcoll_late_unpack(buf.data(), n - 1, &u), -1);  // truncated
}

// The root 1 ms (20 levels) outside before every call, the others straight
// back in: each call waits for the root, the calls are paced by it - not a
// stream (the root's time outside), not synchronised (the entries spread
// over the root's lateness).
double root_late(int j, int r, double exit) { return j == 0 ? 0.0 : r ? exit : exit + 20 * kLevel; }

TEST(RootPaced, ALateRootPacesTheCalls) {
  auto rec = calls(3, root_late);
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(kP, 4, 3, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.ngroups, 1);
  EXPECT_NEAR(s.group[0].root_gap, 20 * kLevel, 1e-9);
  EXPECT_NEAR(s.group[0].gap, 0.0, 1e-9);  // the others came straight back
  EXPECT_LT(s.group[0].lead, 0.0f);
  EXPECT_EQ(s.group[0].n, 0);  // the root is nobody's late rank
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 1);
  EXPECT_EQ(arcoll_late_root_paced(&s, 1), 0);  // no group of root 1
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 0);
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 0);
  // the same after the wire
  std::vector<unsigned char> buf(ARCOLL_LATE_PACKED_MAX);
  arcoll_late_summary_t u;
  ASSERT_EQ(arcoll_late_unpack(buf.data(), arcoll_late_pack(&s, buf.data()), &u), 0);
  EXPECT_EQ(u.group[0].root_gap, s.group[0].root_gap);
  EXPECT_EQ(arcoll_late_root_paced(&u, 0), 1);
  // everybody back to back, or everybody after a barrier: not paced by the root
  rec = calls(3, [](int j, int, double exit) { return j == 0 ? 0.0 : exit; });
  ASSERT_EQ(arcoll_late_summarise(kP, 4, 3, rec.data(), 0.0, &s), 0);
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 0);
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 1);
  rec = calls(3, after_barrier);
  ASSERT_EQ(arcoll_late_summarise(kP, 4, 3, rec.data(), 0.0, &s), 0);
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 0);
}

// Summary s emptied, `test` checked to say 0 without it and without a group, then one group of
// root 0 with a tree level of kLevel, returned.
arcoll_late_group_t &one_group(arcoll_late_summary_t &s, int (*test)(const arcoll_late_summary_t *, int)) {
  s = arcoll_late_summary_t{};
  EXPECT_EQ(test(nullptr, 0), 0);
  EXPECT_EQ(test(&s, 0), 0);  // nothing known
  s.ngroups = 1;
  s.group[0].root = 0, s.group[0].t_level = (float)kLevel;
  return s.group[0];
}

TEST(RootPaced, EachConditionMatters) {
  arcoll_late_summary_t s;
  arcoll_late_group_t &g = one_group(s, arcoll_late_root_paced);
  const float most = (float)(ARCOLL_LATE_NEAR_STREAM_LEVELS * kLevel);
  g.gap = 0.5f * most, g.root_gap = 5 * most, g.lead = -1e-4f;
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 1);
  g.root_gap = 0.9f * most;  // the root hardly outside
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 0);
  g.root_gap = 5 * most, g.gap = 4.5f * most;  // the others compute about as long
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 0);
  g.gap = 1.1f * most;  // the others compute too, the root 4 levels longer: it paces them
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 1);
  g.gap = 3.9f * most;  // the root less than 4 levels longer
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 1) << "the others nearly a stream: the first rule";
  g.gap = 4.1f * most, g.root_gap = 4.9f * most;
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 0);
  g.root_gap = 5 * most;
  g.gap = 0.5f * most, g.lead = 1e-5f;  // the root entered while data still moved: it throttles a stream
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 1);
  g.lead = NAN;  // no pair of consecutive calls sampled: the gaps alone tell
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 1);
  g.lead = -1e-4f, g.n = 1, g.late[0] = {3, (float)kLevel};  // a rank a level late
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 0);
  g.late[0].lateness = 0.5f * (float)kLevel;  // arrival noise
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 1);
  s.ngroups = 2, s.group[1] = g, s.group[1].root_gap = 0.0f;  // another site of the root, a stream
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 0);
  s.ngroups = 1, g.t_level = 0.0f;
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 0);  // no tree level known
}

// Every rank computing 10 levels before every call: no stream by the time outside, not paced by
// the root, not synchronised (each rank enters in the order it left) - a wavefront.
double computing(int j, int, double exit) { return j == 0 ? 0.0 : exit + 10 * kLevel; }

// ... and the root 20 levels more: paced by the root.
TEST(RootPaced, TheRootComputingLongestPacesTheCalls) {
  auto rec = calls(3, [](int j, int r, double exit) { return computing(j, r, exit) + (j && !r ? 20 * kLevel : 0.0); });
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(kP, 4, 3, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.ngroups, 1);
  EXPECT_NEAR(s.group[0].root_gap, 30 * kLevel, 1e-9);
  EXPECT_GE(s.group[0].gap, 10 * kLevel - 1e-9);
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 0);
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 1);
  rec = calls(3, computing);  // all computing alike: not paced by the root
  ASSERT_EQ(arcoll_late_summarise(kP, 4, 3, rec.data(), 0.0, &s), 0);
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 0);
}

TEST(Wavefront, ComputationBetweenCallsIsAWavefront) {
  auto rec = calls(3, computing);
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(kP, 4, 3, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.ngroups, 1);
  EXPECT_NEAR(s.group[0].gap, 10 * kLevel, 1e-9);
  EXPECT_NEAR(s.group[0].spread, 1.0, 1e-3);  // the entries spread as the exits did
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 0);
  EXPECT_EQ(arcoll_late_root_paced(&s, 0), 0);
  EXPECT_EQ(arcoll_late_synchronised(&s, 0), 0);
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 1);
  EXPECT_EQ(arcoll_late_wavefront(&s, 1), 0);  // no group of root 1
  // the same after the wire
  std::vector<unsigned char> buf(ARCOLL_LATE_PACKED_MAX);
  arcoll_late_summary_t u;
  ASSERT_EQ(arcoll_late_unpack(buf.data(), arcoll_late_pack(&s, buf.data()), &u), 0);
  EXPECT_EQ(arcoll_late_wavefront(&u, 0), 1);
  // a barrier between the calls: synchronised, no wavefront
  rec = calls(3, after_barrier);
  ASSERT_EQ(arcoll_late_summarise(kP, 4, 3, rec.data(), 0.0, &s), 0);
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 0);
  // rank 5 three levels later than the others into every call: a late rank, no wavefront
  // (calls 0-2: the records' first call has no time outside, as a rank's call 0)
  rec = calls(3, [](int j, int r, double exit) { return computing(j, r, exit) + (r == 5 ? 3 * kLevel : 0.0); });
  ASSERT_EQ(arcoll_late_summarise(kP, 0, 3, rec.data(), 0.0, &s), 0);
  ASSERT_GT(s.group[0].n, 0);
  EXPECT_EQ(s.group[0].late[0].rank, 5);
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 0);
}

TEST(Wavefront, EachConditionMatters) {
  arcoll_late_summary_t s;
  arcoll_late_group_t &g = one_group(s, arcoll_late_wavefront);
  g.gap = 10 * (float)kLevel, g.lead = -1e-4f, g.spread = 1.0f;
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 1);
  g.spread = 0.1f;  // entered together, the root behind the others: synchronised
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 0);
  g.lead = (float)kLevel;  // the root entered while data still moved
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 1);
  g.spread = NAN;  // no pair of consecutive calls sampled
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 0);
  g.spread = 1.0f, g.lead = NAN;
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 0);
  g.lead = -1e-4f, g.n = 1, g.late[0] = {3, (float)kLevel};  // a rank a level late
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 0);
  g.late[0].lateness = 0.5f * (float)kLevel;  // arrival noise
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 1);
  g.late[0].lateness = 3 * (float)kLevel, g.noise = 2 * (float)kLevel;  // noise of 2 levels: late beyond 4
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 1);
  g.noise = 0.0f;
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 0);
  g.late[0].lateness = 0.5f * (float)kLevel;
  s.ngroups = 2, s.group[1] = g, s.group[1].spread = 0.0f;  // another site of the root, synchronised
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 0);
  s.ngroups = 1, g.t_level = 0.0f;
  EXPECT_EQ(arcoll_late_wavefront(&s, 0), 0);  // no tree level known
}

}  // namespace
