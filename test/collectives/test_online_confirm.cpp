// Unit tests of the online selection's steady-state confirmation
// (collectives/online_confirm.h): the explorer
// driven with synthetic sums / maxima over ranks and spans, no MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "compress_decide.h"
#include "online.h"
#include "online_confirm.h"

namespace {

// The candidates of round0(): K has the smallest sum over ranks, R (the
// model's best, cand[0]) the period that may tie or beat K's; as in the case
// the confirmation is for (32 KiB gather, one late rank: linear kept on its
// sum, binomial predicted faster).
constexpr int K = 1, R = 0;

// Round 0 of a (P = 64, 32 KiB) explorer of collective c, one trial per
// candidate, in units u of the best prediction: candidate K has the
// smallest sum over ranks (10 u) and max period max0, candidate R sum1 and
// max1; the others' periods are 3 u (out of any tie), their sums 12 u.
// confirm_block as the caller (ARCOLL_ONLINE_CONFIRM) sets it for c, or as
// given.  Returns the explorer after that round's decision.
arcoll_explorer_t round0(arcoll_coll_t c, arcoll_model_t &m, double max0, double sum1,
                         double max1, int confirm_block = -1, int k = K, int r = R,
                         double pred_ratio = 0) {
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  arcoll_explorer_t e;
  EXPECT_GE(arcoll_explorer_init(&e, &m, c, 64, 32768, 1, 4, 1, 0), 2) << arcoll_coll_name(c);
  e.check_at = 0;  // no imbalance check: the rounds alone
  if (confirm_block >= 0) e.confirm_block = confirm_block;
  const double u = e.cand[0].predicted_s;
  if (pred_ratio > 0) e.cand[k].predicted_s = pred_ratio * e.cand[r].predicted_s;
  std::vector<double> sum(e.n, 12.0 * u), max(e.n, 3.0 * u);
  sum[k] = 10.0 * u, max[k] = max0 * u;
  sum[r] = sum1 * u, max[r] = max1 * u;
  for (int i = 0; i < e.n; ++i) arcoll_explorer_record(&e, 0, 0);
  arcoll_explorer_decide_times(&e, sum.data(), max.data());
  return e;
}

// Candidate K's max period 2 % above candidate R's, a tie its smaller sum
// decides (K is kept).
arcoll_explorer_t round0_tie(arcoll_coll_t c, arcoll_model_t &m) {
  return round0(c, m, 1.02, 40.0, 1.0);
}

// Runs the confirmation's calls, each with period `kept` or `other`
// (seconds) as next() names the kept or the other configuration; returns
// how many calls of each ran, and checks that the synchronisation is due
// after the kept block's last call (2) and the decision after the last (1).
std::pair<int, int> run_confirmation(arcoll_explorer_t &e, double kept, double other) {
  const arcoll_choice_t best = e.best;
  int nk = 0, no = 0;
  for (int call = 0; call < 1000; ++call) {
    const arcoll_choice_t *ch = arcoll_explorer_next(&e);
    EXPECT_NE(ch, nullptr);
    if (!ch) break;
    const bool is_kept = ch->algo == best.algo && ch->segment_bytes == best.segment_bytes;
    if (is_kept) EXPECT_EQ(no, 0) << "the kept configuration runs before the other one";
    (is_kept ? nk : no) += 1;
    const int due = arcoll_explorer_record_period(&e, 0.5 * kept, is_kept ? kept : other, 0);
    EXPECT_EQ(due, nk + no == ARCOLL_ONLINE_CONFIRM_BLOCK ? 2 : nk + no == 2 * ARCOLL_ONLINE_CONFIRM_BLOCK ? 1 : 0);
    if (due == 1) break;
  }
  return {nk, no};
}

}  // namespace

