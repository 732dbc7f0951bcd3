// Unit tests of adapt/lateness.c past the caused-lateness measure: the
// summary (grouping, listing, noise level), its wire format, the exchange
// interval, the exchange schedule, the quiet-arrivals and the streaming
// tests.  No MPI; the measure itself: test_lateness.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "late_records.hpp"

extern "C" {
#include "late_pattern.h"
#include "late_trees.h"
#include "lateness.h"
}

namespace {

using late_records::call;
using late_records::interleave;
using late_records::late_call;

TEST(Summary, GroupsBySiteAndRootAndKeepsPersistentLateness) {
  const int P = 8;
  const double t = 1e-5;
  // rank 1 (parent: the root 0) entered 2 ms after the root left; its
  // siblings got their data at 1.0 + 3 t (the reference: 1.0 + 2 t), so it
  // caused 2 ms - 3 t at call 0, then 1 ms - 3 t at call 1 (same group):
  // the smaller (arcoll_late_persistent of 2 calls); rank 4 (parent: the
  // root too) was as late at call 1 only: not listed; call 2 has another
  // root and site
  auto second = late_call(P, 0, 1, 1e-3, t, 5);
  second[4].entry = second[1].entry, second[4].exit = second[1].exit, second[4].gap = second[1].gap;
  auto rec = interleave({late_call(P, 0, 1, 2e-3, t, 5), second, late_call(P, 1, 2, 1e-3, t, 9)});
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(P, 40, 3, rec.data(), 0.0, &s), 0);
  EXPECT_EQ(s.first_call, 40u);
  EXPECT_EQ(s.nsampled, 3);
  ASSERT_EQ(s.ngroups, 2);
  EXPECT_EQ(s.group[0].site, 5u);
  EXPECT_EQ(s.group[0].root, 0);
  ASSERT_EQ(s.group[0].n, 1);
  EXPECT_EQ(s.group[0].late[0].rank, 1);
  EXPECT_NEAR(s.group[0].late[0].lateness, 1e-3 - 3 * t, 1e-7);
  EXPECT_EQ(s.group[1].site, 9u);  // the root's site, not the others'
  EXPECT_EQ(s.group[1].root, 1);
  EXPECT_EQ(s.seq_site[2], 9u);
  EXPECT_EQ(s.seq_root[2], 1);
  EXPECT_EQ(s.group[0].noise, 0.0f);
}

TEST(Summary, ManyLateRanksSetTheNoiseLevel) {
  const int P = 64;
  // everybody found its data and entered a little after its parent left;
  // rank 17 10 ms after
  std::vector<double> e(P), x(P);
  for (int r = 0; r < P; ++r) e[r] = 1.0 + 1e-6 * (r + __builtin_popcount(r)), x[r] = e[r] + 1e-9;
  e[17] += 0.01, x[17] += 0.01;
  auto rec = interleave({call(P, 0, e, 1e-7, 0, 77, x)});
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(P, 5, 1, rec.data(), 0.0, &s), 0);
  // about half the ranks spent more time outside than the median one
  ASSERT_GE(s.group[0].n, 24);
  EXPECT_EQ(s.group[0].late[0].rank, 17);
  if (s.group[0].n == ARCOLL_LATE_LIST) {
    EXPECT_GT(s.group[0].noise, 0.0f);
    EXPECT_LE(s.group[0].noise, s.group[0].late[ARCOLL_LATE_LIST - 1].lateness);
  }
  EXPECT_LT(arcoll_late_threshold(0.0, s.group[0].noise), s.group[0].late[0].lateness);
}

TEST(Persistent, WhatARankCausedInThreeCallsOfFour) {
  std::vector<double> v;
  EXPECT_EQ(arcoll_late_persistent(v.data(), 0), 0.0);
  v = {5e-4};
  EXPECT_EQ(arcoll_late_persistent(v.data(), 1), 5e-4);
  v = {0.0, 1e-3};  // late in one call of two: its mean would be 0.5 ms
  EXPECT_EQ(arcoll_late_persistent(v.data(), 2), 0.0);
  v = {2e-3, 1e-3};
  EXPECT_EQ(arcoll_late_persistent(v.data(), 2), 1e-3);
  v = {1e-3, 0.0, 3e-3, 1e-3, 2e-3, 0.0, 1e-3, 4e-3};  // late in 6 of 8: the third smallest
  EXPECT_EQ(arcoll_late_persistent(v.data(), 8), 1e-3);
  EXPECT_EQ(v[0], 0.0);  // sorted in place
  EXPECT_EQ(v[7], 4e-3);
  v = {1e-3, 0.0, 3e-3, 0.0, 2e-3, 0.0, 1e-3, 4e-3};  // 5 of 8: by turns, not persistent
  EXPECT_EQ(arcoll_late_persistent(v.data(), 8), 0.0);
}

