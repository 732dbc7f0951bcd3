/* LZ4 / zstd block codecs and their measured throughputs; see compress_codec.h. */
#include "compress_codec.h"

#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

const char *arcoll_codec_name(arcoll_codec_t c) {
  switch (c) {
    case ARCOLL_CODEC_RAW: return "raw";
    case ARCOLL_CODEC_LZ4: return "lz4";
    case ARCOLL_CODEC_ZSTD: return "zstd";
    default: return NULL;
  }
}

size_t arcoll_codec_bound(arcoll_codec_t c, size_t n) {
  switch (c) {
    case ARCOLL_CODEC_LZ4: return (size_t)LZ4_compressBound((int)n);
    case ARCOLL_CODEC_ZSTD: return ZSTD_compressBound(n);
    default: return n;
  }
}

/* One compression context per process, reused (zstd allocates ~1 MiB per
 * context; a fresh one per segment would cost more than the compression).
 * Not thread-safe: the collectives of one communicator run one at a time,
 * and MPI_THREAD_MULTIPLE programs get a context per thread. */
static _Thread_local ZSTD_CCtx *zcctx;
static _Thread_local ZSTD_DCtx *zdctx;

size_t arcoll_codec_compress(arcoll_codec_t c, const void *src, size_t n, void *dst, size_t cap) {
  size_t out = 0;
  if (n == 0) return 0;
  if (c == ARCOLL_CODEC_LZ4) {
    int r = LZ4_compress_default((const char *)src, (char *)dst, (int)n, (int)cap);
    out = r > 0 ? (size_t)r : 0;
  } else if (c == ARCOLL_CODEC_ZSTD) {
    if (!zcctx && !(zcctx = ZSTD_createCCtx())) return 0;
    size_t r = ZSTD_compressCCtx(zcctx, dst, cap, src, n, ARCOLL_ZSTD_LEVEL);
    out = ZSTD_isError(r) ? 0 : r;
  }
  return out < n ? out : 0;
}

int arcoll_codec_decompress(arcoll_codec_t c, const void *src, size_t len, void *dst, size_t n) {
  if (c == ARCOLL_CODEC_RAW) {
    if (len != n) return -1;
    if (n) memcpy(dst, src, n);
    return 0;
  }
  if (c == ARCOLL_CODEC_LZ4) {
    int r = LZ4_decompress_safe((const char *)src, (char *)dst, (int)len, (int)n);
    return r >= 0 && (size_t)r == n ? 0 : -1;
  }
  if (c == ARCOLL_CODEC_ZSTD) {
    if (!zdctx && !(zdctx = ZSTD_createDCtx())) return -1;
    size_t r = ZSTD_decompressDCtx(zdctx, dst, n, src, len);
    return !ZSTD_isError(r) && r == n ? 0 : -1;
  }
  return -1;
}

