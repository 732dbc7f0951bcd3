/**
 * @file compress_decide.h
 * @brief The switch of the compressed collectives: ARCOLL_COMPRESS mode and
 *        the root's per-call decision (compressibility sample + cost model).
 *
 * Source: seed 004_045dc3534e1f0a8b.txt (ZipMPI: compression pays on a slow
 * network and compressible data, gains "depend on compressibility").  The
 * root alone decides, from data only it has; the decision travels in the
 * first segment's header (bcast_compressed.c), so no agreement round.
 *
 * Model (per call, M bytes, segments of s bytes, k = ceil(M/s), a chain of
 * P-1 hops, T(m) = t_s + m/B the linear point-to-point model of seed
 * 000_32450fa7292fe18a.txt, r the sampled compression ratio, Vc / Vd the
 * measured compression / decompression throughputs, bytes/second):
 *   raw:        (P - 2 + k) T(s)
 *   compressed: C + (P - 1) X + (k - 1) max(C, X, D) + D,
 *               C = s / Vc, D = s / Vd, X = T(s / r)
 * (compression at the root and decompression at every rank overlap the
 * transfer of other segments; inner ranks forward the compressed bytes
 * before decompressing them).  Compress when the best codec's time is below
 * ARCOLL_COMPRESS_MARGIN x raw.  Times in seconds, sizes in bytes.
 */
#ifndef ARCOLL_COLLECTIVES_COMPRESS_DECIDE_H
#define ARCOLL_COLLECTIVES_COMPRESS_DECIDE_H

#include <mpi.h>

#include "compress_codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/** ARCOLL_COMPRESS values. */
typedef enum arcoll_compress_mode {
  ARCOLL_COMPRESS_AUTO = 0, /**< the root decides per call (default) */
  ARCOLL_COMPRESS_OFF = 1,  /**< never compress; compressed algorithms are no candidates */
  ARCOLL_COMPRESS_LZ4 = 2,  /**< always compress with LZ4 (segments that do not shrink stay raw) */
  ARCOLL_COMPRESS_ZSTD = 3  /**< always compress with zstd level 1 */
} arcoll_compress_mode_t;

/** Messages below this many bytes are never compressed in auto (64 KiB). */
#define ARCOLL_COMPRESS_MIN_BYTES 65536
/** Compress only when predicted below this fraction of the raw time. */
#define ARCOLL_COMPRESS_MARGIN 0.9
/** Bytes per sample slice; ARCOLL_COMPRESS_SLICES slices spread over the message. */
#define ARCOLL_COMPRESS_SLICE 4096
#define ARCOLL_COMPRESS_SLICES 3

/**
 * Parse an ARCOLL_COMPRESS value ("auto", "off", "lz4", "zstd"; NULL or ""
 * = auto) into *mode.  Returns 0, or -1 (then *mode is unchanged).
 */
int arcoll_compress_parse(const char *s, arcoll_compress_mode_t *mode);

/**
 * Set this process's mode and the network of the model (t_s seconds, B
 * bytes/second, > 0; others keep the previous values).  Default before any
 * call: auto, t_s = 5e-6 s, B = 1.125e9 B/s (arcoll_model_default's inter).
 */
void arcoll_compress_configure(arcoll_compress_mode_t mode, double t_s, double B);

/** The current mode. */
arcoll_compress_mode_t arcoll_compress_mode(void);

/** What a root decided for one call (and what a receiver learnt). */
typedef struct arcoll_compress_decision {
  arcoll_codec_t codec;  /**< the stream's codec; RAW = not compressed */
  double ratio;          /**< sampled ratio (input / output bytes) of the best-predicted codec (auto), 1 if nothing was sampled */
  double t_raw_s;        /**< predicted uncompressed time, seconds (-1: not predicted) */
  double t_codec_s;      /**< predicted compressed time with codec, seconds (-1: none) */
  MPI_Aint bytes;        /**< message bytes */
  int root;              /**< 1 at the root (decided here), 0 at a receiver (read from the header) */
} arcoll_compress_decision_t;

/**
 * The root's decision for `bytes` bytes at `data` sent to P ranks in
 * segments of `seg` bytes.  off: RAW; lz4 / zstd: that codec; auto: RAW
 * below ARCOLL_COMPRESS_MIN_BYTES or when P < 2, else the model above with
 * LZ4 and zstd, each sampled on ARCOLL_COMPRESS_SLICES slices of
 * ARCOLL_COMPRESS_SLICE bytes (first, middle, last), and the codec throughputs
 * of arcoll_codec_speed().  Fills *d (may be NULL) and returns the codec.
 */
arcoll_codec_t arcoll_compress_decide(const void *data, MPI_Aint bytes, int P, MPI_Aint seg,
                                      arcoll_compress_decision_t *d);

/**
 * arcoll_compress_decide() with the 64 KiB threshold applied to `moved`
 * bytes instead of `bytes` (allgather: a block of `bytes` is decided by its
 * owner, the threshold is on what crosses each link, (P-1) x bytes).
 */
arcoll_codec_t arcoll_compress_decide_min(const void *data, MPI_Aint bytes, int P, MPI_Aint seg,
                                          MPI_Aint moved, arcoll_compress_decision_t *d);

/**
 * Introspection (tests, ARCOLL_DEBUG): the last decision this process made
 * or received (set by the compressed algorithms); returns 0, or -1 when
 * there was none yet.
 */
int arcoll_compress_last(arcoll_compress_decision_t *d);

/** Record *d as the last decision (the compressed algorithms call it). */
void arcoll_compress_record(const arcoll_compress_decision_t *d);

#ifdef __cplusplus
}
#endif
#endif
