// Unit tests of the confirmation after a transient (online_confirm.h
// arcoll_explorer_transient): a configuration kept on a period far below
// what the model predicts for one call, against the model's order, is
// confirmed in synchronised blocks against the model's favourite.  The
// explorer of a 32 KiB scatter at P = 64 with the calibrated model of
// tools/platforms/cluster256.xml (binomial predicted 2.11 ms, linear 2.51),
// driven with synthetic sums / maxima over ranks; no MPI.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compress_decide.h"
#include "online.h"
#include "online_confirm.h"

namespace {

struct Round0 {
  arcoll_model_t m;
  arcoll_explorer_t e;
  int lin = -1, bin = -1;
};

// Round 0 of the scatter explorer, one trial per candidate: linear with sum
// over ranks lin_sum and max period lin_max, binomial 0.043 s and 2.78 ms
// (seconds; SMPI flat P = 64, 32 KiB, root c mod P at call c: linear's eager
// blocks measured right after binomial's calls, 0.0039 s and 0.10 ms).
// confirm_block >= 0: as ARCOLL_ONLINE_CONFIRM sets it (0: off).
// bin_sum, bin_max > 0: binomial's instead.
void round0(Round0 &r, double lin_sum, double lin_max, MPI_Aint bytes = 32768,
            int confirm_block = -1, double bin_sum = 0.043, double bin_max = 2.78e-3) {
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &r.m, err, sizeof err), 0) << err;
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  ASSERT_GE(arcoll_explorer_init(&r.e, &r.m, ARCOLL_COLL_SCATTER, 64, bytes, 1, 4, 1, 0), 2);
  r.e.check_at = 0;
  if (confirm_block >= 0) r.e.confirm_block = confirm_block;
  for (int i = 0; i < r.e.n; ++i) {
    const std::string n = r.e.cand[i].algo->name;
    if (n == "linear") r.lin = i;
    if (n == "binomial") r.bin = i;
  }
  ASSERT_TRUE(r.lin >= 0 && r.bin >= 0) << "the case needs linear and binomial";
  std::vector<double> sum(r.e.n, 1.0), max(r.e.n, 1.0);
  sum[r.lin] = lin_sum, max[r.lin] = lin_max;
  sum[r.bin] = bin_sum, max[r.bin] = bin_max;
  for (int i = 0; i < r.e.n; ++i) arcoll_explorer_record(&r.e, 0, 0);
  arcoll_explorer_decide_times(&r.e, sum.data(), max.data());
}

}  // namespace

// Linear kept on a period 25 x below its prediction, binomial predicted
// faster: confirmed against binomial in blocks of
// ARCOLL_ONLINE_CONFIRM_TRANSIENT_BLOCK calls, whatever binomial's period
// (27 x linear's here); its steady calls (summed over ranks 0.152 s a call,
// loop 2.4 ms, against binomial's 1 ms) make binomial the choice.
TEST(OnlineTransient, AChoiceFarFasterThanPredictedIsConfirmedAgainstTheModelsFavourite) {
  Round0 r;
  round0(r, 0.0039, 1.02e-4);
  arcoll_explorer_t &e = r.e;
  ASSERT_GT(e.cand[r.lin].predicted_s, (1.0 + ARCOLL_ONLINE_MAX_TOLERANCE) * e.cand[r.bin].predicted_s)
      << "the model ranks binomial first";
  EXPECT_EQ(e.best.algo, e.cand[r.lin].algo);  // round 0 kept linear
  const int fav = arcoll_explorer_transient(&e);
  ASSERT_GE(fav, 0);
  EXPECT_EQ(e.rival[fav].algo, e.cand[r.bin].algo);
  ASSERT_TRUE(e.confirming);
  EXPECT_FALSE(e.finished);
  EXPECT_EQ(e.confirm_alt.algo, e.cand[r.bin].algo);
  EXPECT_EQ(e.confirm_block, ARCOLL_ONLINE_CONFIRM_TRANSIENT_BLOCK);
  double clock = 0;
  int due = 0, nlin = 0, nbin = 0;
  for (int call = 0; call < 100 && due != 1; ++call) {
    const arcoll_choice_t *ch = arcoll_explorer_next(&e);
    ASSERT_NE(ch, nullptr);
    const bool lin = ch->algo == e.cand[r.lin].algo;
    (lin ? nlin : nbin) += 1;
    clock += lin ? 2.4e-3 : 1.0e-3;
    due = arcoll_explorer_record_exit(&e, clock, 0);
  }
  EXPECT_EQ(nlin, ARCOLL_ONLINE_CONFIRM_TRANSIENT_BLOCK);
  EXPECT_EQ(nbin, ARCOLL_ONLINE_CONFIRM_TRANSIENT_BLOCK);
  arcoll_explorer_confirm_times(&e, e.confirm_exit);
  EXPECT_TRUE(e.finished);
  EXPECT_EQ(e.best.algo, e.cand[r.bin].algo);
  EXPECT_TRUE(e.confirm_switched);
}