TEST(Summary, ARootThatMovesIsJudgedOverAllTheSitesCalls) {
  const int P = 8;
  const double t = 1e-5;
  // root j in call j (one call per group): the rank after the root is 1 ms
  // late in each call - a different rank each time, as under arrival noise.
  // Judged over its group's one call each would be listed; over the site's
  // eight calls each is late in one: nobody is
  std::vector<std::vector<arcoll_late_record_t>> calls;
  for (int j = 0; j < 8; ++j) calls.push_back(late_call(P, j, (j + 1) % P, 1e-3, t));
  auto rec = interleave(calls);
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(P, 10, 8, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.ngroups, 8);
  for (int g = 0; g < s.ngroups; ++g) {
    EXPECT_EQ(s.group[g].root, g);
    EXPECT_EQ(s.group[g].n, 0) << "root " << g;
  }
  // rank 5 late by 1 ms in every call whatever the root (4, 3, 1 by turns: it
  // is at position 1, 2 or 4, a child of the root): listed in every group
  calls.clear();
  const int roots[3] = {4, 3, 1};
  for (int j = 0; j < 8; ++j) calls.push_back(late_call(P, roots[j % 3], 5, 1e-3, t));
  rec = interleave(calls);
  ASSERT_EQ(arcoll_late_summarise(P, 10, 8, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.ngroups, 3);
  for (int g = 0; g < 3; ++g) {
    ASSERT_EQ(s.group[g].n, 1) << "root " << s.group[g].root;
    EXPECT_EQ(s.group[g].late[0].rank, 5);
    EXPECT_NEAR(s.group[g].late[0].lateness, 1e-3 - 3 * t, 1e-7);
  }
  // the same moving late rank, but every call at a site of its own: groups
  // are not pooled across sites, each lists its call's late rank
  calls.clear();
  for (int j = 0; j < 8; ++j) calls.push_back(late_call(P, j, (j + 1) % P, 1e-3, t, 100 + j));
  rec = interleave(calls);
  ASSERT_EQ(arcoll_late_summarise(P, 10, 8, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.ngroups, 8);
  for (int g = 0; g < 8; ++g) {
    ASSERT_EQ(s.group[g].n, 1);
    EXPECT_EQ(s.group[g].late[0].rank, (g + 1) % P);
  }
}

TEST(Summary, CallZeroCarriesNoLateness) {
  const int P = 8;
  const double t = 1e-5;
  // call 0 has no time outside before it (the gap cap leaves it nothing): a
  // rank late in calls 0 and 1 is listed with call 1's lateness, a rank late
  // in call 0 alone not at all
  auto rec = interleave({late_call(P, 0, 1, 2e-3, t), late_call(P, 0, 1, 1e-3, t)});
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(P, 0, 2, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.group[0].n, 1);
  EXPECT_EQ(s.group[0].late[0].rank, 1);
  EXPECT_NEAR(s.group[0].late[0].lateness, 1e-3 - 3 * t, 1e-7);
  rec = interleave({late_call(P, 0, 1, 2e-3, t), late_call(P, 0, -1, 0, t)});
  ASSERT_EQ(arcoll_late_summarise(P, 0, 2, rec.data(), 0.0, &s), 0);
  EXPECT_EQ(s.group[0].n, 0);
}

TEST(Summary, ArrivalNoiseSetsTheNoiseLevel) {
  const int P = 64;
  const double A = 1e-3, t = 1e-7;  // every rank 0 - A outside before the call
  for (const int late : {-1, 17})
    for (const double amp : {0.0, A}) {
      std::vector<double> e(P), x(P);
      for (int r = 0; r < P; ++r) {
        e[r] = 1.0 + 1e-6 * (r + __builtin_popcount(r)) + (r ? amp * ((r * 37) % 64) / 64.0 : 0.0);
        x[r] = e[r] + 1e-9;
      }
      if (late >= 0) e[late] += 10 * A, x[late] += 10 * A;
      auto rec = interleave({call(P, 0, e, t, 0, 77, x)});
      arcoll_late_summary_t s;
      ASSERT_EQ(arcoll_late_summarise(P, 5, 1, rec.data(), 0.0, &s), 0);
      const arcoll_late_group_t &g = s.group[0];
      // the median minus the lower quartile of the times outside: A / 4 (no noise: the
      // microseconds of the entries' order, or the (LIST + 1)-th largest lateness)
      if (amp > 0) EXPECT_NEAR(g.noise, A / 4, A / 32) << late;
      else EXPECT_LT(g.noise, 2e-5) << late;
      if (late >= 0) {  // late by 10 A: above the threshold whatever the noise
        ASSERT_GT(g.n, 0);
        EXPECT_EQ(g.late[0].rank, late);
        EXPECT_GT(g.late[0].lateness, arcoll_late_threshold(t, g.noise));
      }
    }
}

TEST(Summary, PackUnpackRoundTripAndRejectsGarbage) {
  const int P = 16;
  auto rec = interleave({late_call(P, 0, 4, 0.2, 1e-5), late_call(P, 2, 3, 0.1, 1e-5, 3)});
  arcoll_late_summary_t s, u;
  ASSERT_EQ(arcoll_late_summarise(P, 7, 2, rec.data(), 0.0, &s), 0);
  EXPECT_EQ(s.unreported, 0);  // counted by the tracker's coordinator, not here
  s.unreported = 5;
  std::vector<unsigned char> buf(ARCOLL_LATE_PACKED_MAX);
  const int n = arcoll_late_pack(&s, buf.data());
  EXPECT_LT(n, 200);  // compact: only the listed ranks travel
  ASSERT_EQ(arcoll_late_unpack(buf.data(), n, &u), 0);
  EXPECT_EQ(u.first_call, 7u);
  EXPECT_EQ(u.unreported, 5);
  ASSERT_EQ(u.ngroups, s.ngroups);
  for (int g = 0; g < s.ngroups; ++g) {
    EXPECT_EQ(u.group[g].site, s.group[g].site);
    EXPECT_EQ(u.group[g].gap, s.group[g].gap);
    EXPECT_GT(u.group[g].gap, 0.0f);
    EXPECT_EQ(u.group[g].root_gap, s.group[g].root_gap);
    ASSERT_EQ(u.group[g].n, s.group[g].n);
    for (int i = 0; i < s.group[g].n; ++i) {
      EXPECT_EQ(u.group[g].late[i].rank, s.group[g].late[i].rank);
      EXPECT_EQ(u.group[g].late[i].lateness, s.group[g].late[i].lateness);
    }
  }
  EXPECT_EQ(arcoll_late_unpack(buf.data(), n - 1, &u), -1);  // truncated
  EXPECT_EQ(arcoll_late_unpack(buf.data(), 8, &u), -1);
  buf[8] = 99;  // nsampled out of range
  EXPECT_EQ(arcoll_late_unpack(buf.data(), n, &u), -1);
  s.unreported = 0;
  s.trees = ARCOLL_TREES_VOID;  // a void trial travels
  ASSERT_EQ(arcoll_late_unpack(buf.data(), arcoll_late_pack(&s, buf.data()), &u), 0);
  EXPECT_EQ(u.trees, ARCOLL_TREES_VOID);
  s.trees = ARCOLL_TREES_VOID + 1;  // no such result
  EXPECT_EQ(arcoll_late_unpack(buf.data(), arcoll_late_pack(&s, buf.data()), &u), -1);
  s.trees = ARCOLL_TREES_UNDECIDED;
  s.unreported = -1;  // a count below 0
  EXPECT_EQ(arcoll_late_unpack(buf.data(), arcoll_late_pack(&s, buf.data()), &u), -1);
}

TEST(Interval, DoublesWhileStableAndResetsOnChange) {
  static_assert(ARCOLL_LATE_MIN_INTERVAL == 16 && ARCOLL_LATE_MAX_INTERVAL == 64, "update the sequence");
  int k = ARCOLL_LATE_MIN_INTERVAL;
  std::vector<int> seen;
  for (int i = 0; i < 4; ++i) seen.push_back(k = arcoll_late_next_interval(k, 0, 16));
  EXPECT_EQ(seen, (std::vector<int>{32, 64, 64, 64}));
  EXPECT_EQ(arcoll_late_next_interval(64, 1, 16), 16);
  EXPECT_EQ(arcoll_late_next_interval(64, 1, 32), 32);
  EXPECT_EQ(arcoll_late_next_interval(16, 0, 32), 32);  // never below the minimum
  EXPECT_EQ(arcoll_late_next_interval(16, 1, 1), ARCOLL_LATE_MIN_INTERVAL);
}

TEST(Summary, UnmeasuredCallsAreSkipped) {
  const int P = 8;
  auto c0 = late_call(P, 0, 4, 1e-3, 1e-5);
  for (auto &r : c0) r.flags = ARCOLL_LATE_OTHER;  // a multi-tree call: not measured
  auto rec = interleave({c0, late_call(P, 0, -1, 0, 1e-5)});
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(P, 0, 2, rec.data(), 5e-3, &s), 0);
  EXPECT_EQ(s.seq_root[0], -1);  // not pushed into the site history
  ASSERT_EQ(s.ngroups, 1);
  EXPECT_EQ(s.group[0].n, 0);  // nobody charged (not even as missing)
}

TEST(Schedule, RootCoordinatesDownWithoutChargingUpWithCharging) {
  double charge = 0;
  int apply = 0;
  // bcast / scatter: summary 8 calls after the start, applied the call
  // after, missing records not charged
  EXPECT_EQ(arcoll_late_gather_calls(0, &apply, &charge), ARCOLL_LATE_GATHER_CALLS_DOWN);
  EXPECT_EQ(apply, ARCOLL_LATE_GATHER_CALLS_DOWN + 1);
  EXPECT_LT(charge, 0.0);
  // reduce / gather: 2 calls after, applied the call after that (the
  // non-roots run ahead and wait for it), missing records charged
  EXPECT_EQ(arcoll_late_gather_calls(1, &apply, &charge), ARCOLL_LATE_GATHER_CALLS_UP);
  EXPECT_EQ(apply, ARCOLL_LATE_GATHER_CALLS_UP + 1);
  EXPECT_GE(charge, 0.0);
  // the summary is always applied after it is sent, before the next exchange starts
  EXPECT_LT(ARCOLL_LATE_GATHER_CALLS_UP, ARCOLL_LATE_APPLY_CALLS_UP);
  EXPECT_LE(ARCOLL_LATE_APPLY_CALLS_UP, ARCOLL_LATE_MIN_INTERVAL);
  EXPECT_LE(ARCOLL_LATE_APPLY_CALLS_DOWN, ARCOLL_LATE_MIN_INTERVAL);
}

TEST(Schedule, UpTrackersExchangeOnceDownOnesEveryInterval) {
  EXPECT_EQ(arcoll_late_exchanges_max(1), 1);  // reduce, gather: the first exchange only
  EXPECT_EQ(arcoll_late_exchanges_max(0), 0);  // bcast, scatter: no limit
}

}  // namespace

