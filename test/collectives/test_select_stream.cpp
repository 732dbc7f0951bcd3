// Unit tests of arcoll_select_stream_segment (collectives/select.c):
// the segment with the least link occupancy per call in back-to-back calls.
#include <gtest/gtest.h>

#include <mpi.h>  // before the extern "C" block (mpicxx.h)

#include <cmath>

extern "C" {
#include "select.h"
}

namespace {

// A model whose measured stream periods X(m) are `x` at the sizes `b`.
arcoll_model_t gap_model(const double *b, const double *x, int n) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  m.inter_gap_curve.n = n;
  for (int i = 0; i < n; ++i) m.inter_gap_curve.bytes[i] = b[i], m.inter_gap_curve.seconds[i] = x[i];
  return m;
}

const arcoll_algo_desc_t *binomial() { return arcoll_algorithm_find(ARCOLL_COLL_BCAST, "binomial"); }

// Occupancy of `bytes` in segments of `s` (0: one), as the function defines it.
double occupancy(const arcoll_model_t &m, double bytes, double s) {
  const double k = s > 0 ? std::ceil(bytes / s) : 1.0;
  return k * arcoll_model_gap(&m.inter, &m.inter_gap_curve, bytes / k);
}

// The stream periods of tools/platforms/cluster256.model.json (SMPI's
// piecewise bandwidth factors): per byte least at 8 KiB.
TEST(StreamSegment, TakesTheSizeWhoseMessagesStreamFastest) {
  const double b[] = {0, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 1 << 20};
  const double x[] = {1.6e-8, 2.43e-6, 2.71e-6, 4.25e-6, 6.04e-6, 1.88e-5, 3.76e-5, 5.57e-5, 8.92e-4};
  const arcoll_model_t m = gap_model(b, x, 9);
  ASSERT_NE(binomial(), nullptr);
  for (MPI_Aint bytes : {36864, 32768, 1 << 20}) {
    const MPI_Aint s = arcoll_select_stream_segment(&m, ARCOLL_COLL_BCAST, binomial(), 256, bytes);
    EXPECT_EQ(s, 8192) << bytes;
    for (double other : {0.0, 1024.0, 2048.0, 4096.0, 16384.0})  // no other is within 5 %
      EXPECT_LT(1.05 * occupancy(m, (double)bytes, 8192), occupancy(m, (double)bytes, other)) << other;
  }
  arcoll_choice_t lat{};  // the latency-best segment differs: what this function is for
  ASSERT_EQ(arcoll_select_config(&m, ARCOLL_COLL_BCAST, binomial(), 256, 36864, &lat), 0);
  EXPECT_NE(lat.segment_bytes, 8192);
}

// A large per-message cost (X = 20 us + m / B): fewer messages occupy the
// link less, so one segment.
TEST(StreamSegment, OneSegmentWhenEveryMessageCostsALot) {
  const double b[] = {0, 1 << 20};
  const double x[] = {20e-6, 20e-6 + (1 << 20) / 1.125e9};
  const arcoll_model_t m = gap_model(b, x, 2);
  EXPECT_EQ(arcoll_select_stream_segment(&m, ARCOLL_COLL_BCAST, binomial(), 64, 65536), 0);
}

// Without a gap curve, X = max(g, m / B): every segment whose messages fill
// g streams at B, all within 5 %; the model's time decides among them, and
// segments so small that g dominates are never taken.
TEST(StreamSegment, EqualOccupancyLeavesTheChoiceToTheModelsTime) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  const MPI_Aint bytes = 1 << 20;
  const MPI_Aint s = arcoll_select_stream_segment(&m, ARCOLL_COLL_BCAST, binomial(), 64, bytes);
  const double t = arcoll_model_predict(&m, ARCOLL_COLL_BCAST, binomial(), 64, bytes, s, 0);
  const double least = occupancy(m, (double)bytes, 0);
  EXPECT_LE(occupancy(m, (double)bytes, (double)s), 1.05 * least);
  for (MPI_Aint o = 0; o < bytes; o = o ? 2 * o : 1024)  // the powers of two among its candidates
    if (occupancy(m, (double)bytes, (double)o) <= 1.05 * least)
      EXPECT_LE(t, arcoll_model_predict(&m, ARCOLL_COLL_BCAST, binomial(), 64, bytes, o, 0)) << o;
  EXPECT_EQ(arcoll_select_stream_segment(nullptr, ARCOLL_COLL_BCAST, binomial(), 64, bytes), 0);
  EXPECT_EQ(arcoll_select_stream_segment(&m, ARCOLL_COLL_BCAST, binomial(), 64, 0), 0);
}

}  // namespace

namespace {

// Back-to-back bcasts (arcoll_select_stream): with the stream periods of
// tools/platforms/cluster256.model.json the chain - the busiest rank sends the
// message once per call, binomial log2 P times - in its least-occupancy
// segments, although its one-call latency ranks it last.
TEST(StreamChoice, TheChainStreamsBestAndOnlyForBcast) {
  const double b[] = {0, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 1 << 20};
  const double x[] = {1.6e-8, 2.43e-6, 2.71e-6, 4.25e-6, 6.04e-6, 1.88e-5, 3.76e-5, 5.57e-5, 8.92e-4};
  const arcoll_model_t m = gap_model(b, x, 9);
  for (int P : {16, 64, 256}) {
    arcoll_choice_t s{};
    ASSERT_EQ(arcoll_select_stream(&m, ARCOLL_COLL_BCAST, P, 36864, &s), 0) << P;
    EXPECT_STREQ(s.algo->name, "chain") << P;
    EXPECT_EQ(s.segment_bytes, arcoll_select_stream_segment(&m, ARCOLL_COLL_BCAST, s.algo, P, 36864));
    EXPECT_DOUBLE_EQ(s.predicted_s,
                     arcoll_model_predict(&m, ARCOLL_COLL_BCAST, s.algo, P, 36864, s.segment_bytes, 0));
    arcoll_choice_t lat[16];
    const int n = arcoll_select_candidates(&m, ARCOLL_COLL_BCAST, P, 36864, 1, lat, 16);
    ASSERT_GT(n, 1);
    EXPECT_STRNE(lat[0].algo->name, "chain") << P;  // the latency ranking differs
  }
  arcoll_choice_t s{};
  EXPECT_EQ(arcoll_select_stream(&m, ARCOLL_COLL_REDUCE, 64, 36864, &s), -1);
  EXPECT_EQ(arcoll_select_stream(&m, ARCOLL_COLL_BCAST, 1, 36864, &s), -1);
  EXPECT_EQ(arcoll_select_stream(&m, ARCOLL_COLL_BCAST, 64, 0, &s), -1);
  EXPECT_EQ(arcoll_select_stream(nullptr, ARCOLL_COLL_BCAST, 64, 36864, &s), -1);
}

// The tree late-rank orders keep tolerant: binary for streaming bcast sizes.
TEST(StreamChoice, TolerantTreeByCollectiveAndSize) {
  EXPECT_STREQ(arcoll_tolerant_tree(ARCOLL_COLL_BCAST, ARCOLL_STREAM_MIN_BYTES), "binary");
  EXPECT_STREQ(arcoll_tolerant_tree(ARCOLL_COLL_BCAST, ARCOLL_STREAM_MIN_BYTES - 1), "binomial");
  EXPECT_STREQ(arcoll_tolerant_tree(ARCOLL_COLL_REDUCE, 1 << 20), "binomial");
  EXPECT_NE(arcoll_algorithm_find(ARCOLL_COLL_BCAST, "binary"), nullptr);
}

}  // namespace
