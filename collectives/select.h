/**
 * @file select.h
 * @brief Performance model and algorithm selection for the collectives of
 *        collectives/ (issue 3).  The cost model (model.c: one predicted-time
 *        function per algorithm) is apart from the search (select.c: evaluate
 *        every eligible algorithm of a collective and every candidate segment
 *        count, keep the fastest).
 *
 * Units: times in seconds, sizes in bytes, bandwidths in bytes/second.
 *
 * Model (seed 000_32450fa7292fe18a.txt): linear point-to-point time
 * T_send(m) = t_s + m / B, and LogGP (L, o, g, G) as in Alexandrov et al. 1995;
 * one set for pairs on the same node (intra) and one for pairs on different
 * nodes (inter).  gamma: seconds per byte to apply a reduction op (T_comp).
 * The model file (JSON, written by `arcoll calibrate`, read when
 * ARCOLL_MODEL names it) is documented in collectives/README.md.
 */
#ifndef ARCOLL_COLLECTIVES_SELECT_H
#define ARCOLL_COLLECTIVES_SELECT_H

#include <mpi.h>

#include "coll.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Point-to-point parameters of one class of rank pairs. */
typedef struct arcoll_p2p_params {
  double t_s;   /**< start-up time of the linear model, seconds */
  double B;     /**< bandwidth of the linear model, bytes/second */
  double L;     /**< LogGP latency, seconds */
  double o;     /**< LogGP overhead (send = receive), seconds */
  double g;     /**< LogGP gap between messages, seconds */
  double G;     /**< LogGP gap per byte, seconds/byte */
} arcoll_p2p_params_t;

/** Maximum number of points of a measured point-to-point curve. */
#define ARCOLL_MODEL_CURVE_MAX 48

/**
 * Optional measured point-to-point times of one class of pairs: seconds[i]
 * is the one-way time (half round trip) of a message of bytes[i] bytes,
 * bytes strictly increasing, bytes[0] == 0.  n == 0: no curve, the model
 * uses the linear T(m) = t_s + m/B.  With a curve, T(m) interpolates it
 * linearly (beyond the last point: slope G), which captures the piecewise
 * protocols (eager/rendezvous, SMPI's size-dependent factors) a single line
 * misses.  Written by arcoll-calibrate ("inter_curve", "intra_curve").
 */
typedef struct arcoll_p2p_curve {
  int n;
  double bytes[ARCOLL_MODEL_CURVE_MAX];
  double seconds[ARCOLL_MODEL_CURVE_MAX];
} arcoll_p2p_curve_t;

/** Calibrated codec of the compressed collectives (compress_codec.h): how
 *  fast it runs on this machine's CPU and how much it shrinks the
 *  calibration sample (arcoll_text_like, 256 KiB in 64 KiB blocks). */
typedef struct arcoll_codec_calib {
  double compress_Bps;   /**< compression throughput, bytes of input per second (0: none) */
  double decompress_Bps; /**< decompression throughput, bytes of output per second (0: none) */
  double ratio;          /**< input / output bytes on the sample (0: none) */
} arcoll_codec_calib_t;

/** The whole model. */
typedef struct arcoll_model {
  arcoll_p2p_params_t intra; /**< pairs on one node */
  arcoll_p2p_params_t inter; /**< pairs on different nodes */
  double gamma;              /**< reduction cost, seconds/byte */
  char source[256];          /**< "built-in default" or the model file path */
  /* added after the first version of this header (fields appended only): */
  arcoll_p2p_curve_t intra_curve; /**< optional measured curve, pairs on one node */
  arcoll_p2p_curve_t inter_curve; /**< optional measured curve, pairs on different nodes */
  /** optional measured stream periods: seconds[i] = time per message when
   *  messages of bytes[i] bytes are sent back to back to one peer (the link
   *  occupancy of a message; LogGP's g + (m-1) G per size).  n == 0: derived
   *  from the linear model (m/B, at least g). */
  arcoll_p2p_curve_t intra_gap_curve;
  arcoll_p2p_curve_t inter_gap_curve;
  /** optional codec entry ("codec" in the model file, written by
   *  arcoll-calibrate): LZ4's and zstd level 1's measured throughputs and
   *  ratio; all fields 0 when the file has none (compress_decide.h then
   *  measures the throughputs at first use). */
  arcoll_codec_calib_t codec_lz4;
  arcoll_codec_calib_t codec_zstd;
} arcoll_model_t;