TEST(Quiet, OnlyListedLatenessBelowAQuarterLevelAtThatRoot) {
  arcoll_late_summary_t s{};
  EXPECT_EQ(arcoll_late_quiet(nullptr, 0), 0);  // nothing known
  EXPECT_EQ(arcoll_late_quiet(&s, 0), 0);       // no group
  s.ngroups = 2;
  s.group[0].root = 0, s.group[0].t_level = 60e-6f, s.group[0].n = 0;
  s.group[1].root = 5, s.group[1].t_level = 60e-6f, s.group[1].n = 1;
  s.group[1].late[0] = {3, 1e-3f};
  EXPECT_EQ(arcoll_late_quiet(&s, 0), 1);  // nobody listed at root 0
  EXPECT_EQ(arcoll_late_quiet(&s, 5), 0);  // a late rank at root 5
  EXPECT_EQ(arcoll_late_quiet(&s, 7), 0);  // no group of root 7
  s.group[1].late[0].lateness = 14e-6f;    // below a quarter of 60 us
  EXPECT_EQ(arcoll_late_quiet(&s, 5), 1);
  s.group[1].late[0].lateness = 16e-6f;  // above: arrival noise
  EXPECT_EQ(arcoll_late_quiet(&s, 5), 0);
  s.group[0].root = 5;  // two sites of root 5: both must be quiet
  s.group[1].late[0].lateness = 1e-6f;
  EXPECT_EQ(arcoll_late_quiet(&s, 5), 1);
  s.group[0].n = 1, s.group[0].late[0] = {9, 40e-6f};
  EXPECT_EQ(arcoll_late_quiet(&s, 5), 0);
}

