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
 * File format (JSON; adapt/README.md, "Tuning files"):
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
 */
#ifndef ARCOLL_ADAPT_TUNING_H
#define ARCOLL_ADAPT_TUNING_H

#include <mpi.h>
#include <stdint.h>

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

/** A set of choices, unique per key. Zero-initialise before use. */
typedef struct arcoll_tuning {
  arcoll_tuning_entry_t *e;
  int n, cap;
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
