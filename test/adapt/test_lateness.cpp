// Unit tests of adapt/lateness.c: the caused-lateness measure, the summary
// (grouping, listing, noise level), its wire format, the exchange interval
// and the coordinator choice.  No MPI.
#include <gtest/gtest.h>

#include <vector>

extern "C" {
#include "lateness.h"
}

namespace {

// Records of one call: rank r at position (r - root) mod P (the classic
// order), entering at entry[r]; t_level per tree level.
std::vector<arcoll_late_record_t> call(int P, int root, const std::vector<double> &entry,
                                       double t_level, int chain = 0, uint64_t site = 77) {
  std::vector<arcoll_late_record_t> rec(P);
  for (int r = 0; r < P; ++r) {
    rec[r].entry = entry[r];
    rec[r].site = site + (r == root ? 0 : 1000 + r);  // only the root's site counts
    rec[r].pos = (r - root + P) % P;
    rec[r].root = root;
    rec[r].t_level = (float)t_level;
    rec[r].flags = ARCOLL_LATE_VALID | (chain ? ARCOLL_LATE_CHAIN : 0);
  }
  return rec;
}

std::vector<double> caused(int P, int root, const std::vector<arcoll_late_record_t> &rec,
                           double missing = 0.0, int expect_rc = 0) {
  std::vector<int> scratch(3 * P);
  std::vector<double> a(P), c(P, -1.0);
  EXPECT_EQ(arcoll_late_caused(P, root, rec.data(), missing, scratch.data(), a.data(), c.data()),
            expect_rc);
  return c;
}

TEST(Caused, PipelinedEntriesAreNotLateness) {
  // back-to-back broadcast: the root ran ahead, every rank enters about when
  // its data arrives along the binomial tree (depth = popcount of its
  // position): nobody caused anything
  const int P = 16;
  const double t = 10e-6;
  std::vector<double> e(P);
  for (int r = 0; r < P; ++r) e[r] = 1.0 + t * (__builtin_popcount(r) - 0.5 * (r > 0));
  auto c = caused(P, 0, call(P, 0, e, t));
  for (int r = 0; r < P; ++r) EXPECT_EQ(c[r], 0.0) << r;
}

TEST(Caused, OnlyTheLateRankIsCharged) {
  // rank 4 (an inner node: children 5, 6) enters 1 ms late; its children
  // enter on time but get the data late: inherited, not caused
  const int P = 8, root = 0;
  const double t = 10e-6;
  std::vector<double> e(P, 1.0);
  e[4] = 1.001;
  auto c = caused(P, root, call(P, root, e, t));
  EXPECT_NEAR(c[4], 1e-3 - t, 1e-9);
  for (int r = 0; r < P; ++r)
    if (r != 4) EXPECT_EQ(c[r], 0.0) << r;
}

TEST(Caused, ChainParentIsThePreviousPosition) {
  const int P = 6, root = 2;
  const double t = 5e-6;
  std::vector<double> e(P, 0.0);
  // positions 0..5 = ranks 2,3,4,5,0,1; position p could have the data at p t
  for (int p = 0; p < P; ++p) e[(root + p) % P] = p * t;
  e[(root + 3) % P] = 3 * t + 2e-4;  // position 3 late by 200 us
  auto c = caused(P, root, call(P, root, e, t, 1));
  EXPECT_NEAR(c[(root + 3) % P], 2e-4, 1e-9);
  EXPECT_EQ(c[(root + 4) % P], 0.0);  // delayed by it, did not cause it
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

TEST(Caused, InconsistentPositionsAreRejected) {
  const int P = 4;
  auto rec = call(P, 0, std::vector<double>(P, 1.0), 1e-5);
  rec[2].pos = 1;  // two ranks claim position 1
  auto c = caused(P, 0, rec, 0.0, -1);
  for (double x : c) EXPECT_EQ(x, 0.0);
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
  std::vector<double> e(P, 1.0), e3(P, 1.0);
  e[3] = 1.0 + 2e-3 + 2 * t;  // rank 3 (depth 2) caused 2 ms at call 0
  e3[3] = 1.0 + t;         // and nothing at call 1 (same group): mean 1 ms
  auto rec = interleave({call(P, 0, e, t, 0, 5), call(P, 0, e3, t, 0, 5), call(P, 1, e, t, 0, 9)});
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(P, 40, 3, rec.data(), 0.0, &s), 0);
  EXPECT_EQ(s.first_call, 40u);
  EXPECT_EQ(s.nsampled, 3);
  ASSERT_EQ(s.ngroups, 2);
  EXPECT_EQ(s.group[0].site, 5u);
  EXPECT_EQ(s.group[0].root, 0);
  ASSERT_EQ(s.group[0].n, 1);
  EXPECT_EQ(s.group[0].late[0].rank, 3);
  EXPECT_NEAR(s.group[0].late[0].lateness, 1e-3, 1e-7);
  EXPECT_EQ(s.group[1].site, 9u);  // the root's site, not the others'
  EXPECT_EQ(s.group[1].root, 1);
  EXPECT_EQ(s.seq_site[2], 9u);
  EXPECT_EQ(s.seq_root[2], 1);
  EXPECT_EQ(s.group[0].noise, 0.0f);
}

TEST(Summary, ManyLateRanksSetTheNoiseLevel) {
  const int P = 64;
  std::vector<double> e(P, 1.0);
  for (int r = 1; r < P; ++r) e[r] = 1.0 + 1e-6 * r;  // everybody a little late
  e[17] = 1.01;
  auto rec = interleave({call(P, 0, e, 0.0)});
  arcoll_late_summary_t s;
  ASSERT_EQ(arcoll_late_summarise(P, 0, 1, rec.data(), 0.0, &s), 0);
  ASSERT_EQ(s.group[0].n, ARCOLL_LATE_LIST);
  EXPECT_EQ(s.group[0].late[0].rank, 17);
  EXPECT_GT(s.group[0].noise, 0.0f);
  EXPECT_LT(s.group[0].noise, s.group[0].late[ARCOLL_LATE_LIST - 1].lateness + 1e-12f);
  EXPECT_GT(arcoll_late_threshold(0.0, s.group[0].noise), 0.0);
  EXPECT_LT(arcoll_late_threshold(0.0, s.group[0].noise), s.group[0].late[0].lateness);
}

TEST(Summary, PackUnpackRoundTripAndRejectsGarbage) {
  const int P = 16;
  std::vector<double> e(P, 1.0);
  e[5] = 1.2, e[9] = 1.1;
  auto rec = interleave({call(P, 0, e, 1e-5), call(P, 2, e, 1e-5, 0, 3)});
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
  int k = ARCOLL_LATE_MIN_INTERVAL;
  std::vector<int> seen;
  for (int i = 0; i < 6; ++i) seen.push_back(k = arcoll_late_next_interval(k, 0, 4));
  EXPECT_EQ(seen, (std::vector<int>{8, 16, 32, 64, 64, 64}));
  EXPECT_EQ(arcoll_late_next_interval(64, 1, 4), 4);
  EXPECT_EQ(arcoll_late_next_interval(64, 1, 16), 16);
  EXPECT_EQ(arcoll_late_next_interval(8, 0, 16), 16);   // never below the minimum
  EXPECT_EQ(arcoll_late_next_interval(4, 1, 1), ARCOLL_LATE_MIN_INTERVAL);
}

TEST(Coordinator, HighestRankThatIsNeitherLateNorRoot) {
  arcoll_late_summary_t s{};
  s.ngroups = 1;
  s.group[0].root = 7;
  std::vector<unsigned char> late(8, 0);
  EXPECT_EQ(arcoll_late_coordinator(8, &s, late.data()), 6);
  late[6] = 1;
  EXPECT_EQ(arcoll_late_coordinator(8, &s, late.data()), 5);
  s.ngroups = 0;
  EXPECT_EQ(arcoll_late_coordinator(8, &s, late.data()), 7);
}

}  // namespace