TEST(OnlineConfirm, AShorterSteadyPeriodReplacesTheChoiceMadeOnTheSum) {
  arcoll_model_t m;
  arcoll_explorer_t e = round0_tie(ARCOLL_COLL_GATHER, m);
  const arcoll_choice_t c0 = e.cand[K], c1 = e.cand[R];
  ASSERT_EQ(e.best.algo, c0.algo);       // the sum decided the tie
  ASSERT_FALSE(e.finished);
  ASSERT_TRUE(e.confirming);
  EXPECT_EQ(e.confirm_alt.algo, c1.algo);  // against the shortest period
  const auto [nk, no] = run_confirmation(e, 2.37e-3, 1.80e-3);
  EXPECT_EQ(nk, ARCOLL_ONLINE_CONFIRM_BLOCK);
  EXPECT_EQ(no, ARCOLL_ONLINE_CONFIRM_BLOCK);
  // this rank's exits (its periods summed) opening / closing the second
  // half of each block
  const int half = ARCOLL_ONLINE_CONFIRM_BLOCK / 2;
  EXPECT_NEAR(e.confirm_exit[1] - e.confirm_exit[0], half * 2.37e-3, 1e-12);
  EXPECT_NEAR(e.confirm_exit[3] - e.confirm_exit[2], half * 1.80e-3, 1e-12);
  EXPECT_TRUE(e.confirming);  // until the decision
  EXPECT_EQ(arcoll_explorer_confirm_times(&e, e.confirm_exit), 1);
  EXPECT_TRUE(e.finished);
  EXPECT_FALSE(e.confirming);
  EXPECT_EQ(e.best.algo, c1.algo);
  EXPECT_TRUE(e.confirm_switched);
  EXPECT_NEAR(e.confirm_span[1], half * 1.80e-3, 1e-12);
  EXPECT_EQ(arcoll_explorer_next(&e), nullptr);
}

// The last rank out decides: a rank that ran ahead under the kept
// configuration waits in the other one's calls for the rest to catch up
// (its own span long), while the loop - the last rank's exits - runs faster.
TEST(OnlineConfirm, TheLastRankOutDecidesNotARankThatRanAhead) {
  arcoll_model_t m;
  arcoll_explorer_t e = round0_tie(ARCOLL_COLL_GATHER, m);
  const arcoll_choice_t c1 = e.cand[R];
  ASSERT_TRUE(e.confirming);
  const int half = ARCOLL_ONLINE_CONFIRM_BLOCK / 2;
  // exits (s) opening / closing the second half of each block: the rank
  // ahead left the kept block's calls early and waits in the other one's
  // for the root to catch up, 2.75 ms per call (its own span longer than
  // the kept one's); the root, last out, 2.37 then 1.80 ms per call
  const double ahead[4] = {0.001, 0.002, 0.020, 0.020 + half * 2.75e-3};
  const double root[4] = {0.010, 0.010 + half * 2.37e-3, 0.029, 0.029 + half * 1.80e-3};
  double last[4];
  for (int j = 0; j < 4; ++j) last[j] = std::max(ahead[j], root[j]);
  ASSERT_GT(ahead[3] - ahead[2], root[1] - root[0]);  // the case
  arcoll_explorer_confirm_times(&e, last);
  EXPECT_EQ(e.best.algo, c1.algo);
  EXPECT_NEAR(e.confirm_span[0], half * 2.37e-3, 1e-12);
}

TEST(OnlineConfirm, WithinTheToleranceTheChoiceOnTheSumStays) {
  for (double other : {2.30e-3, 2.37e-3, 2.60e-3}) {  // 3 % shorter, equal, longer
    arcoll_model_t m;
    arcoll_explorer_t e = round0_tie(ARCOLL_COLL_GATHER, m);
    const arcoll_choice_t c0 = e.cand[K];
    ASSERT_TRUE(e.confirming);
    run_confirmation(e, 2.37e-3, other);
    arcoll_explorer_confirm_times(&e, e.confirm_exit);
    EXPECT_TRUE(e.finished);
    EXPECT_EQ(e.best.algo, c0.algo) << other;
    EXPECT_FALSE(e.confirm_switched);
  }
}

