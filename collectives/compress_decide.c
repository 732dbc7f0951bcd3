/* ARCOLL_COMPRESS and the senders' per-call decision; see compress_decide.h. */
#include "compress_decide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static arcoll_compress_mode_t g_mode = ARCOLL_COMPRESS_AUTO;
/* the network (inter-node parameters and curves) and the codec entry */
static arcoll_p2p_params_t g_net = {5e-6, 1.125e9, 0, 0, 0, 1.0 / 1.125e9};
static arcoll_p2p_curve_t g_curve, g_gap;
static arcoll_codec_calib_t g_calib[ARCOLL_CODEC_COUNT];
static arcoll_compress_decision_t g_last;
static int g_have_last = 0;

int arcoll_compress_parse(const char *s, arcoll_compress_mode_t *mode) {
  arcoll_compress_mode_t m;
  if (!s || !*s || !strcmp(s, "auto")) m = ARCOLL_COMPRESS_AUTO;
  else if (!strcmp(s, "off")) m = ARCOLL_COMPRESS_OFF;
  else if (!strcmp(s, "lz4")) m = ARCOLL_COMPRESS_LZ4;
  else if (!strcmp(s, "zstd")) m = ARCOLL_COMPRESS_ZSTD;
  else return -1;
  *mode = m;
  return 0;
}

void arcoll_compress_configure(arcoll_compress_mode_t mode, double t_s, double B) {
  g_mode = mode;
  if (t_s > 0 && B > 0) {
    memset(&g_net, 0, sizeof g_net);
    g_net.t_s = t_s, g_net.B = B, g_net.G = 1.0 / B;
    g_curve.n = g_gap.n = 0;
    memset(g_calib, 0, sizeof g_calib);
  }
}

void arcoll_compress_configure_model(arcoll_compress_mode_t mode, const arcoll_model_t *m) {
  g_mode = mode;
  if (!m) return;
  g_net = m->inter;
  g_curve = m->inter_curve;
  g_gap = m->inter_gap_curve;
  memset(g_calib, 0, sizeof g_calib);
  g_calib[ARCOLL_CODEC_LZ4] = m->codec_lz4;
  g_calib[ARCOLL_CODEC_ZSTD] = m->codec_zstd;
}

arcoll_compress_mode_t arcoll_compress_mode(void) { return g_mode; }

int arcoll_compress_last(arcoll_compress_decision_t *d) {
  if (!g_have_last) return -1;
  if (d) *d = g_last;
  return 0;
}

void arcoll_compress_record(const arcoll_compress_decision_t *d) {
  g_last = *d;
  g_have_last = 1;
}

/* T(m) and X(m) of the model (select.h) */
static double tsend(double m) { return arcoll_model_p2p(&g_net, &g_curve, m); }
static double xfer(double m) { return arcoll_model_gap(&g_net, &g_gap, m); }

/* Throughputs of codec c: the model file's codec entry, else measured. */
static void speeds(arcoll_codec_t c, double *vc, double *vd) {
  if (g_calib[c].compress_Bps > 0 && g_calib[c].decompress_Bps > 0) {
    *vc = g_calib[c].compress_Bps, *vd = g_calib[c].decompress_Bps;
    return;
  }
  arcoll_codec_speed(c, vc, vd);
}

/* Ratio of codec c over the sample slices (input / output bytes; a slice
 * that does not shrink counts as stored). */
static double sample_ratio(arcoll_codec_t c, const char *data, MPI_Aint bytes) {
  const size_t sl = (size_t)(bytes < ARCOLL_COMPRESS_SLICE ? bytes : ARCOLL_COMPRESS_SLICE);
  const size_t cap = arcoll_codec_bound(c, sl);
  char *z = malloc(cap);
  size_t in = 0, out = 0;
  if (!z) return 1.0;
  for (int i = 0; i < ARCOLL_COMPRESS_SLICES; ++i) {
    /* first, middle, last slice */
    MPI_Aint off = (MPI_Aint)(((double)(bytes - (MPI_Aint)sl)) * i / (ARCOLL_COMPRESS_SLICES - 1));
    size_t n = arcoll_codec_compress(c, data + off, sl, z, cap);
    in += sl;
    out += n ? n : sl;
  }
  free(z);
  return out ? (double)in / (double)out : 1.0;
}

static double max3(double a, double b, double c) {
  double m = a > b ? a : b;
  return m > c ? m : c;
}

/* Predicted times (compress_decide.h) of messages of s raw bytes */
static double t_raw(const arcoll_compress_shape_t *sh, double s) {
  return sh->hops * tsend(s) + (sh->k - 1) * (sh->stream ? xfer(s) : tsend(s));
}

static double t_codec(const arcoll_compress_shape_t *sh, double s, double r, double vc,
                      double vd) {
  const double C = s / vc, D = s / vd, w = s / r;
  const double per = sh->stream ? xfer(w) : tsend(w);
  return C + sh->hops * tsend(w) + (sh->k - 1) * max3(sh->serial_compress ? C : 0, per, D) + D;
}

/* The broadcast's segment for codec ratio r: the multiple of
 * ARCOLL_COMPRESS_SEG_UNIT in [1 KiB, 1 MiB] (or M itself) with the
 * smallest compressed chain time, over wire sizes on the curve's points and
 * a 2^(1/4) grid; *t its time. */