/** One-way time (seconds) of a `bytes`-byte message between two ranks of
 *  class p / curve c (the curve when c->n > 0, else t_s + bytes/B). */
double arcoll_model_p2p(const arcoll_p2p_params_t *p, const arcoll_p2p_curve_t *c, double bytes);

/** Stream period (seconds per message) of `bytes`-byte messages: the gap
 *  curve when gc->n > 0, else max(g, bytes/B). */
double arcoll_model_gap(const arcoll_p2p_params_t *p, const arcoll_p2p_curve_t *gc, double bytes);

/** What the selector chose. */
typedef struct arcoll_choice {
  const arcoll_algo_desc_t *algo; /**< entry of the collective's table */
  MPI_Aint segment_bytes;         /**< for arcoll_sched_t.segment_bytes (<= 0: one segment) */
  int k;                          /**< for arcoll_sched_t.k (0: algorithm default) */
  double predicted_s;             /**< predicted time, seconds */
} arcoll_choice_t;

/** 1 if a and b run the same configuration (algorithm, segment size, k;
 *  the prediction is not compared). */
static inline int arcoll_choice_same(const arcoll_choice_t *a, const arcoll_choice_t *b) {
  return a->algo == b->algo && a->segment_bytes == b->segment_bytes && a->k == b->k;
}

/** Collectives with selection (index into arcoll_algorithm_table()). */
typedef enum {
  ARCOLL_COLL_BCAST = 0,
  ARCOLL_COLL_REDUCE,
  ARCOLL_COLL_ALLREDUCE,
  ARCOLL_COLL_SCAN,
  ARCOLL_COLL_EXSCAN,
  ARCOLL_COLL_GATHER,
  ARCOLL_COLL_SCATTER,
  ARCOLL_COLL_ALLTOALL,
  ARCOLL_COLL_BARRIER,
  ARCOLL_COLL_ALLGATHER,
  ARCOLL_COLL_REDUCE_SCATTER_BLOCK,
  ARCOLL_COLL_ALLGATHERV,
  ARCOLL_COLL_GATHERV,
  ARCOLL_COLL_SCATTERV,
  ARCOLL_COLL_REDUCE_SCATTER,
  ARCOLL_COLL_ALLTOALLV,
  ARCOLL_COLL_COUNT
} arcoll_coll_t;

/** The block size (bytes) for which libarcoll's MPI_Gatherv / MPI_Scatterv
 *  choose their algorithm, whatever the call moves: only the root knows the
 *  counts, and every rank must make the same choice (adapt/vblocks.c; also
 *  bench/smpi_coll_bench's auto column). */
#define ARCOLL_VBLOCK_NOMINAL_BYTES 1024

/** Block size (bytes) at which libarcoll's MPI_Alltoallv ranks the alltoallv
 *  algorithms: every rank knows only its own counts, so one size class per
 *  communicator (adapt/alltoallv.c; also bench/smpi_coll_bench). */
#define ARCOLL_ALLTOALLV_CHOICE_BYTES 4096

/** Lower-case name of a collective ("bcast", ...); NULL when out of range. */
const char *arcoll_coll_name(arcoll_coll_t c);

/** The algorithm table of a collective and its length (*n). */
const arcoll_algo_desc_t *arcoll_algorithm_table(arcoll_coll_t c, int *n);

/** Table entry by name, or the native candidate for "native" (native.h); NULL
 *  when the collective has no such algorithm. */
const arcoll_algo_desc_t *arcoll_algorithm_find(arcoll_coll_t c, const char *name);

/** The built-in default model (documented in collectives/README.md). */
void arcoll_model_default(arcoll_model_t *m);

