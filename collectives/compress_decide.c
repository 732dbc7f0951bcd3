/* ARCOLL_COMPRESS and the root's per-call decision; see compress_decide.h. */
#include "compress_decide.h"

#include <stdlib.h>
#include <string.h>

static arcoll_compress_mode_t g_mode = ARCOLL_COMPRESS_AUTO;
static double g_ts = 5e-6, g_B = 1.125e9;
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
  if (t_s > 0) g_ts = t_s;
  if (B > 0) g_B = B;
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

static double tsend(double m) { return g_ts + m / g_B; }

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

arcoll_codec_t arcoll_compress_decide(const void *data, MPI_Aint bytes, int P, MPI_Aint seg,
                                      arcoll_compress_decision_t *d) {
  return arcoll_compress_decide_min(data, bytes, P, seg, bytes, d);
}

arcoll_codec_t arcoll_compress_decide_min(const void *data, MPI_Aint bytes, int P, MPI_Aint seg,
                                          MPI_Aint moved, arcoll_compress_decision_t *d) {
  arcoll_compress_decision_t r = {ARCOLL_CODEC_RAW, 1.0, -1.0, -1.0, bytes, 1};
  if (g_mode == ARCOLL_COMPRESS_LZ4) r.codec = ARCOLL_CODEC_LZ4;
  else if (g_mode == ARCOLL_COMPRESS_ZSTD) r.codec = ARCOLL_CODEC_ZSTD;
  else if (g_mode == ARCOLL_COMPRESS_AUTO && P >= 2 && bytes > 0 &&
           moved >= ARCOLL_COMPRESS_MIN_BYTES) {
    const double s = (double)(seg > 0 && seg < bytes ? seg : bytes);
    const double k = (double)((bytes + (MPI_Aint)s - 1) / (MPI_Aint)s);
    r.t_raw_s = (P - 2 + k) * tsend(s);
    arcoll_codec_t best = ARCOLL_CODEC_RAW;
    const arcoll_codec_t codecs[2] = {ARCOLL_CODEC_LZ4, ARCOLL_CODEC_ZSTD};
    for (int i = 0; i < 2; ++i) {
      const double ratio = sample_ratio(codecs[i], (const char *)data, bytes);
      double vc, vd;
      arcoll_codec_speed(codecs[i], &vc, &vd);
      const double C = s / vc, D = s / vd, X = tsend(s / ratio);
      const double t = C + (P - 1) * X + (k - 1) * max3(C, X, D) + D;
      if (best == ARCOLL_CODEC_RAW || t < r.t_codec_s) best = codecs[i], r.t_codec_s = t, r.ratio = ratio;
    }
    if (r.t_codec_s < ARCOLL_COMPRESS_MARGIN * r.t_raw_s) r.codec = best;
  }
  if (d) *d = r;
  return r.codec;
}
