/**
 * @file compress_decide.h
 * @brief The switch of the compressed collectives: ARCOLL_COMPRESS mode and
 *        the senders' per-call decision (compressibility sample + cost model).
 *
 * Source: seed 004_045dc3534e1f0a8b.txt (ZipMPI: compression pays on a slow
 * network and compressible data, gains "depend on compressibility").  The
 * rank that has the data decides alone (bcast: the root; allgather, gather,
 * alltoall: each sender for its own blocks); the decision travels in the
 * message headers (bcast_compressed.c, allgather_compressed.c,
 * compress_block.h), so no agreement round.
 *
 * Model (per call; times in seconds, sizes in bytes).  A collective moves
 * messages of s raw bytes; the first one crosses `hops` store-and-forward
 * hops, k of them pass one after another through the busiest link; r is the
 * sampled compression ratio, Vc / Vd the codec's compression /
 * decompression throughputs (bytes/second: the model file's "codec" entry
 * when it has one, else measured once per process, compress_codec.h),
 * T(m) the one-way time of an m-byte message and X(m) its link occupancy in
 * a stream (the model's inter-node curves when present, else t_s + m/B and
 * m/B; select.h arcoll_model_p2p / arcoll_model_gap), per(m) = X(m) when
 * the k messages are in flight together (`stream`), else T(m):
 *   raw:        hops T(s) + (k - 1) per(s)
 *   compressed: C + hops T(s/r) + (k - 1) max(C', per(s/r), D) + D,
 *               C = s / Vc, D = s / Vd, C' = C when one rank compresses
 *               all k messages, 0 when each sender compresses its own once
 * (compression, transfer and decompression of different messages overlap).
 * Compress when the best codec's time is below ARCOLL_COMPRESS_MARGIN x raw.
 * Shapes: bcast chain (hops P-1, k segments, C' = C, per = T), allgather
 * ring (hops P-1, k 1), gather linear (hops 1, k P-1, C' = 0, per = X),
 * alltoall linear (hops 1, k P-1, C' = C, per = X).
 *
 * Segment size of the compressed broadcast (auto): the root picks the
 * segment s that minimises the compressed time above over wire sizes
 * w = s/r on the model's curve points and a 2^(1/4) grid from 1 KiB to
 * 1 MiB (s = w r rounded down to a multiple of ARCOLL_COMPRESS_SEG_UNIT):
 * so the compressed messages land where the network moves bytes best
 * (with SMPI's default factors: 5776..9375 B; a calibrated curve has its
 * per-byte minimum at its 8 KiB point), not at the raw chain's segment.
 * The raw time it must beat is then the smaller of the raw chain at the
 * schedule's segment and at its own best segment on the same grid (r = 1,
 * no codec), so that a better segment alone never passes for compression;
 * a raw stream keeps the schedule's segment (which the online selection
 * measured).
 */
#ifndef ARCOLL_COLLECTIVES_COMPRESS_DECIDE_H
#define ARCOLL_COLLECTIVES_COMPRESS_DECIDE_H

#include <mpi.h>

#include "compress_codec.h"
#include "select.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The segment size travels in the header in units of this many bytes. */
#define ARCOLL_COMPRESS_SEG_UNIT 1024
/** Largest segment of the compressed broadcast (bytes). */
#define ARCOLL_COMPRESS_SEG_MAX (1 << 20)

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
 * Set this process's mode and, when t_s and B are both > 0, a linear
 * network T(m) = t_s + m/B, X(m) = m/B (t_s seconds, B bytes/second; no
 * curves, no codec entry: the measured throughputs); otherwise the network
 * stays.  Default before any call: auto, t_s = 5e-6 s, B = 1.125e9 B/s
 * (arcoll_model_default's inter).
 */
void arcoll_compress_configure(arcoll_compress_mode_t mode, double t_s, double B);

/**
 * Set this process's mode and the whole network model: the inter-node
 * parameters and curves of *m (NULL: keep the current network), and its
 * codec entry (codec_lz4 / codec_zstd: the throughputs used instead of the
 * measured ones when > 0).  adapt/dispatch.c calls it with ARCOLL_MODEL's
 * model.  arcoll_compress_configure() with t_s, B > 0 replaces all this by
 * a linear network without codec entry.
 */
void arcoll_compress_configure_model(arcoll_compress_mode_t mode, const arcoll_model_t *m);

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
  MPI_Aint seg;          /**< bcast: segment bytes of the stream (chosen from r when compressed in auto), else 0 */
} arcoll_compress_decision_t;

/** Shape of a compressed collective for the decision (model above). */
typedef struct arcoll_compress_shape {
  double hops;         /**< store-and-forward hops of the first message (chain / ring: P-1; direct: 1) */
  double k;            /**< messages one after another through the busiest link (>= 1) */
  int serial_compress; /**< 1: one rank compresses all k (C in the period); 0: each sender once, in parallel */
  int stream;          /**< 1: the k messages are in flight together (period X); 0: store and forward (T) */
} arcoll_compress_shape_t;

/**
 * The broadcast root's decision for `bytes` bytes at `data` sent down a
 * chain of P ranks in segments of `seg` bytes (the schedule's).  off: RAW;
 * lz4 / zstd: that codec; auto: RAW below ARCOLL_COMPRESS_MIN_BYTES or when
 * P < 2, else the model above (chain shape) with LZ4 and zstd, each sampled
 * on ARCOLL_COMPRESS_SLICES slices of ARCOLL_COMPRESS_SLICE bytes (first,
 * middle, last); when it compresses, d->seg is the segment size chosen from
 * the ratio (see above: a multiple of ARCOLL_COMPRESS_SEG_UNIT in
 * [1 KiB, 1 MiB]), else `seg`.  Fills *d (may be NULL) and returns the codec.
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
 * The decision of one sender for its `bytes` bytes at `data` sent as
 * messages of `msg` bytes in the given shape (gather: its block; alltoall:
 * all its outgoing blocks, msg = one block); `moved` = bytes through the
 * busiest link, compared with ARCOLL_COMPRESS_MIN_BYTES.  Modes as
 * arcoll_compress_decide(); never chooses a segment (d->seg = 0).
 */
arcoll_codec_t arcoll_compress_decide_shape(const void *data, MPI_Aint bytes, MPI_Aint msg,
                                            const arcoll_compress_shape_t *shape, MPI_Aint moved,
                                            arcoll_compress_decision_t *d);

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
