// Unit tests of adapt/late_trees.c: which calls are a trial of the tolerant
// trees, and the comparison of their records.  No MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

extern "C" {
#include "late_trees.h"
}

namespace {

// Records [P x S]: call j of rank r inside for inside(r, j) seconds, call j a
// trial of tree[j] (0 none, 1 first = binary, 2 second = binomial).
template <class F>
std::vector<arcoll_late_record_t> trial(int P, const std::vector<int> &tree, F inside) {
  const int S = (int)tree.size();
  std::vector<arcoll_late_record_t> rec((size_t)P * S);
  for (int r = 0; r < P; ++r)
    for (int j = 0; j < S; ++j) {
      arcoll_late_record_t &x = rec[(size_t)r * S + j];
      x.entry = 1.0 + j * 1e-3;
      x.exit = x.entry + inside(r, j);
      x.flags = ARCOLL_LATE_VALID | (tree[j] == 1 ? ARCOLL_LATE_BINARY : 0) |
                (tree[j] ? ARCOLL_LATE_TRIAL : 0);
    }
  return rec;
}

const std::vector<int> kHalves = {1, 1, 1, 1, 2, 2, 2, 2};

}  // namespace

// The trial is the window of ARCOLL_LATE_SAMPLES calls the next exchange
// samples, first tree then second; nothing before a summary or while an
// exchange is pending.
TEST(TolerantTrees, TrialIsTheNextExchangesWindowInHalves) {
  const uint64_t next = 40;
  for (uint64_t c = 0; c < 50; ++c) {
    const int want = c < next - ARCOLL_LATE_SAMPLES || c >= next ? ARCOLL_TREES_UNDECIDED
                     : c < next - ARCOLL_LATE_SAMPLES / 2      ? ARCOLL_TREES_FIRST
                                                               : ARCOLL_TREES_SECOND;
    EXPECT_EQ(arcoll_late_trial_tree(c, next, 0, 1), want) << c;
    EXPECT_EQ(arcoll_late_trial_tree(c, next, 1, 1), ARCOLL_TREES_UNDECIDED) << c;
    EXPECT_EQ(arcoll_late_trial_tree(c, next, 0, 0), ARCOLL_TREES_UNDECIDED) << c;
  }
  EXPECT_EQ(arcoll_late_trial_tree(0, 3, 0, 1), ARCOLL_TREES_SECOND);  // window cut at call 0
}

// The tree with the smaller mean per-call sum wins; the first call of each
// half (after the other tree) does not count; the second must be more than
// ARCOLL_TREES_TOLERANCE faster.
TEST(TolerantTrees, SmallerSumWinsFirstCallOfEachHalfLeftOut) {
  const int P = 8;
  double mean[2];
  // binomial 20 % faster per rank in the counted calls; its first call (after
  // binary's pipeline) 10x slower - left out
  auto faster_second = trial(P, kHalves, [](int, int j) { return j == 4 ? 1e-2 : j < 4 ? 1e-3 : 0.8e-3; });
  EXPECT_EQ(arcoll_late_trees_compare(P, 8, faster_second.data(), mean), ARCOLL_TREES_SECOND);
  EXPECT_NEAR(mean[0], P * 1e-3, 1e-12);
  EXPECT_NEAR(mean[1], P * 0.8e-3, 1e-12);
  // binary faster: first
  auto faster_first = trial(P, kHalves, [](int, int j) { return j < 4 ? 1e-3 : 2e-3; });
  EXPECT_EQ(arcoll_late_trees_compare(P, 8, faster_first.data(), mean), ARCOLL_TREES_FIRST);
  // 1 % apart: a tie, the first stays
  auto tie = trial(P, kHalves, [](int, int j) { return j < 4 ? 1e-3 : 0.99e-3; });
  EXPECT_EQ(arcoll_late_trees_compare(P, 8, tie.data(), nullptr), ARCOLL_TREES_FIRST);
  // one slow rank's calls count in both halves alike (a late leaf)
  auto late = trial(P, kHalves, [](int r, int j) { return r == 3 ? 5e-2 : j < 4 ? 1e-3 : 0.5e-3; });
  EXPECT_EQ(arcoll_late_trees_compare(P, 8, late.data(), nullptr), ARCOLL_TREES_SECOND);
}