TEST(OnlineConfirm, AFailedCallKeepsTheChoice) {
  arcoll_model_t m;
  arcoll_explorer_t e = round0_tie(ARCOLL_COLL_SCATTER, m);
  const arcoll_choice_t c0 = e.cand[K];
  ASSERT_TRUE(e.confirming);
  int due = 0;
  double clock = 0;
  for (int call = 0; !due && call < 100; ++call) {
    const arcoll_choice_t *ch = arcoll_explorer_next(&e);
    const bool other = ch->algo != c0.algo;
    clock += other ? 1e-4 : 2e-3;
    due = arcoll_explorer_record_exit(&e, clock, other && call % 2);  // the other fails twice
    if (due == 2) due = 0;  // between the blocks (arcoll_explorer_confirm_sync: MPI)
  }
  ASSERT_EQ(due, 1);
  EXPECT_TRUE(std::isinf(e.confirm_exit[3]));
  arcoll_explorer_confirm_times(&e, e.confirm_exit);
  EXPECT_EQ(e.best.algo, c0.algo);
  EXPECT_FALSE(e.confirm_switched);
}

TEST(OnlineConfirm, NoneForBcastReduceWhenOffOrWhenTheOthersAreFarSlower) {
  arcoll_model_t m;
  for (arcoll_coll_t c : {ARCOLL_COLL_BCAST, ARCOLL_COLL_REDUCE}) {
    arcoll_explorer_t e = round0_tie(c, m);
    EXPECT_EQ(e.confirm_block, 0) << arcoll_coll_name(c);
    EXPECT_TRUE(e.finished) << arcoll_coll_name(c);
    EXPECT_FALSE(e.confirming);
  }
  // gather with the confirmation off (ARCOLL_ONLINE_CONFIRM=0): ends as before
  arcoll_explorer_t e = round0(ARCOLL_COLL_GATHER, m, 1.02, 40.0, 1.0, 0);
  EXPECT_TRUE(e.finished);
  EXPECT_EQ(e.best.algo, e.cand[K].algo);
  // the other algorithms' periods not below arcoll_explorer_confirm_within()
  // x the kept one's (32 KiB: ARCOLL_ONLINE_CONFIRM_WITHIN_LARGE): nothing to
  // confirm; close losses and a tie the sum decided: confirmed
  ASSERT_EQ(arcoll_explorer_confirm_within(32768), ARCOLL_ONLINE_CONFIRM_WITHIN_LARGE);
  for (double rival : {1.3, 1.21, 1.01, 0.99}) {
    arcoll_explorer_t f = round0(ARCOLL_COLL_GATHER, m, 1.0, 12.0, rival);
    if (rival < 1.0) EXPECT_EQ(f.best_max_s, 1.0 * f.cand[0].predicted_s);  // K kept on its sum
    EXPECT_EQ(f.confirm_block, ARCOLL_ONLINE_CONFIRM_BLOCK);
    EXPECT_EQ(f.best.algo, f.cand[K].algo);
    const bool close = rival < ARCOLL_ONLINE_CONFIRM_WITHIN_LARGE;
    EXPECT_EQ(f.finished, !close) << rival;
    EXPECT_EQ(f.confirming, close) << rival;
    if (close) EXPECT_EQ(f.confirm_alt.algo, f.cand[R].algo);
  }
}

// The model predicted the kept configuration faster than the other one:
// the transient measurement agrees with it, nothing to confirm (SMPI flat
// P = 64, 32 KiB gather, balanced: binomial kept on its period, 2.17 ms
// against linear's 2.40, model 2.11 / 2.51; confirming it cost 1.2 s of the
// 200 calls' 13.2 s inside, ranks ahead waiting in the barrier).  The same
// periods with the kept one predicted slower, or without predictions: confirmed.
TEST(OnlineConfirm, NoneWhenTheModelRanksTheKeptOneFirst) {
  arcoll_model_t m;
  // kept: cand[R], predicted at 0.84 x cand[K] (2.11 / 2.51 ms)
  arcoll_explorer_t e = round0(ARCOLL_COLL_GATHER, m, 1.0, 40.0, 1.1, -1, R, K, 0.84);
  EXPECT_EQ(e.best.algo, e.cand[R].algo);
  EXPECT_TRUE(e.finished);
  EXPECT_FALSE(e.confirming);
  EXPECT_TRUE(arcoll_explorer_model_agrees(&e.cand[R], &e.cand[K]));
  EXPECT_FALSE(arcoll_explorer_model_agrees(&e.cand[K], &e.cand[R]));
  // predicted within ARCOLL_ONLINE_MAX_TOLERANCE (a tie for the model), or
  // the kept one predicted slower: confirmed
  for (double ratio : {0.97, 1.0, 1.19}) {
    arcoll_explorer_t f = round0(ARCOLL_COLL_GATHER, m, 1.0, 40.0, 1.1, -1, R, K, ratio);
    EXPECT_EQ(f.best.algo, f.cand[R].algo) << ratio;
    EXPECT_TRUE(f.confirming) << ratio;
  }
  // no prediction: confirmed
  arcoll_choice_t a = e.cand[R], b = e.cand[K];
  a.predicted_s = -1;
  EXPECT_FALSE(arcoll_explorer_model_agrees(&a, &b));
  EXPECT_FALSE(arcoll_explorer_model_agrees(&b, &a));
}