TEST(Streaming, GapIsTheLongestTimeOutsideAfterCallZero) {
  const int P = 8;
  const double t = 1e-5;
  std::vector<double> e(P, 1.0);
  auto c0 = call(P, 0, e, t), c1 = call(P, 0, e, t);
  for (int r = 0; r < P; ++r) c0[r].gap = c1[r].gap = 1e-6;
  c0[3].gap = 5e-3;  // call 0: no previous call, not counted
  c1[6].gap = 2e-6;
  auto rec = interleave({c0, c1});
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(P, 0, 2, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.ngroups, 1);
  EXPECT_FLOAT_EQ(s.group[0].gap, 2e-6f);
  EXPECT_EQ(arcoll_late_streaming(&s, 0), 1);  // quiet, back to back (gap < t_level)
  ASSERT_EQ(arcoll_late_summarise(P, 5, 2, rec.data(), 0.0, &s), 0);  // call 0 is call 5 now
  EXPECT_FLOAT_EQ(s.group[0].gap, 5e-3f);
  EXPECT_EQ(arcoll_late_streaming(&s, 0), 0);  // rank 3 computed 5 ms between calls
  rec = interleave({c0, c1});
  rec[(size_t)0 * 2 + 1].gap = 4e-3;  // the root, call 1: it computes between its calls
  ASSERT_EQ(arcoll_late_summarise(P, 0, 2, rec.data(), 0.0, &s), 0);
  EXPECT_FLOAT_EQ(s.group[0].gap, 2e-6f);  // the others'
  EXPECT_FLOAT_EQ(s.group[0].root_gap, 4e-3f);
  EXPECT_EQ(arcoll_late_streaming(&s, 0), 0);
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 0);
}