// Undecided: fewer than 2 counted calls of a tree, no trial, fewer than half
// the ranks with every record (those that are missing one are left out).
TEST(TolerantTrees, UndecidedWithoutEnoughCallsOrRanks) {
  const int P = 8;
  double mean[2];
  auto short_second = trial(P, {1, 1, 1, 1, 1, 2, 2, 0}, [](int, int) { return 1e-3; });
  EXPECT_EQ(arcoll_late_trees_compare(P, 8, short_second.data(), mean), ARCOLL_TREES_UNDECIDED);
  EXPECT_NEAR(mean[1], P * 1e-3, 1e-12);  // one counted call
  auto none = trial(P, {0, 0, 0, 0, 0, 0, 0, 0}, [](int, int) { return 1e-3; });
  EXPECT_EQ(arcoll_late_trees_compare(P, 8, none.data(), mean), ARCOLL_TREES_UNDECIDED);
  EXPECT_TRUE(std::isnan(mean[0]) && std::isnan(mean[1]));
  auto rec = trial(P, kHalves, [](int, int j) { return j < 4 ? 1e-3 : 0.5e-3; });
  for (int r = 0; r < P / 2; ++r) rec[(size_t)r * 8 + (r % 8)].flags = 0;  // half miss one record
  EXPECT_EQ(arcoll_late_trees_compare(P, 8, rec.data(), mean), ARCOLL_TREES_SECOND);
  EXPECT_NEAR(mean[1], (P / 2) * 0.5e-3, 1e-12);  // the other half only
  rec[(size_t)(P - 1) * 8].flags = 0;  // one more: fewer than half
  EXPECT_EQ(arcoll_late_trees_compare(P, 8, rec.data(), nullptr), ARCOLL_TREES_UNDECIDED);
}

// The coordinator waits for the ranks not late, less 1 + P/32, only when its
// sampled calls hold a trial.
TEST(TolerantTrees, WaitForTheRanksNotLateOnlyInATrial) {
  const int P = 64;
  std::vector<unsigned char> late(P, 0);
  late[24] = late[40] = 1;
  auto rec = trial(1, kHalves, [](int, int) { return 1e-3; });  // this rank's 8 records
  EXPECT_EQ(arcoll_late_trial_wait(P, 0, late.data(), rec.data(), 8), P - 1 - 2 - (1 + P / 32));
  auto plain = trial(1, {0, 0, 0, 0, 0, 0, 0, 0}, [](int, int) { return 1e-3; });
  EXPECT_EQ(arcoll_late_trial_wait(P, 0, late.data(), plain.data(), 8), 0);
  std::vector<unsigned char> few(3, 0);
  EXPECT_EQ(arcoll_late_trial_wait(3, 1, few.data(), rec.data(), 8), 1);  // 2 - 1 - 0
  EXPECT_EQ(arcoll_late_trial_wait(2, 0, few.data(), rec.data(), 8), 0);  // never negative
}

// A trial decides when the late set stayed, or when the one before chose the
// same; ARCOLL_TREES_MAX_TRIALS voided ones leave the first tree; nothing
// changes a decision.
TEST(TolerantTrees, FoldDecidesOnAStableLateSetOrTwoAgreeingTrials) {
  const int U = ARCOLL_TREES_UNDECIDED, F = ARCOLL_TREES_FIRST, S = ARCOLL_TREES_SECOND;
  // (result, late set changed) folded in turn -> the decision after each
  auto decisions = [](const std::vector<std::pair<int, int>> &seq) {
    arcoll_late_trials_t t{};
    std::vector<int> out;
    for (auto [result, changed] : seq) arcoll_late_trees_fold(&t, result, changed), out.push_back(t.trees);
    return out;
  };
  EXPECT_EQ(decisions({{U, 0}, {S, 0}, {F, 0}}), (std::vector<int>{U, S, S}));
  // a late rank that moves: every summary changes the late set
  EXPECT_EQ(decisions({{S, 1}, {F, 1}, {F, 1}}), (std::vector<int>{U, U, F}));
  arcoll_late_trials_t v{};  // never two alike: the first tree after the limit
  for (int i = 0; i < ARCOLL_TREES_MAX_TRIALS; ++i) {
    EXPECT_EQ(v.trees, ARCOLL_TREES_UNDECIDED) << i;
    arcoll_late_trees_fold(&v, i % 2 ? ARCOLL_TREES_FIRST : ARCOLL_TREES_SECOND, 1);
  }
  EXPECT_EQ(v.trees, ARCOLL_TREES_FIRST);
}

