/**
 * @file calibrate_fit.h
 * @brief arcoll-calibrate's arithmetic, apart from its MPI measurements
 *        (tools/calibrate.c): medians, the fits of the point-to-point model
 *        (collectives/select.h arcoll_p2p_params_t) and the model's curves.
 *
 * No MPI: unit-tested on synthetic points (test/collectives/test_calibrate_fit.cpp).
 * Times in seconds, sizes in bytes, bandwidths in bytes/second.
 * Formulas (LogGP as collectives/select.h defines it; how each quantity is
 * measured: tools/calibrate.c, after seed 003_e288917cd7e80de5.txt's care):
 *  - linear T(m) = t_s + m / B: least squares over the medians of the half
 *    round trips weighted by 1 / T^2 (relative error); t_s clamped to >= 0;
 *  - G: plain least squares slope over the medians of m >= 64 KiB (at least 2
 *    such points, else 1 / B);
 *  - o: the median duration of an 8-byte MPI_Send call;
 *  - g = (burst - 2 T(0)) / (ARCOLL_CALIB_BURST - 1), burst = ARCOLL_CALIB_BURST
 *    back-to-back 8-byte sends and a 0-byte acknowledgement; clamped to >= 0;
 *  - L = T(0) - 2 o, clamped to >= 0;
 *  - stream period gap(m) = (T_stream(m) - T(m) - T(0)) / (ARCOLL_CALIB_STREAM - 1),
 *    T_stream = ARCOLL_CALIB_STREAM messages back to back and a 0-byte
 *    acknowledgement; clamped to >= 0.
 */
#ifndef ARCOLL_TOOLS_CALIBRATE_FIT_H
#define ARCOLL_TOOLS_CALIBRATE_FIT_H

#include "select.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARCOLL_CALIB_BURST 64  /**< back-to-back 8-byte sends of the g measurement */
#define ARCOLL_CALIB_STREAM 8  /**< messages of a stream (the pipelined codes keep 8 in flight) */
#define ARCOLL_CALIB_POINTS 40 /**< sizes measured per pair, at most */

/** One message size of one pair. */
typedef struct {
  long bytes;
  double min_s, median_s; /**< half round trip: min and median over the repetitions */
  double gap_s;           /**< measured: the stream's median time; after arcoll_calib_stream_gaps: the period */
} arcoll_calib_point_t;

/** One measured pair (rank 0 and a rank on its node, or on another node). */
typedef struct {
  int have;
  int a, b; /**< ranks of the pair */
  int npts; /**< points, sizes increasing, pts[0].bytes == 0 */
  arcoll_calib_point_t pts[ARCOLL_CALIB_POINTS];
  double send_call_s, burst_s;
  arcoll_p2p_params_t p; /**< the fit (arcoll_calib_fit_params) */
} arcoll_calib_pair_t;

/** Median of v[0..n) (sorts v), n >= 1. */
double arcoll_calib_median(double *v, int n);

/** Weighted least squares of y = c0 + c1 x over n points; n < 2 or a singular
 *  system: c0 = the weighted mean of y (0 when n == 0), c1 = 0. */
void arcoll_calib_fit_line(const double *x, const double *y, const double *w, int n, double *c0, double *c1);

/** Converts every point's gap_s from the stream's measured time to the
 *  period per message (formula above); needs pts[0] (size 0). */
void arcoll_calib_stream_gaps(arcoll_calib_pair_t *r);

/** Fits r->p (t_s, B, L, o, g, G) from the points, send_call_s and burst_s (formulas above). */
void arcoll_calib_fit_params(arcoll_calib_pair_t *r);

/**
 * Fills the model's point-to-point parameters and measured curves (the
 * medians as intra_curve / inter_curve, the periods as the gap curves) from
 * the two pairs; a class without a pair (have == 0) is copied from the
 * other. At least one pair must have have != 0. Returns NULL when both were
 * measured, else "inter_copied_from_intra" or "intra_copied_from_inter".
 * Leaves the model's other fields as they were.
 */
const char *arcoll_calib_fill_model(const arcoll_calib_pair_t *intra, const arcoll_calib_pair_t *inter,
                                    arcoll_model_t *m);

#ifdef __cplusplus
}
#endif

#endif