void arcoll_text_like(char *buf, size_t n, unsigned seed) {
  static const char *const words[] = {
      "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with",
      "be", "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which",
      "but", "have", "an", "had", "they", "you", "were", "their", "one", "all", "we",
      "network", "collective", "broadcast", "message", "cluster", "node", "compression",
      "bandwidth", "latency", "segment", "pipeline", "process", "memory", "result"};
  const unsigned nw = sizeof words / sizeof words[0];
  unsigned x = seed * 2654435761u + 1u;
  size_t i = 0, col = 0;
  while (i < n) {
    x = x * 1103515245u + 12345u;
    const char *w = words[(x >> 16) % nw];
    for (size_t j = 0; w[j] && i < n; ++j) buf[i++] = w[j];
    col++;
    if (i < n) buf[i++] = (x >> 8) % 11 == 0 ? ',' : (col % 12 == 0 ? '\n' : ' ');
  }
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double speed_c[ARCOLL_CODEC_COUNT], speed_d[ARCOLL_CODEC_COUNT];

/* Best of 3 over 256 KiB of text-like data, compressed and decompressed
 * in 64 KiB blocks (the segment size of the compressed collectives). */
int arcoll_codec_benchmark(arcoll_codec_t c, double *comp_Bps, double *decomp_Bps,
                           double *ratio) {
  const size_t n = 256 * 1024, blk = 64 * 1024;
  if ((unsigned)c >= ARCOLL_CODEC_COUNT) return -1;
  const size_t cap = arcoll_codec_bound(c, blk) + 64;
  char *src = malloc(n), *dst = malloc(n), *z = malloc(cap * (n / blk));
  size_t zlen[4] = {0, 0, 0, 0}, out = 0;
  double bc = 1e30, bd = 1e30;
  if (!src || !dst || !z) {
    free(src), free(dst), free(z);
    return -1;
  }
  arcoll_text_like(src, n, 7u);
  for (int rep = 0; rep < 3; ++rep) {
    double t0 = now_s();
    for (size_t b = 0; b < n / blk; ++b) {
      if (c == ARCOLL_CODEC_RAW) memcpy(z + b * cap, src + b * blk, blk), zlen[b] = blk;
      else zlen[b] = arcoll_codec_compress(c, src + b * blk, blk, z + b * cap, cap);
    }
    double t1 = now_s();
    for (size_t b = 0; b < n / blk; ++b) {
      if (zlen[b]) arcoll_codec_decompress(zlen[b] == blk ? ARCOLL_CODEC_RAW : c, z + b * cap,
                                           zlen[b], dst + b * blk, blk);
    }
    double t2 = now_s();
    if (t1 - t0 < bc) bc = t1 - t0;
    if (t2 - t1 < bd) bd = t2 - t1;
  }
  for (size_t b = 0; b < n / blk; ++b) out += zlen[b] ? zlen[b] : blk;
  const double floor_s = 1e-7; /* clock resolution guard */
  if (comp_Bps) *comp_Bps = (double)n / (bc > floor_s ? bc : floor_s);
  if (decomp_Bps) *decomp_Bps = (double)n / (bd > floor_s ? bd : floor_s);
  if (ratio) *ratio = (double)n / (double)out;
  free(src), free(dst), free(z);
  return 0;
}

static void measure(arcoll_codec_t c) {
  if (arcoll_codec_benchmark(c, &speed_c[c], &speed_d[c], NULL) != 0)
    speed_c[c] = speed_d[c] = 1e8; /* pessimistic: 100 MB/s */
}

void arcoll_codec_speed(arcoll_codec_t c, double *comp_Bps, double *decomp_Bps) {
  if ((unsigned)c >= ARCOLL_CODEC_COUNT) c = ARCOLL_CODEC_RAW;
  if (!(speed_c[c] > 0) || !(speed_d[c] > 0)) measure(c);
  if (comp_Bps) *comp_Bps = speed_c[c];
  if (decomp_Bps) *decomp_Bps = speed_d[c];
}

void arcoll_codec_set_speed(arcoll_codec_t c, double comp_Bps, double decomp_Bps) {
  if ((unsigned)c >= ARCOLL_CODEC_COUNT) return;
  speed_c[c] = comp_Bps > 0 && decomp_Bps > 0 ? comp_Bps : 0;
  speed_d[c] = comp_Bps > 0 && decomp_Bps > 0 ? decomp_Bps : 0;
}

void arcoll_sample_data(char *buf, size_t n, int kind, unsigned seed) {
  if (kind == ARCOLL_DATA_TEXT) arcoll_text_like(buf, n, seed);
  else if (kind == ARCOLL_DATA_ZEROS) memset(buf, 0, n);
  else {
    uint64_t x = 0x9E3779B97F4A7C15ull * (seed + 1);
    for (size_t i = 0; i < n; ++i) x ^= x << 13, x ^= x >> 7, x ^= x << 17, buf[i] = (char)(x >> 24);
  }
}
