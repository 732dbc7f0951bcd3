/**
 * @file tuning.h
 * @brief Tuning files: the algorithm choices a run with libarcoll.so made
 *        (online measurement, collectives/online.h), written at MPI_Finalize
 *        (ARCOLL_TUNING_OUT=file) and read at MPI_Init (ARCOLL_TUNING=file),
 *        so that a rerun starts where the last one ended: a (collective,
 *        communicator size, op commutative, size class) found in the file
 *        runs its algorithm from the first call, with no exploration calls.
 *
 * Why: the online selection costs up to 5 % of a 200-call run per size
 * class (online.h, cost bounds); a program run many times on the same
 * machine pays it once.  Seed 001 (001_6a837e3d9ad6c429.txt, to-do 1) asks
 * for adaptation whose information gathering is cheap; persisting it is
 * the cheapest.
 *
 * File format (JSON; adapt/TUNING.md, "Tuning files"):
 *   {"arcoll_tuning": 1,
 *    "choices": [{"collective": "bcast", "P": 64, "commutative": true,
 *                 "size_class": 61, "bytes": 32768, "algorithm": "binomial",
 *                 "segment_bytes": 8192, "k": 0, "source": "measured"}, ...],
 *    ...other keys are ignored}
 * `bytes` is the class's representative size (informative; the key is
 * size_class, dispatch.h's quarter-octave classes); `source` is "measured"
 * (online selection), "model" (one candidate: the model alone) or
 * "tuning" (carried over from the file read at MPI_Init); informative.
 * A file is valid for the machine, the MPI library and the model it was
 * written with; nothing checks that.
 *
 * Late ranks (optional key "lateness", tuning_late.cpp): per (collective,
 * communicator size, call site, root) the ranks an earlier run's lateness
 * history (order.h) held late when the communicator ended, each with its
 * caused lateness (the history's EWMA, seconds, order.h), and the tolerant tree its
 * trials chose (late_trees.h):
 *   "lateness": [{"collective": "bcast", "P": 64, "site": "0x9e3779b97f4a7c15",
 *                 "root": 0, "t_level_s": 6.2e-05, "noise_s": 0.0,
 *                 "tolerant_tree": "first", "late": [{"rank": 32, "caused_s": 0.0029}]}]
 * `site` is site.h's key (the root's call site: the same binary gives the
 * same key in every run); `tolerant_tree` is "first", "second" or
 * "undecided" (late_trees.h ARCOLL_TREES_*).  A rerun with ARCOLL_TUNING
 * starts every tracker of that collective and size with these late sets
 * (order.h arcoll_history_seed), so its first calls already have the late
 * ranks on leaves; its exchanges then go on as usual.  Why: before the
 * first lateness summary (call 2 of a bcast, 4 of a reduce) the tree runs
 * in rank order, and a late rank at its top holds P/2 - 1 others (SMPI
 * flat P = 64, 32 KiB bcast, seed 001's rank 32 3 ms late: calls 0-2 took
 * 0.58 s of the run's 1.29 s summed inside; bench/notes/adaptive-layer-2026-11-28-to-29.md).
 */
#ifndef ARCOLL_ADAPT_TUNING_H
#define ARCOLL_ADAPT_TUNING_H

#include <mpi.h>
#include <stdint.h>

#include "lateness.h"
#include "select.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Byte size classes: 0 for 0 bytes, then 4 per power of two (quarter octaves). */
#define ARCOLL_NCLASS (1 + 4 * 63 + 4)

/** Current (and only) version of the file format. */
#define ARCOLL_TUNING_VERSION 1

/** Longest algorithm name a tuning entry carries (with its NUL). */
#define ARCOLL_TUNING_NAME 48

/** One choice: key (coll, P, commutative, size_class) -> configuration. */
typedef struct arcoll_tuning_entry {
  arcoll_coll_t coll;
  int P;            /**< communicator size, >= 2 */
  int commutative;  /**< 0 / 1: the op of a reduction was commutative (others: 1) */
  int size_class;   /**< 0 .. ARCOLL_NCLASS-1 */
  MPI_Aint bytes;   /**< representative bytes of the class (informative) */
  const arcoll_algo_desc_t *algo; /**< never NULL */
  MPI_Aint segment_bytes;         /**< >= 0, 0 = one segment */
  int k;                          /**< >= 0 (k-ary / k-segment parameter, 0 = default) */
  const char *source;             /**< static string: "measured", "model", "tuning" */
} arcoll_tuning_entry_t;

/** Late ranks of one (collective, P, call site, root), fixed size (also its
 *  wire form between ranks). */
