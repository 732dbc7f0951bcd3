// Unit tests of the band within which round 0's sums over ranks decide
// (collectives/online.c arcoll_explorer_decide_periods, `outside_s`): it is
// ARCOLL_ONLINE_MAX_TOLERANCE of the fastest max period less the time
// every rank spends outside the collective, so computation between calls,
// in every candidate's period alike, does not widen it.  Synthetic times,
// no MPI: the reduced arrays (sums, max and min periods, min time outside) are
// written as the exchange would leave them.
#include <gtest/gtest.h>

#include <cmath>

#include "compress_decide.h"
#include "online.h"

namespace {

// Round 0 of an 8 B allreduce explorer (P = 64, 4 candidates, 2 trials)
// where cand[1] has the fastest critical path, its period c beyond the
// computation w every rank does between calls, and 4x the others' sum over
// ranks (the other ranks wait less inside); the others' periods are
// w + c (1 + gap).  Returns round 0's best
// and sets *fast to cand[1].
const arcoll_algo_desc_t *round0_best(double w, double gap, const arcoll_algo_desc_t **fast) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  arcoll_explorer_t e;
  EXPECT_GE(arcoll_explorer_init(&e, &m, ARCOLL_COLL_ALLREDUCE, 64, 8, 1, 4, 2, 0), 2);
  e.confirm_block = 0;
  *fast = e.cand[1].algo;
  const double c = 100e-6, inside = 50e-6, P = 64;
  const arcoll_choice_t *ch;
  while ((ch = arcoll_explorer_next(&e)) != nullptr) {
    const bool is_fast = ch->algo == *fast;
    const double period = w + c * (is_fast ? 1.0 : 1.0 + gap);
    // this rank: outside for w, then inside for the rest of its period
    const int due = arcoll_explorer_record_period(&e, period - w, period, 0);
    if (due == 2) {
      EXPECT_EQ(arcoll_explorer_check_times(&e, 0.0, 0.0, 0.0), 0);
    } else if (due == 1) {
      const int k = e.n * e.trials;
      double sum[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
      double pm[ARCOLL_ONLINE_EXTREMES_MAX];
      EXPECT_GE(arcoll_explorer_period_extremes(&e, pm), 2 * k + 1);
      EXPECT_NEAR(-pm[2 * k], w, 1e-12) << "the time outside: period less time inside";
      for (int r = 0; r < k; ++r) sum[r] = P * (e.cand[r / e.trials].algo == *fast ? 4 * inside : inside);
      arcoll_explorer_decide_extremes(&e, sum, pm);  // one rank stands for all
      return e.best.algo;
    }
  }
  ADD_FAILURE() << "round 0 did not end";
  return nullptr;
}

TEST(OnlineBand, ComputationBetweenCallsDoesNotWidenTheBand) {
  const double c = 100e-6;
  for (const double w : {0.0, 10 * c})
    for (const double gap : {0.5 * ARCOLL_ONLINE_MAX_TOLERANCE, 2.0 * ARCOLL_ONLINE_MAX_TOLERANCE}) {
      const arcoll_algo_desc_t *fast = nullptr;
      const arcoll_algo_desc_t *best = round0_best(w, gap, &fast);
      ASSERT_NE(best, nullptr);
      if (gap > ARCOLL_ONLINE_MAX_TOLERANCE)
        EXPECT_EQ(best, fast) << "a critical path " << gap * 100 << " % longer beyond " << w
                              << " s of computation is not a tie";
      else
        EXPECT_NE(best, fast) << "within the band (outside " << w << " s) the smaller sum decides";
    }
}

TEST(OnlineBand, OutsideIsThePeriodLessTheTimeInside) {
  EXPECT_DOUBLE_EQ(arcoll_explorer_outside(1.5e-3, 0.5e-3), 1e-3);
  EXPECT_EQ(arcoll_explorer_outside(0.5e-3, 0.5e-3), 0.0) << "back to back";
  EXPECT_EQ(arcoll_explorer_outside(0.4e-3, 0.5e-3), 0.0) << "never negative";
  EXPECT_EQ(arcoll_explorer_outside(INFINITY, INFINITY), 0.0) << "a failed run: unknown";
}

}  // namespace
