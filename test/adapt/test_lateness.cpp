// Unit tests of adapt/lateness.c's caused-lateness measure (arcoll_late_caused):
// who is charged, against which reference, missing records.  The summary, its
// wire format, the interval, the schedule, quiet arrivals and streaming:
// test_lateness_summary.cpp.  No MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "late_records.hpp"

extern "C" {
#include "lateness.h"
#include "tree_extra.h"
}

namespace {

using late_records::call;

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

}  // namespace