typedef struct arcoll_tuning_late {
  int32_t coll;      /**< arcoll_coll_t */
  int32_t P;         /**< communicator size, >= 2 */
  uint64_t site;     /**< the root's call-site key (site.h) */
  int32_t root;      /**< 0 .. P-1 */
  int32_t tree;      /**< the tracker's tolerant tree: ARCOLL_TREES_* (late_trees.h), 0 undecided */
  float t_level;     /**< model time of one tree level, seconds, >= 0 */
  float noise;       /**< the group's noise level, seconds, >= 0 */
  int32_t n;         /**< late ranks listed, 1 .. ARCOLL_LATE_LIST */
  int32_t rank[ARCOLL_LATE_LIST];   /**< distinct, 0 .. P-1, never root; latest first */
  float caused[ARCOLL_LATE_LIST];   /**< their caused lateness (EWMA), seconds, >= 0 */
} arcoll_tuning_late_t;

/** A set of choices, unique per key, and of late sets, unique per (coll, P,
 *  site, root). Zero-initialise before use. */
typedef struct arcoll_tuning {
  arcoll_tuning_entry_t *e;
  int n, cap;
  arcoll_tuning_late_t *late;
  int nlate, late_cap;
} arcoll_tuning_t;

/**
 * Read the tuning file `path` into *t (which must be empty).  Returns 0, or
 * -1 with a message naming the file and the problem (unreadable, not JSON,
 * wrong version, a choice's field missing or out of range, an algorithm the
 * collective does not have, a commutative-only algorithm for a
 * non-commutative key, a key given twice) in err (size errlen); *t is then
 * empty.  No exception leaves it (C callers).
 */
int arcoll_tuning_load(const char *path, arcoll_tuning_t *t, char *err, int errlen);

/**
 * Write *t to `path` (replaced atomically: a temporary file then rename) in
 * the format above, entries sorted by key.  Returns 0, or -1 with a message
 * naming the file and the system error in err.
 */
int arcoll_tuning_save(const char *path, const arcoll_tuning_t *t, char *err, int errlen);

/** The entry of key (c, P, commutative, size_class) in *t, or NULL. */
const arcoll_tuning_entry_t *arcoll_tuning_find(const arcoll_tuning_t *t, arcoll_coll_t c, int P,
                                                int commutative, int size_class);

/**
 * Add *x to *t unless its key is already there (the first choice of a key
 * wins).  Returns 1 if added, 0 if the key was present, -1 on no memory.
 */
int arcoll_tuning_add(arcoll_tuning_t *t, const arcoll_tuning_entry_t *x);

/**
 * Add *x to t's late sets unless its (coll, P, site, root) is there (the
 * first wins).  Returns 1 if added, 0 if present, -1 on no memory.
 */
int arcoll_tuning_add_late(arcoll_tuning_t *t, const arcoll_tuning_late_t *x);

/**
 * Check one late set (the file's rules above; a wire form received from
 * another rank too).  Returns NULL when valid, else a static message naming
 * the field at fault.
 */
const char *arcoll_tuning_late_invalid(const arcoll_tuning_late_t *x);

/**
 * The late sets a run writes to ARCOLL_TUNING_OUT: out (empty on entry)
 * gets the sets of `file` (the ARCOLL_TUNING file read at MPI_Init, may be
 * NULL) whose (coll, P, site, root) this run did not track, in the file's
 * order, then this run's sets `run[0..n-1]` with n >= 1 ranks, in their
 * order (seeding goes in file order, the latest last: the carried-over
 * sets are older).  A record of `run` with n == 0 says "tracked, nobody
 * late at the end": its key is dropped from the file's sets and nothing is
 * written for it.  Records failing arcoll_tuning_late_invalid (n == 0
 * apart) are skipped; a key given twice in `run` keeps its first.
 * Returns 0, or -1 on no memory (out then holds what was added).
 */
int arcoll_tuning_merge_late(arcoll_tuning_t *out, const arcoll_tuning_late_t *run, int n,
                             const arcoll_tuning_t *file);

/** Free *t's storage and make it empty. */
void arcoll_tuning_free(arcoll_tuning_t *t);

/** Fixed-size form of an entry (for MPI_BYTE transfers between ranks). */
typedef struct arcoll_tuning_wire {
  int32_t coll, P, commutative, size_class, k, pad;
  int64_t bytes, segment_bytes;
  char algo[ARCOLL_TUNING_NAME];
  char source[16];
} arcoll_tuning_wire_t;

/** Entry -> wire form. */
void arcoll_tuning_pack(const arcoll_tuning_entry_t *x, arcoll_tuning_wire_t *w);

/** Wire form -> entry; returns -1 (x untouched) if the collective or the
 *  algorithm name is unknown, else 0. */
int arcoll_tuning_unpack(const arcoll_tuning_wire_t *w, arcoll_tuning_entry_t *x);

#ifdef __cplusplus
}
#endif
#endif