// Not a transient: linear's period and mean time inside above a quarter of
// its prediction (kept, binomial's period longer: nothing to confirm; a
// scatter's mean time inside below it is one, the period holding a late
// rank's delay), the model ranking linear
// first (8 B: linear predicted 5.6 us against binomial's 25 us, measured 11
// us), or below ARCOLL_ONLINE_SKEW_MAX_BYTES.
TEST(OnlineTransient, OnlyWhenThePeriodOrAScattersTimeInsideIsImplausible) {
  {
    Round0 r;
    round0(r, 0.0039, 0);
    const double pred = r.e.cand[r.lin].predicted_s;
    Round0 q;
    round0(q, 64 * 0.3 * pred, 0.3 * pred);  // mean time inside as long as the period
    EXPECT_EQ(q.e.best.algo, q.e.cand[q.lin].algo);
    EXPECT_EQ(arcoll_explorer_transient(&q.e), -1);
    EXPECT_TRUE(q.e.finished);
    EXPECT_FALSE(q.e.confirming);
    Round0 t;  // just below the quarter: confirmed
    round0(t, 64 * 0.3 * pred, 0.24 * pred);
    EXPECT_TRUE(t.e.confirming);
    EXPECT_EQ(t.e.confirm_alt.algo, t.e.cand[t.bin].algo);
  }
  Round0 s;
  round0(s, 3.5e-4, 1.1e-5, 8);
  ASSERT_LT(s.e.cand[s.lin].predicted_s, s.e.cand[s.bin].predicted_s) << "8 B: the model ranks linear first";
  EXPECT_EQ(s.e.best.algo, s.e.cand[s.lin].algo);
  EXPECT_EQ(arcoll_explorer_transient(&s.e), -1);
  EXPECT_FALSE(s.e.confirming);
  // a rank late by 1 ms before each call: linear's max period 1.04 ms, above
  // a quarter of its prediction, its mean time inside 0.06 ms: confirmed
  Round0 l;
  round0(l, 0.00394, 1.04e-3);
  ASSERT_GT(1.04e-3, l.e.cand[l.lin].predicted_s / ARCOLL_ONLINE_MODEL_OFF);
  EXPECT_EQ(l.e.best.algo, l.e.cand[l.lin].algo);
  EXPECT_TRUE(l.e.confirming);
  // the same period with linear's mean time inside at 0.3 x its prediction: not
  Round0 k;
  round0(k, 64 * 0.3 * l.e.cand[l.lin].predicted_s, 1.04e-3);
  EXPECT_EQ(k.e.best.algo, k.e.cand[k.lin].algo);
  EXPECT_FALSE(k.e.confirming);
  // 8 B, binomial kept on a period 25 x below its prediction against the
  // model's linear: back-to-back calls overlap their latencies, not a transient
  Round0 b;
  round0(b, 1.0, 1e-4, 8, -1, 3.5e-4, 1e-6);
  EXPECT_EQ(b.e.best.algo, b.e.cand[b.bin].algo);
  ASSERT_LT(1e-6, b.e.cand[b.bin].predicted_s / ARCOLL_ONLINE_MODEL_OFF);
  EXPECT_EQ(arcoll_explorer_transient(&b.e), -1);
  EXPECT_TRUE(b.e.finished);
  // switched off (ARCOLL_ONLINE_CONFIRM=0): no confirmation either
  Round0 o;
  round0(o, 0.0039, 1.02e-4, 32768, 0);
  EXPECT_TRUE(o.e.finished);
  EXPECT_FALSE(o.e.confirming);
  EXPECT_EQ(o.e.best.algo, o.e.cand[o.lin].algo);
}
