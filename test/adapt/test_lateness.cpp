// Unit tests of adapt/lateness.c: the caused-lateness measure, the summary
// (grouping, listing, noise level), its wire format, the exchange interval,
// the exchange schedule, the quiet-arrivals and the streaming tests.  No MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

extern "C" {
#include "lateness.h"
#include "tree_extra.h"
}

namespace {

// Records of one call: rank r at position (r - root) mod P (the classic
// order), entering at entry[r], leaving at exit[r] (default: after waiting
// 2 t_level for its data); t_level per tree level; chain: 1 chain, 2 toward
// the root.
std::vector<arcoll_late_record_t> call(int P, int root, const std::vector<double> &entry,
                                       double t_level, int chain = 0, uint64_t site = 77,
                                       std::vector<double> exit = {}) {
  std::vector<arcoll_late_record_t> rec(P);
  const double first = *std::min_element(entry.begin(), entry.end());
  for (int r = 0; r < P; ++r) {
    rec[r].entry = entry[r];
    rec[r].gap = entry[r] - first + 1e-3;  // time outside since the previous call
    rec[r].exit = exit.empty() ? entry[r] + 2 * t_level : exit[r];
    rec[r].site = site + (r == root ? 0 : 1000 + r);  // only the root's site counts
    rec[r].pos = (r - root + P) % P;
    rec[r].root = root;
    rec[r].t_level = (float)t_level;
    rec[r].flags = ARCOLL_LATE_VALID | (chain & 1 ? ARCOLL_LATE_CHAIN : 0) | (chain & 2 ? ARCOLL_LATE_UP : 0);
  }
  return rec;
}

std::vector<double> caused(int P, int root, const std::vector<arcoll_late_record_t> &rec,
                           double missing = 0.0, int expect_rc = 0) {
  std::vector<int> scratch(3 * P);
  std::vector<double> a(2 * P), c(P, -1.0);
  EXPECT_EQ(arcoll_late_caused(P, root, rec.data(), missing, scratch.data(), a.data(), c.data()),
            expect_rc);
  return c;
}

TEST(Caused, QueueingBehindARootThatRanAheadIsNotLateness) {
  // back-to-back broadcast with eager messages: the root left this call at
  // 1.0, the others enter 50 ms later and still wait for their data (it
  // queued at the root's link): nobody caused anything
  const int P = 16;
  const double t = 10e-6;
  std::vector<double> e(P, 1.05), x(P);
  e[0] = 1.0;
  for (int r = 0; r < P; ++r) x[r] = r ? 1.06 + t * __builtin_popcount(r) : 1.0;
  auto c = caused(P, 0, call(P, 0, e, t, 0, 77, x));
  for (int r = 0; r < P; ++r) EXPECT_EQ(c[r], 0.0) << r;
}

TEST(Caused, OnlyTheLateRankIsCharged) {
  // rank 4 (an inner node: children 5, 6) enters 1 ms after its parent (the
  // root) sent and finds its data there; its children wait for it: delayed,
  // not late
  const int P = 8, root = 0;
  const double t = 10e-6;
  std::vector<double> e(P, 1.0), x(P);
  for (int r = 0; r < P; ++r) x[r] = 1.0 + t * __builtin_popcount(r);
  e[4] = 1.001, x[4] = 1.001 + 1e-7;
  x[5] = x[6] = 1.001 + t, x[7] = 1.001 + 2 * t;
  auto c = caused(P, root, call(P, root, e, t, 0, 77, x));
  EXPECT_NEAR(c[4], 1e-3 - t, 1e-9);
  for (int r = 0; r < P; ++r)
    if (r != 4) EXPECT_EQ(c[r], 0.0) << r;
}

TEST(Caused, RendezvousParentStillSendingIsTheReference) {
  // large messages: the root is blocked sending to the late rank 2 until it
  // arrives (root's exit after rank 2's entry): measured from the root's entry
  const int P = 4;
  const double t = 1e-4;
  std::vector<double> e{1.0, 1.0, 1.01, 1.0}, x{1.0102, 1.0001, 1.0101, 1.0103};
  auto c = caused(P, 0, call(P, 0, e, t, 0, 77, x));
  EXPECT_NEAR(c[2], 0.01 - t, 1e-9);
  EXPECT_EQ(c[1], 0.0);
  EXPECT_EQ(c[3], 0.0);  // waited for rank 2
}

TEST(Caused, ChainParentIsThePreviousPosition) {
  const int P = 6, root = 2;
  const double t = 5e-6;
  std::vector<double> e(P, 0.0), x(P);
  // positions 0..5 = ranks 2,3,4,5,0,1; position p gets the data at p t
  for (int p = 0; p < P; ++p) e[(root + p) % P] = 0.0, x[(root + p) % P] = p * t;
  const int late = (root + 3) % P;
  e[late] = 2e-4, x[late] = 2e-4 + 1e-8;  // position 3 late by 200 us
  for (int p = 4; p < P; ++p) x[(root + p) % P] = 2e-4 + (p - 3) * t;
  auto c = caused(P, root, call(P, root, e, t, 1, 77, x));
  EXPECT_NEAR(c[late], 2e-4 - 2 * t - t, 1e-9);  // after the parent's exit at 2 t
  EXPECT_EQ(c[(root + 4) % P], 0.0);              // delayed by it, did not cause it
}

TEST(Caused, BinaryParentComesFromTheBinaryTree) {
  // the binary tree of arcoll_tree_binary (ARCOLL_LATE_BINARY), P = 8: root
  // -> 6 and 2, 6 -> 4 and 7, 4 -> 5, 2 -> 1 and 3; position 4 late by
  // 300 us: it caused it, its child 5 was delayed; position 5 (binomial
  // parent 4, but also position 4's child here) and position 7 (binomial
  // parent 6, its parent here too) are not charged
  const int P = 8, root = 0;
  const double t = 10e-6;
  std::vector<double> e(P, 0.0), x(P);
  auto depth = [](int p) { int d = 0; while (p > 0) p = arcoll_binary_parent_pos(p, 8), ++d; return d; };
  EXPECT_EQ(depth(6), 1);
  EXPECT_EQ(depth(4), 2);
  EXPECT_EQ(depth(5), 3);
  EXPECT_EQ(depth(1), 2);
  for (int p = 0; p < P; ++p) x[p] = depth(p) * t;
  e[4] = 3e-4, x[4] = 3e-4 + 1e-8;
  x[5] = 3e-4 + t;
  auto rec = call(P, root, e, t, 0, 77, x);
  for (auto &r : rec) r.flags |= ARCOLL_LATE_BINARY;
  auto c = caused(P, root, rec);
  EXPECT_NEAR(c[4], 3e-4 - t - t, 1e-9);  // after its parent's (position 6) exit at t, one level
  for (int r = 0; r < P; ++r)
    if (r != 4) EXPECT_EQ(c[r], 0.0) << r;
}

TEST(Caused, TowardTheRootALateLeafIsChargedNotItsParent) {
  // back-to-back reduce: leaves enter first, inner nodes when their children
  // are done (1 level each), the root last; rank 5 (a leaf under 4) enters
  // 1 ms late: only rank 5 caused lateness
  const int P = 8;
  const double t = 10e-6;
  std::vector<double> e(P);
  for (int p = 0; p < P; ++p) e[p] = 1.0 + t * __builtin_ctz(p | 8);  // subtree height
  e[0] = 1.0 + 3 * t;
  auto c0 = caused(P, 0, call(P, 0, e, t, 2));
  for (int r = 0; r < P; ++r) EXPECT_EQ(c0[r], 0.0) << r;
  e[5] = 1.001;
  auto c = caused(P, 0, call(P, 0, e, t, 2));
  EXPECT_NEAR(c[5], 1.001 - e[4], 1e-9);
  for (int r = 0; r < P; ++r)
    if (r != 5) EXPECT_EQ(c[r], 0.0) << r;
}

TEST(Caused, ComingStraightFromThePreviousCallIsNotLateness) {
  // rank 4 finds its data there 1 ms after its parent left, but it entered
  // right after its previous call (gap 0, as everybody): queueing, not lateness
  const int P = 8;
  const double t = 10e-6;
  std::vector<double> e(P, 1.0), x(P);
  for (int r = 0; r < P; ++r) x[r] = 1.0 + t * __builtin_popcount(r);
  e[4] = 1.001, x[4] = 1.001 + 1e-7;
  auto rec = call(P, 0, e, t, 0, 77, x);
  for (auto &r : rec) r.gap = 0.0;
  auto c = caused(P, 0, rec);
  for (int r = 0; r < P; ++r) EXPECT_EQ(c[r], 0.0) << r;
  rec[4].gap = 4e-4;  // it did spend 0.4 ms outside: at most that
  c = caused(P, 0, rec);
  EXPECT_NEAR(c[4], 4e-4, 1e-12);
}

TEST(Caused, MissingRecordIsChargedTheBound) {
  const int P = 8;
  auto rec = call(P, 0, std::vector<double>(P, 1.0), 1e-5);
  rec[6].flags = 0;  // rank 6 had not sent its records
  auto c = caused(P, 0, rec, 3e-3);
  EXPECT_EQ(c[6], 3e-3);
  for (int r = 0; r < P; ++r)
    if (r != 6) EXPECT_EQ(c[r], 0.0) << r;
}

TEST(Caused, MissingChargeIsAtLeastTwoTreeDepths) {
  // P = 64: ceil(log2 P) = 6 levels, two calls' worth = 12 t_level
  EXPECT_DOUBLE_EQ(arcoll_late_missing_charge(64, 1e-5, 3e-3), 3e-3);
  EXPECT_DOUBLE_EQ(arcoll_late_missing_charge(64, 1e-5, 1e-5), 12e-5);
  EXPECT_DOUBLE_EQ(arcoll_late_missing_charge(65, 1e-5, 0.0), 14e-5);  // 7 levels
  EXPECT_EQ(arcoll_late_missing_charge(64, 1e-5, -1.0), 0.0);         // not charged
  EXPECT_EQ(arcoll_late_missing_charge(64, NAN, 0.0), 0.0);           // no model
  EXPECT_EQ(arcoll_late_missing_charge(64, -1e-5, 2e-4), 2e-4);
}

TEST(Caused, MissingRecordBelowAMissingParentIsNotCharged) {
  // binomial over positions, root 0: rank 2's child is 3, rank 4's are 5, 6
  const int P = 8;
  auto rec = call(P, 0, std::vector<double>(P, 1.0), 1e-5);
  rec[2].flags = rec[3].flags = 0;  // 3 waits for 2's data
  rec[6].flags = 0;                 // 6's parent 4 sent its records
  auto c = caused(P, 0, rec, 3e-3);
  EXPECT_EQ(c[2], 3e-3);
  EXPECT_EQ(c[3], 0.0);
  EXPECT_EQ(c[6], 3e-3);
  for (int r : {0, 1, 4, 5, 7}) EXPECT_EQ(c[r], 0.0) << r;
  rec[1].flags = 0;  // the root's child: its parent is the root, charged
  c = caused(P, 0, rec, 3e-3);
  EXPECT_EQ(c[1], 3e-3);
}

TEST(Caused, MissingRecordIsNotChargedWhenTheRootRanAhead) {
  const int P = 8;
  auto rec = call(P, 0, std::vector<double>(P, 1.0), 1e-5);
  rec[6].flags = 0;  // rank 6's records had not reached the root that ran ahead
  auto c = caused(P, 0, rec, -1.0);
  for (int r = 0; r < P; ++r) EXPECT_EQ(c[r], 0.0) << r;
  rec[0].flags = 0;  // even a missing root record (not charged either)
  c = caused(P, 0, rec, -1.0);
  for (int r = 0; r < P; ++r) EXPECT_EQ(c[r], 0.0) << r;
}

TEST(Caused, MultiTreeCallsChargeOnlyWhatARankSpentOutside) {
  // twotree / scatter-ring bcasts (ARCOLL_LATE_OTHER): the root ran ahead,
  // everybody entered 0.5 ms after it (queued: gaps 10 us), rank 5 1.5 ms
  // after it, having spent 1 ms outside (its own delay)
  const int P = 8;
  const double t = 1e-5;
  std::vector<double> e(P, 1.0005);
  e[0] = 1.0, e[5] = 1.0015;
  auto rec = call(P, 0, e, t);
  for (auto &r : rec) r.flags |= ARCOLL_LATE_OTHER, r.gap = 1e-5;
  rec[5].gap = 1e-3 + 1e-5;
  auto c = caused(P, 0, rec);
  EXPECT_NEAR(c[5], 1e-3, 1e-9);  // capped by its gap beyond the median
  for (int r = 0; r < P; ++r)
    if (r != 5) EXPECT_EQ(c[r], 0.0) << r;
}

TEST(Caused, InconsistentPositionsAreRejected) {
  const int P = 4;
  auto rec = call(P, 0, std::vector<double>(P, 1.0), 1e-5);
  rec[2].pos = 1;  // two ranks claim position 1
  auto c = caused(P, 0, rec, 0.0, -1);
  for (double x : c) EXPECT_EQ(x, 0.0);
}

// A call where rank `late` entered `by` seconds after the root's exit and
// found its data; everybody else waited (root at position 0 exits at 1.0).
std::vector<arcoll_late_record_t> late_call(int P, int root, int late, double by, double t,
                                            uint64_t site = 77) {
  std::vector<double> e(P, 0.999), x(P, 1.0 + 3 * t);
  e[root] = 0.9999, x[root] = 1.0;
  if (late >= 0) e[late] = 1.0 + by, x[late] = 1.0 + by + 1e-8;
  for (int r = 0; r < P; ++r)  // the late rank's parent must be the root for a clean reference
    if (r != late && r != root && x[r] < e[r]) x[r] = e[r] + 2 * t;
  return call(P, root, e, t, 0, site, x);
}

// rec[r * S + j] from per-call record vectors
std::vector<arcoll_late_record_t> interleave(const std::vector<std::vector<arcoll_late_record_t>> &calls) {
  const int S = (int)calls.size(), P = (int)calls[0].size();
  std::vector<arcoll_late_record_t> rec((size_t)P * S);
  for (int j = 0; j < S; ++j)
    for (int r = 0; r < P; ++r) rec[(size_t)r * S + j] = calls[j][r];
  return rec;
}

TEST(Summary, GroupsBySiteAndRootAndAverages) {
  const int P = 8;
  const double t = 1e-5;
  // rank 1 (parent: the root 0) entered 2 ms after the root left; its
  // siblings got their data at 1.0 + 3 t (the reference: 1.0 + 2 t), so it
  // caused 2 ms - 3 t at call 0, nothing at call 1 (same group): mean
  // 1 ms - 1.5 t; call 2 has another root and site
  auto rec = interleave({late_call(P, 0, 1, 2e-3, t, 5), late_call(P, 0, -1, 0, t, 5),
                         late_call(P, 1, 2, 1e-3, t, 9)});
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(P, 40, 3, rec.data(), 0.0, &s), 0);
  EXPECT_EQ(s.first_call, 40u);
  EXPECT_EQ(s.nsampled, 3);
  ASSERT_EQ(s.ngroups, 2);
  EXPECT_EQ(s.group[0].site, 5u);
  EXPECT_EQ(s.group[0].root, 0);
  ASSERT_EQ(s.group[0].n, 1);
  EXPECT_EQ(s.group[0].late[0].rank, 1);
  EXPECT_NEAR(s.group[0].late[0].lateness, 1e-3 - 1.5 * t, 1e-7);
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
  ASSERT_EQ(arcoll_late_summarise(P, 0, 1, rec.data(), 0.0, &s), 0);
  // about half the ranks spent more time outside than the median one
  ASSERT_GE(s.group[0].n, 24);
  EXPECT_EQ(s.group[0].late[0].rank, 17);
  if (s.group[0].n == ARCOLL_LATE_LIST) {
    EXPECT_GT(s.group[0].noise, 0.0f);
    EXPECT_LE(s.group[0].noise, s.group[0].late[ARCOLL_LATE_LIST - 1].lateness);
  }
  EXPECT_LT(arcoll_late_threshold(0.0, s.group[0].noise), s.group[0].late[0].lateness);
}