// The period decides (critical path first, online.h): a shorter-period
// configuration is confirmed even when its sum over ranks is 100 x the kept
// one's (its ranks wait inside, e.g. binomial's inner ranks for their
// subtrees, where linear lets them leave at once).
TEST(OnlineConfirm, RunsWhateverTheOtherOnesSumOverRanks) {
  arcoll_model_t m;
  arcoll_explorer_t e = round0(ARCOLL_COLL_GATHER, m, 1.02, 1000.0, 1.0);
  EXPECT_EQ(e.best.algo, e.cand[K].algo);
  EXPECT_TRUE(e.confirming);
  EXPECT_EQ(e.confirm_alt.algo, e.cand[R].algo);
}

// Below 8 KiB only a tie the sum decided is confirmed (factor 1): a close
// loss is not, its blocks cost more than they gained on small messages.
TEST(OnlineConfirm, SmallMessagesConfirmTiesOnly) {
  EXPECT_EQ(arcoll_explorer_confirm_within(8), ARCOLL_ONLINE_CONFIRM_WITHIN);
  EXPECT_EQ(arcoll_explorer_confirm_within(ARCOLL_ONLINE_SKEW_MAX_BYTES - 1), ARCOLL_ONLINE_CONFIRM_WITHIN);
  EXPECT_EQ(arcoll_explorer_confirm_within(ARCOLL_ONLINE_SKEW_MAX_BYTES), ARCOLL_ONLINE_CONFIRM_WITHIN_LARGE);
  EXPECT_GT(ARCOLL_ONLINE_CONFIRM_WITHIN_LARGE, ARCOLL_ONLINE_CONFIRM_WITHIN);
}

// The compressed algorithm is no confirmation rival: a tie with the kept
// one is its raw form's (the data did not shrink); the next closest
// algorithm is confirmed instead (32 KiB gather: binomial's period 1.2x
// linear's, compressed's equal).
TEST(OnlineConfirm, CompressedIsNoRival) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 0, 0);
  arcoll_explorer_t e;
  ASSERT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_GATHER, 64, 32768, 1, 4, 1, 0), 3);
  e.check_at = 0;
  int lin = -1, bin = -1, z = -1;
  for (int i = 0; i < e.n; ++i) {
    const std::string n = e.cand[i].algo->name;
    if (n == "linear") lin = i;
    if (n == "binomial") bin = i;
    if (n == "compressed") z = i;
  }
  ASSERT_TRUE(lin >= 0 && bin >= 0 && z >= 0) << "the case needs linear, binomial and compressed";
  const double u = e.cand[0].predicted_s;
  std::vector<double> sum(e.n, 30.0 * u), max(e.n, 3.0 * u);
  sum[lin] = 10.0 * u, max[lin] = 1.0 * u;
  sum[z] = 10.5 * u, max[z] = 1.0 * u;
  sum[bin] = 100.0 * u, max[bin] = 1.2 * u;
  for (int i = 0; i < e.n; ++i) arcoll_explorer_record(&e, 0, 0);
  arcoll_explorer_decide_times(&e, sum.data(), max.data());
  EXPECT_STREQ(e.best.algo->name, "linear");
  ASSERT_TRUE(e.confirming);
  EXPECT_STREQ(e.confirm_alt.algo->name, "binomial");
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 0, 0);
}