static MPI_Aint best_segment(double M, int P, double r, double vc, double vd, double *t) {
  double wires[96];
  int nw = 0;
  for (int i = 0; i < g_curve.n && nw < 48; ++i)
    if (g_curve.bytes[i] >= 512) wires[nw++] = g_curve.bytes[i];
  for (int j = 0; j <= 40; ++j) wires[nw++] = ARCOLL_COMPRESS_SEG_UNIT * pow(2.0, j / 4.0);
  MPI_Aint best = 0;
  *t = -1;
  for (int i = 0; i < nw; ++i) {
    MPI_Aint s = (MPI_Aint)(wires[i] * r) / ARCOLL_COMPRESS_SEG_UNIT * ARCOLL_COMPRESS_SEG_UNIT;
    if (s < ARCOLL_COMPRESS_SEG_UNIT) s = ARCOLL_COMPRESS_SEG_UNIT;
    if (s > ARCOLL_COMPRESS_SEG_MAX) s = ARCOLL_COMPRESS_SEG_MAX;
    const double sd = (double)s < M ? (double)s : M, k = ceil(M / sd);
    const arcoll_compress_shape_t sh = {P - 1, k, 1, 0};
    const double ts = t_codec(&sh, sd, r, vc, vd);
    if (*t < 0 || ts < *t) *t = ts, best = s;
  }
  return best;
}

/* The decision: shape sh of messages of `msg` bytes, or (choose_seg, the
 * bcast) the chain of P ranks with its segment chosen per codec. */
static arcoll_codec_t decide(const char *data, MPI_Aint bytes, MPI_Aint msg,
                             const arcoll_compress_shape_t *sh, MPI_Aint moved, int choose_seg,
                             MPI_Aint seg, arcoll_compress_decision_t *d) {
  arcoll_compress_decision_t r = {ARCOLL_CODEC_RAW, 1.0, -1.0, -1.0, bytes, 1, seg};
  if (g_mode == ARCOLL_COMPRESS_LZ4) r.codec = ARCOLL_CODEC_LZ4;
  else if (g_mode == ARCOLL_COMPRESS_ZSTD) r.codec = ARCOLL_CODEC_ZSTD;
  else if (g_mode == ARCOLL_COMPRESS_AUTO && sh->hops >= 1 && bytes > 0 && msg > 0 &&
           moved >= ARCOLL_COMPRESS_MIN_BYTES) {
    r.t_raw_s = t_raw(sh, (double)msg);
    if (choose_seg) { /* raw also at its best segment: compression must beat that */
      double tb;
      best_segment((double)bytes, (int)sh->hops + 1, 1.0, INFINITY, INFINITY, &tb);
      if (tb < r.t_raw_s) r.t_raw_s = tb;
    }
    arcoll_codec_t best = ARCOLL_CODEC_RAW;
    MPI_Aint best_seg = seg;
    const arcoll_codec_t codecs[2] = {ARCOLL_CODEC_LZ4, ARCOLL_CODEC_ZSTD};
    for (int i = 0; i < 2; ++i) {
      const double ratio = sample_ratio(codecs[i], data, bytes);
      double vc, vd, t;
      MPI_Aint s = seg;
      speeds(codecs[i], &vc, &vd);
      if (choose_seg) s = best_segment((double)bytes, (int)sh->hops + 1, ratio, vc, vd, &t);
      else t = t_codec(sh, (double)msg, ratio, vc, vd);
      if (best == ARCOLL_CODEC_RAW || t < r.t_codec_s)
        best = codecs[i], r.t_codec_s = t, r.ratio = ratio, best_seg = s;
    }
    if (r.t_codec_s < ARCOLL_COMPRESS_MARGIN * r.t_raw_s) r.codec = best, r.seg = best_seg;
  }
  if (d) *d = r;
  return r.codec;
}

arcoll_codec_t arcoll_compress_decide(const void *data, MPI_Aint bytes, int P, MPI_Aint seg,
                                      arcoll_compress_decision_t *d) {
  const double s = (double)(seg > 0 && seg < bytes ? seg : bytes);
  const arcoll_compress_shape_t sh = {P - 1, s > 0 ? ceil((double)bytes / s) : 1, 1, 0};
  return decide((const char *)data, bytes, (MPI_Aint)s, &sh, bytes, 1, seg, d);
}

arcoll_codec_t arcoll_compress_decide_min(const void *data, MPI_Aint bytes, int P, MPI_Aint seg,
                                          MPI_Aint moved, arcoll_compress_decision_t *d) {
  const double s = (double)(seg > 0 && seg < bytes ? seg : bytes);
  const arcoll_compress_shape_t sh = {P - 1, s > 0 ? ceil((double)bytes / s) : 1, 1, 0};
  return decide((const char *)data, bytes, (MPI_Aint)s, &sh, moved, 0, 0, d);
}

arcoll_codec_t arcoll_compress_decide_shape(const void *data, MPI_Aint bytes, MPI_Aint msg,
                                            const arcoll_compress_shape_t *shape, MPI_Aint moved,
                                            arcoll_compress_decision_t *d) {
  return decide((const char *)data, bytes, msg, shape, moved, 0, 0, d);
}