TEST(Summary, PackUnpackRoundTripAndRejectsGarbage) {
  const int P = 16;
  auto rec = interleave({late_call(P, 0, 4, 0.2, 1e-5), late_call(P, 2, 3, 0.1, 1e-5, 3)});
  arcoll_late_summary_t s, u;
  ASSERT_EQ(arcoll_late_summarise(P, 7, 2, rec.data(), 0.0, &s), 0);
  std::vector<unsigned char> buf(ARCOLL_LATE_PACKED_MAX);
  const int n = arcoll_late_pack(&s, buf.data());
  EXPECT_LT(n, 200);  // compact: only the listed ranks travel
  ASSERT_EQ(arcoll_late_unpack(buf.data(), n, &u), 0);
  EXPECT_EQ(u.first_call, 7u);
  ASSERT_EQ(u.ngroups, s.ngroups);
  for (int g = 0; g < s.ngroups; ++g) {
    EXPECT_EQ(u.group[g].site, s.group[g].site);
    EXPECT_EQ(u.group[g].gap, s.group[g].gap);
    EXPECT_GT(u.group[g].gap, 0.0f);
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
  EXPECT_FLOAT_EQ(s.group[0].gap, 4e-3f);
  EXPECT_EQ(arcoll_late_streaming(&s, 0), 0);
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

// Nearly a stream (lateness.h arcoll_late_near_stream): gaps up to
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