/**
 * Read a model file (JSON, format in collectives/README.md) into *m.
 * Returns 0, or -1 with a message naming the file and the problem in
 * err (size errlen): unreadable file, not JSON, version not 1, missing or
 * non-numeric field, B or G not > 0, t_s/L/o/g/gamma negative, a curve
 * ("inter_curve", "intra_curve", "inter_gap_curve", "intra_gap_curve";
 * optional) that is not [[bytes, seconds], ...]
 * with bytes increasing from 0 and seconds >= 0, a "codec" entry (optional:
 * {"lz4": {"compress_Bps", "decompress_Bps", "ratio"}, "zstd": {...}}, each
 * codec optional, its three numbers > 0) of another shape.
 */
int arcoll_model_load(const char *path, arcoll_model_t *m, char *err, int errlen);

/**
 * Write *m to the model file `path` (format of arcoll_model_load; numbers
 * printed exactly, so load(save(m)) == m).  extra_json: NULL or the text of a
 * JSON object whose keys are written too (notes, raw measurements; the
 * loader ignores them).  Returns 0, or -1 with a message naming the file in
 * err (size errlen).  Used by arcoll-calibrate (tools/calibrate.c).
 */
int arcoll_model_save(const char *path, const arcoll_model_t *m, const char *extra_json,
                      char *err, int errlen);

/**
 * Predicted time (seconds) of algorithm `algo` of collective c for P ranks
 * and `bytes` bytes per rank (the count x type size of MPI_Bcast, MPI_Reduce,
 * MPI_Allreduce, MPI_Scan; of one block for gather, scatter, alltoall,
 * allgather and reduce_scatter_block; of the largest block for allgatherv and
 * reduce_scatter; a fixed block size for alltoallv, whose counts differ
 * between ranks: adapt/alltoallv.c),
 * with the given segment size / parameter k (0: the algorithm's default).
 * Returns a negative value when the model has no formula for it.
 */
double arcoll_model_predict(const arcoll_model_t *m, arcoll_coll_t c,
                            const arcoll_algo_desc_t *algo, int P, MPI_Aint bytes,
                            MPI_Aint segment_bytes, int k);

/**
 * Pick the algorithm and segmentation with the smallest predicted time.
 * commutative = 0 excludes the ARCOLL_ALGO_COMMUTATIVE_ONLY algorithms.
 * Returns 0 and fills *out; -1 when no algorithm is eligible.
 */
int arcoll_select(const arcoll_model_t *m, arcoll_coll_t c, int P, MPI_Aint bytes,
                  int commutative, arcoll_choice_t *out);

/**
 * Algorithm a of collective c with its best segment size / k by the model
 * (the configuration arcoll_select_candidates() would rank), even for an
 * algorithm the ranking leaves out (bcast compressed).  Returns 0 and fills
 * *out, or -1 when the model has no formula for it.
 */
int arcoll_select_config(const arcoll_model_t *m, arcoll_coll_t c, const arcoll_algo_desc_t *a,
                         int P, MPI_Aint bytes, arcoll_choice_t *out);

/**
 * Link occupancy (seconds) of `bytes` sent as k = ceil(bytes / seg) segments
 * back to back (seg <= 0: one message): k x X(bytes / k), X the stream
 * period (arcoll_model_gap: the model's inter_gap_curve, else
 * max(g, m / B)).  What a call costs a link when back-to-back calls stream
 * (arcoll_select_stream_segment, arcoll_select_stream, online_slots.h
 * arcoll_explorer_chain_streams).  m must not be NULL.
 */
double arcoll_select_stream_occupancy(const arcoll_model_t *m, MPI_Aint bytes, MPI_Aint seg);

/**
 * Segment size (bytes; 0 = one segment) of algorithm a of collective c for
 * calls that run back to back (the root ahead, its sends queued at its
 * link): the one whose k segments occupy the root's link least per call,
 * k x X(bytes / k) with X the stream period (arcoll_model_gap: the model's
 * inter_gap_curve, else max(g, m / B)), over the segment sizes
 * arcoll_select_config considers (one segment, powers of two below `bytes`,
 * the model's analytic optima); among those within 5 % of the least, the one
 * with the smallest predicted time (arcoll_model_predict).  Not one call's
 * latency, which arcoll_select_config minimises: behind a late rank, SMPI
 * flat P = 256, 32 KiB bcast, the latency-best 2 KiB segments took 19.3 s
 * summed inside vs 12.1 s with 8 KiB, the least-occupancy segment of
 * tools/platforms/cluster256.model.json (adapt/LATENESS.md "Lateness").
 * Returns 0 for bad arguments (m or a NULL, P < 1, bytes <= 0).
 */