TEST(Streaming, NeedsQuietArrivalsAndShortGapsAtThatRoot) {
  arcoll_late_summary_t s{};
  EXPECT_EQ(arcoll_late_streaming(nullptr, 0), 0);
  EXPECT_EQ(arcoll_late_streaming(&s, 0), 0);  // nothing known
  s.ngroups = 1;
  s.group[0].root = 0, s.group[0].t_level = 60e-6f, s.group[0].gap = 1e-6f;
  EXPECT_EQ(arcoll_late_streaming(&s, 0), 1);
  EXPECT_EQ(arcoll_late_streaming(&s, 1), 0);  // no group of root 1
  s.group[0].gap = 60e-6f;                     // a tree level outside: not back to back
  EXPECT_EQ(arcoll_late_streaming(&s, 0), 0);
  s.group[0].gap = 1e-6f, s.group[0].n = 1, s.group[0].late[0] = {4, 30e-6f};
  EXPECT_EQ(arcoll_late_streaming(&s, 0), 0);  // arrival noise
  s.group[0].t_level = 0.0f, s.group[0].n = 0;
  EXPECT_EQ(arcoll_late_streaming(&s, 0), 0);  // no tree level known
}

// Nearly a stream (late_pattern.h arcoll_late_near_stream): gaps up to
// ARCOLL_LATE_NEAR_STREAM_LEVELS tree levels and no rank a level late -
// the arrival noise arcoll_late_streaming rejects passes; computing
// between calls or a late rank does not.
TEST(Streaming, NearStreamAllowsNoiseOfAFewLevels) {
  arcoll_late_summary_t s{};
  EXPECT_EQ(arcoll_late_near_stream(nullptr, 0), 0);
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 0);  // nothing known
  s.ngroups = 1;
  s.group[0].root = 0, s.group[0].t_level = 60e-6f, s.group[0].gap = 1e-6f;
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 1);
  EXPECT_EQ(arcoll_late_near_stream(&s, 1), 0);  // no group of root 1
  // 0-200 us noise (SMPI flat P = 64, 32 KiB): gap ~200 us, 4 ranks listed,
  // the latest 43 us caused, t_level 62 us
  s.group[0].gap = 200e-6f, s.group[0].n = 1, s.group[0].late[0] = {4, 43e-6f};
  EXPECT_EQ(arcoll_late_streaming(&s, 0), 0);
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 1);
  s.group[0].gap = (float)(ARCOLL_LATE_NEAR_STREAM_LEVELS * 60e-6) * 1.01f;  // computes between calls
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 0);
  s.group[0].gap = 200e-6f, s.group[0].root_gap = s.group[0].gap * 1.5f;  // the root does
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 0);
  s.group[0].root_gap = 0.0f;
  s.group[0].gap = 200e-6f, s.group[0].late[0] = {4, 61e-6f};  // a rank a tree level late
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 0);
  s.group[0].late[0] = {4, 43e-6f};
  s.ngroups = 2;  // a second call site of the same root, not near a stream
  s.group[1] = s.group[0];
  s.group[1].gap = 1e-3f;
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 0);
  s.ngroups = 1;
  s.group[0].t_level = 0.0f;
  EXPECT_EQ(arcoll_late_near_stream(&s, 0), 0);  // no tree level known
}
