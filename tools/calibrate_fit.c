/* arcoll-calibrate's fits and model curves. See calibrate_fit.h. */
#include "calibrate_fit.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double arcoll_calib_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void arcoll_calib_fit_line(const double *x, const double *y, const double *w, int n, double *c0, double *c1) {
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; ++i) {
    sw += w[i];
    sx += w[i] * x[i];
    sy += w[i] * y[i];
    sxx += w[i] * x[i] * x[i];
    sxy += w[i] * x[i] * y[i];
  }
  double d = sw * sxx - sx * sx;
  if (n < 2 || d == 0) {
    *c0 = n ? sy / sw : 0;
    *c1 = 0;
    return;
  }
  *c1 = (sw * sxy - sx * sy) / d;
  *c0 = (sy - *c1 * sx) / sw;
}

void arcoll_calib_stream_gaps(arcoll_calib_pair_t *r) {
  /* stream of N: T(m) + (N-1) gap(m) + T(0) (the acknowledgement) */
  for (int i = 0; i < r->npts; ++i) {
    double gp = (r->pts[i].gap_s - r->pts[i].median_s - r->pts[0].median_s) / (ARCOLL_CALIB_STREAM - 1);
    r->pts[i].gap_s = gp > 0 ? gp : 0;
  }
}

void arcoll_calib_fit_params(arcoll_calib_pair_t *r) {
  double x[ARCOLL_CALIB_POINTS], y[ARCOLL_CALIB_POINTS], w[ARCOLL_CALIB_POINTS];
  for (int i = 0; i < r->npts; ++i) {
    x[i] = (double)r->pts[i].bytes;
    y[i] = r->pts[i].median_s;
    w[i] = y[i] > 0 ? 1.0 / (y[i] * y[i]) : 1.0;
  }
  double c0, c1;
  arcoll_calib_fit_line(x, y, w, r->npts, &c0, &c1);
  if (c1 <= 0) c1 = 1e-12;
  r->p.t_s = c0 > 0 ? c0 : 0;
  r->p.B = 1.0 / c1;
  /* G: plain least squares over the large messages (>= 64 KiB) */
  int m = 0;
  double xl[ARCOLL_CALIB_POINTS], yl[ARCOLL_CALIB_POINTS], wl[ARCOLL_CALIB_POINTS];
  for (int i = 0; i < r->npts; ++i)
    if (r->pts[i].bytes >= 65536) {
      xl[m] = (double)r->pts[i].bytes;
      yl[m] = r->pts[i].median_s;
      wl[m] = 1;
      ++m;
    }
  double g0, g1;
  arcoll_calib_fit_line(xl, yl, wl, m, &g0, &g1);
  r->p.G = m >= 2 && g1 > 0 ? g1 : c1;
  double half_rtt0 = r->pts[0].median_s; /* size 0 comes first */
  r->p.o = r->send_call_s > 0 ? r->send_call_s : 0;
  double g = (r->burst_s - 2 * half_rtt0) / (ARCOLL_CALIB_BURST - 1);
  r->p.g = g > 0 ? g : 0;
  double L = half_rtt0 - 2 * r->p.o;
  r->p.L = L > 0 ? L : 0;
}

/* The curve of one pair's points: medians (gap == 0) or stream periods (gap == 1). */
static void fill_curve(const arcoll_calib_pair_t *r, int gap, arcoll_p2p_curve_t *c) {
  c->n = 0;
  for (int i = 0; i < r->npts && i < ARCOLL_MODEL_CURVE_MAX; ++i) {
    c->bytes[i] = (double)r->pts[i].bytes;
    c->seconds[i] = gap ? r->pts[i].gap_s : r->pts[i].median_s;
    c->n = i + 1;
  }
}

const char *arcoll_calib_fill_model(const arcoll_calib_pair_t *intra, const arcoll_calib_pair_t *inter,
                                    arcoll_model_t *m) {
  const arcoll_calib_pair_t *ci = intra->have ? intra : inter, *ce = inter->have ? inter : intra;
  m->intra = ci->p;
  m->inter = ce->p;
  fill_curve(ci, 0, &m->intra_curve);
  fill_curve(ce, 0, &m->inter_curve);
  fill_curve(ci, 1, &m->intra_gap_curve);
  fill_curve(ce, 1, &m->inter_gap_curve);
  if (intra->have && inter->have) return NULL;
  return intra->have ? "inter_copied_from_intra" : "intra_copied_from_inter";
}