MPI_Aint arcoll_select_stream_segment(const arcoll_model_t *m, arcoll_coll_t c,
                                      const arcoll_algo_desc_t *a, int P, MPI_Aint bytes);

/** Bcast size (bytes) from which arcoll_tolerant_tree() is the binary tree
 *  and the online selection measures the streaming candidate
 *  (arcoll_select_stream): where segments stream (adapt/dispatch.h
 *  ARCOLL_LATE_DEFAULT_MIN_BYTES is the same size). */
#define ARCOLL_STREAM_MIN_BYTES 8192

/**
 * Name of the tree that late-rank orders (adapt/order.h: late ranks on the
 * positions of the smallest binomial subtrees, the last odd positions) keep
 * tolerant - late ranks on leaves - for collective c and `bytes`: for a bcast
 * from ARCOLL_STREAM_MIN_BYTES the binary tree (bcast.h `binary`, whose
 * leaves are those positions too and whose busiest rank sends the message
 * twice per call, binomial's root log2 P times), else binomial.  SMPI P = 64,
 * 32 KiB bcast, 200 calls, summed inside, binary / binomial as the tolerant
 * tree, flat cluster: one late rank 1.00 / 1.92 s, a moving one 1.20 / 1.75,
 * seed 001 1.04 / 2.77, eight late 2.06 / 1.66.  Its subtrees are contiguous
 * ranges of positions: in heap order (children 2p+1, 2p+2) every level
 * crossed the 160:1 uplinks of the two-level tree at once (balanced, forced:
 * heap 72.5 s, contiguous 6.53, binomial 5.9).  Never NULL.
 */
const char *arcoll_tolerant_tree(arcoll_coll_t c, MPI_Aint bytes);

/**
 * The bcast configuration with the least predicted occupancy of the busiest
 * rank's link per call, copies x k x X(bytes / k) (copies:
 * arcoll_model_bcast_copies in model_cost.h; k segments of the algorithm's
 * arcoll_select_stream_segment; X: arcoll_model_gap), among those within
 * 5 % of the least, the one with the smallest predicted time
 * (arcoll_model_predict); out->predicted_s is that one-call latency.  Why:
 * back-to-back bcasts stream, each call's segments following the previous
 * call's, so a call costs its period, not its latency: SMPI flat P = 64,
 * 32 KiB, 200 balanced calls, time inside summed over ranks, the chain in
 * 8 KiB segments 0.433 s, binomial / 8 KiB 1.89 s, scatter_rdb 2.10 s -
 * while the model ranks the chain's one-call latency last.  The online
 * selection measures this candidate beside the latency-ranked ones
 * (online.c).  Returns 0, or -1 for a collective other than bcast, P < 2,
 * bytes <= 0, m or out NULL, or no algorithm with a formula.
 */
int arcoll_select_stream(const arcoll_model_t *m, arcoll_coll_t c, int P, MPI_Aint bytes,
                         arcoll_choice_t *out);

/**
 * The nmax most promising configurations of collective c, one per algorithm:
 * each eligible algorithm with its best segment size / k by the model, sorted
 * by predicted time (ascending; ties in table order).  out[0] is
 * arcoll_select()'s choice.  With nmax >= 3, when out[0] is segmented
 * (segment_bytes > 0), the last slot is out[0]'s algorithm unsegmented
 * instead of the last-ranked algorithm (the model misranks segment sizes
 * more often than algorithms); when out[0] is unsegmented and nmax slots
 * are filled, the best-ranked segmented candidate out[j] (0 < j < nmax - 1)
 * unsegmented replaces the last-ranked algorithm if the model predicts it
 * faster than that one.  These are the candidates the online
 * selection (collectives/online.h) measures.  Returns how many were written
 * (0..nmax).
 */
int arcoll_select_candidates(const arcoll_model_t *m, arcoll_coll_t c, int P, MPI_Aint bytes,
                             int commutative, arcoll_choice_t *out, int nmax);

#ifdef __cplusplus
}
#endif
#endif
