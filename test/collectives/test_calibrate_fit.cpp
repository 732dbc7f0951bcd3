// arcoll-calibrate's fits (tools/calibrate_fit.h) on synthetic measurements whose
// parameters are known: what the calibration would write for a network that follows
// the model exactly, and the clamps where it does not.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "calibrate_fit.h"

namespace {

// Points of T(m) = t_s + m / B for m = 0, 1, 2, 4, ... 4 MiB, the streams of a
// period `gap` per message (T(m) + 7 gap + T(0)), and the LogGP measurements.
arcoll_calib_pair_t linear_pair(double t_s, double B, double gap, double o, double g) {
  arcoll_calib_pair_t r;
  std::memset(&r, 0, sizeof r);
  r.have = 1;
  r.b = 1;
  for (long m = 0; m <= (4L << 20); m = m ? 2 * m : 1) {
    arcoll_calib_point_t &p = r.pts[r.npts++];
    p.bytes = m;
    p.median_s = p.min_s = t_s + static_cast<double>(m) / B;
    p.gap_s = p.median_s + (ARCOLL_CALIB_STREAM - 1) * gap + t_s;
  }
  r.send_call_s = o;
  r.burst_s = 2 * t_s + (ARCOLL_CALIB_BURST - 1) * g;
  return r;
}

TEST(CalibrateFit, MedianOfOddAndEvenCounts) {
  double odd[] = {3, 1, 2};
  double even[] = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(arcoll_calib_median(odd, 3), 2.0);
  EXPECT_DOUBLE_EQ(arcoll_calib_median(even, 4), 2.5);
}

TEST(CalibrateFit, LineThroughExactPointsAndTheSingularCase) {
  const double x[] = {0, 1, 2, 3}, y[] = {1, 3, 5, 7}, w[] = {1, 2, 3, 4};
  double c0, c1;
  arcoll_calib_fit_line(x, y, w, 4, &c0, &c1);
  EXPECT_NEAR(c0, 1.0, 1e-12);
  EXPECT_NEAR(c1, 2.0, 1e-12);
  const double xs[] = {2, 2}, ys[] = {1, 3}, ws[] = {1, 3};
  arcoll_calib_fit_line(xs, ys, ws, 2, &c0, &c1);  // one abscissa: no slope, the weighted mean
  EXPECT_DOUBLE_EQ(c1, 0.0);
  EXPECT_DOUBLE_EQ(c0, 2.5);
  arcoll_calib_fit_line(xs, ys, ws, 0, &c0, &c1);
  EXPECT_DOUBLE_EQ(c0, 0.0);
  EXPECT_DOUBLE_EQ(c1, 0.0);
}

TEST(CalibrateFit, RecoversTheParametersOfAnExactNetwork) {
  const double t_s = 5e-6, B = 1.25e9, gap = 0.9e-6, o = 1e-6, g = 2e-7;
  arcoll_calib_pair_t r = linear_pair(t_s, B, gap, o, g);
  arcoll_calib_stream_gaps(&r);
  arcoll_calib_fit_params(&r);
  EXPECT_NEAR(r.p.t_s, t_s, 1e-9 * t_s);
  EXPECT_NEAR(r.p.B, B, 1e-9 * B);
  EXPECT_NEAR(r.p.G, 1 / B, 1e-9 / B);
  EXPECT_DOUBLE_EQ(r.p.o, o);
  EXPECT_NEAR(r.p.g, g, 1e-12);
  EXPECT_NEAR(r.p.L, t_s - 2 * o, 1e-15);
  for (int i = 0; i < r.npts; ++i) EXPECT_NEAR(r.pts[i].gap_s, gap, 1e-15) << r.pts[i].bytes << " bytes";
}

TEST(CalibrateFit, GapPerByteComesFromTheLargeMessagesOnly) {
  // A rendezvous switch at 64 KiB: small messages at 1 GB/s, large ones at 4 GB/s plus 20 us.
  arcoll_calib_pair_t r = linear_pair(2e-6, 1e9, 0, 0, 0);
  for (int i = 0; i < r.npts; ++i)
    if (r.pts[i].bytes >= 65536) r.pts[i].median_s = 20e-6 + static_cast<double>(r.pts[i].bytes) / 4e9;
  arcoll_calib_fit_params(&r);
  EXPECT_NEAR(r.p.G, 1 / 4e9, 1e-6 / 4e9);
  EXPECT_GT(1 / r.p.B, r.p.G);  // the whole-range line is steeper: its small messages weigh most
  // Fewer than two points of 64 KiB or more: G is the whole-range slope.
  arcoll_calib_pair_t s = linear_pair(2e-6, 1e9, 0, 0, 0);
  s.npts = 18;  // sizes 0 .. 65536: one large point
  ASSERT_EQ(s.pts[s.npts - 1].bytes, 65536);
  arcoll_calib_fit_params(&s);
  EXPECT_DOUBLE_EQ(s.p.G, 1 / s.p.B);
}

TEST(CalibrateFit, NegativeQuantitiesAreClampedToZero) {
  // A send call longer than half the round trip (L < 0), a burst faster than two
  // round trips (g < 0), streams faster than one message (gap < 0), and points whose
  // line crosses zero below the origin (t_s < 0).
  arcoll_calib_pair_t r = linear_pair(1e-6, 1e9, 0, 4e-6, 0);
  r.burst_s = 1e-6;
  for (int i = 0; i < r.npts; ++i) r.pts[i].gap_s = 0;
  arcoll_calib_stream_gaps(&r);
  for (int i = 1; i < r.npts; ++i) r.pts[i].median_s = -1e-6 + static_cast<double>(r.pts[i].bytes) / 1e9;
  // The premise: the weighted line's intercept is below zero.
  double x[ARCOLL_CALIB_POINTS], y[ARCOLL_CALIB_POINTS], w[ARCOLL_CALIB_POINTS], c0, c1;
  for (int i = 0; i < r.npts; ++i) {
    x[i] = static_cast<double>(r.pts[i].bytes);
    y[i] = r.pts[i].median_s;
    w[i] = y[i] > 0 ? 1 / (y[i] * y[i]) : 1;
  }
  arcoll_calib_fit_line(x, y, w, r.npts, &c0, &c1);
  ASSERT_LT(c0, 0.0);
  arcoll_calib_fit_params(&r);
  EXPECT_EQ(r.p.L, 0.0);
  EXPECT_EQ(r.p.g, 0.0);
  EXPECT_EQ(r.p.t_s, 0.0);
  EXPECT_GT(r.p.B, 0.0);
  for (int i = 0; i < r.npts; ++i) EXPECT_EQ(r.pts[i].gap_s, 0.0);
}

TEST(CalibrateFit, AMissingClassIsCopiedFromTheOtherAndSaysSo) {
  arcoll_calib_pair_t intra = linear_pair(1e-6, 8e9, 1e-7, 2e-7, 1e-8);
  arcoll_calib_pair_t inter = linear_pair(5e-6, 1e9, 1e-6, 1e-6, 2e-7);
  for (auto *r : {&intra, &inter}) {
    arcoll_calib_stream_gaps(r);
    arcoll_calib_fit_params(r);
  }
  arcoll_model_t m;
  std::memset(&m, 0, sizeof m);
  EXPECT_EQ(arcoll_calib_fill_model(&intra, &inter, &m), nullptr);
  EXPECT_EQ(std::memcmp(&m.intra, &intra.p, sizeof m.intra), 0);
  EXPECT_EQ(std::memcmp(&m.inter, &inter.p, sizeof m.inter), 0);
  ASSERT_EQ(m.inter_curve.n, inter.npts);
  ASSERT_EQ(m.intra_gap_curve.n, intra.npts);
  for (int i = 0; i < inter.npts; ++i) {
    EXPECT_EQ(m.inter_curve.bytes[i], static_cast<double>(inter.pts[i].bytes));
    EXPECT_EQ(m.inter_curve.seconds[i], inter.pts[i].median_s);
    EXPECT_EQ(m.intra_curve.seconds[i], intra.pts[i].median_s);
    EXPECT_EQ(m.intra_gap_curve.seconds[i], intra.pts[i].gap_s);
    EXPECT_EQ(m.inter_gap_curve.seconds[i], inter.pts[i].gap_s);
  }
  // One node only: the inter-node class is the intra-node one.
  arcoll_calib_pair_t none;
  std::memset(&none, 0, sizeof none);
  std::memset(&m, 0, sizeof m);
  EXPECT_EQ(std::string(arcoll_calib_fill_model(&intra, &none, &m)), "inter_copied_from_intra");
  EXPECT_EQ(std::memcmp(&m.inter, &intra.p, sizeof m.inter), 0);
  EXPECT_EQ(m.inter_curve.n, intra.npts);
  EXPECT_EQ(m.inter_gap_curve.seconds[3], intra.pts[3].gap_s);
  std::memset(&m, 0, sizeof m);
  EXPECT_EQ(std::string(arcoll_calib_fill_model(&none, &inter, &m)), "intra_copied_from_inter");
  EXPECT_EQ(std::memcmp(&m.intra, &inter.p, sizeof m.intra), 0);
  EXPECT_EQ(m.intra_curve.seconds[5], inter.pts[5].median_s);
}

}  // namespace