// A trial whose records were incomplete when the wait's budget was spent
// decides nothing, keeps the last result for the next trial to agree with, and
// counts toward ARCOLL_TREES_MAX_TRIALS like a trial that did not decide.
TEST(TolerantTrees, VoidTrialDecidesNothingAndCountsAsVoided) {
  const int U = ARCOLL_TREES_UNDECIDED, F = ARCOLL_TREES_FIRST, S = ARCOLL_TREES_SECOND,
            V = ARCOLL_TREES_VOID;
  auto decisions = [](const std::vector<std::pair<int, int>> &seq) {
    arcoll_late_trials_t t{};
    std::vector<int> out;
    for (auto [result, changed] : seq) arcoll_late_trees_fold(&t, result, changed), out.push_back(t.trees);
    return out;
  };
  // void, even with the late set steady; then a steady trial decides
  EXPECT_EQ(decisions({{V, 0}, {S, 0}}), (std::vector<int>{U, S}));
  // a void trial between two that agree under a changing late set: they still agree
  EXPECT_EQ(decisions({{S, 1}, {V, 1}, {S, 1}}), (std::vector<int>{U, U, S}));
  // void trials alone: the first tree after the limit
  std::vector<std::pair<int, int>> voids(ARCOLL_TREES_MAX_TRIALS, {V, 0});
  std::vector<int> expect(ARCOLL_TREES_MAX_TRIALS, U);
  expect.back() = F;
  EXPECT_EQ(decisions(voids), expect);
  // mixed: one changed trial, then voids up to the limit
  std::vector<std::pair<int, int>> mixed = {{S, 1}};
  for (int i = 1; i < ARCOLL_TREES_MAX_TRIALS; ++i) mixed.push_back({V, 1});
  EXPECT_EQ(decisions(mixed).back(), F);
}

// A rank reaches the coordinator's call `calls` of its shortest period after
// its last record (a trial's slower half is not its pace); one record: at once.
TEST(TolerantTrees, ReadyAtProjectsTheRanksShortestPeriod) {
  std::vector<arcoll_late_record_t> rec(8);
  for (int j = 0; j < 8; ++j) rec[j].entry = 1.0 + 1e-3 * j, rec[j].exit = rec[j].entry + 1e-4;
  EXPECT_NEAR(arcoll_late_ready_at(rec.data(), 8, 8), 1.0071 + 8e-3, 1e-12);
  for (int j = 4; j < 8; ++j) rec[j].exit += 2e-3 * (j - 3);  // slower second half: 3 ms apart
  EXPECT_NEAR(arcoll_late_ready_at(rec.data(), 8, 8), rec[7].exit + 8e-3, 1e-12);
  EXPECT_NEAR(arcoll_late_ready_at(rec.data(), 1, 8), 1.0001, 1e-12);
  EXPECT_TRUE(std::isnan(arcoll_late_ready_at(rec.data(), 0, 8)));
}

// The deadline spends the budget on the ranks waiting by then: one rank
// ready at 0 waits the whole budget; two ready at 0 and 1 with budget 3
// wait 2 + 1; a rank ready after the deadline costs nothing.
TEST(TolerantTrees, TrialDeadlineSpendsTheBudgetOnTheWaitingRanks) {
  std::vector<double> one = {0.0};
  EXPECT_DOUBLE_EQ(arcoll_late_trial_deadline(one.data(), 1, 2.5), 2.5);
  std::vector<double> two = {1.0, 0.0};  // any order
  EXPECT_DOUBLE_EQ(arcoll_late_trial_deadline(two.data(), 2, 3.0), 2.0);
  std::vector<double> late = {0.0, 10.0};
  EXPECT_DOUBLE_EQ(arcoll_late_trial_deadline(late.data(), 2, 3.0), 3.0);
  std::vector<double> many(64);
  for (int i = 0; i < 64; ++i) many[i] = 1e-3 * (i % 8);
  const double tau = arcoll_late_trial_deadline(many.data(), 64, 0.05);
  double spent = 0.0;
  for (double r : many) spent += std::max(0.0, tau - r);
  EXPECT_NEAR(spent, 0.05, 1e-12);
  std::vector<double> none = {4.0};
  EXPECT_DOUBLE_EQ(arcoll_late_trial_deadline(none.data(), 1, 0.0), 4.0);
  EXPECT_TRUE(std::isinf(arcoll_late_trial_deadline(none.data(), 0, 1.0)));
  EXPECT_TRUE(std::isinf(arcoll_late_trial_deadline(none.data(), 1, INFINITY)));
}
