/**
 * @file coll.h
 * @brief Common conventions of the collective algorithms in collectives/.
 *
 * A schedule is an order x a segmentation (one algorithm per file, tree/order
 * construction apart from data movement: tree.h builds trees, the algorithm
 * files move data). Every algorithm has the uniform name
 *
 *     int arcoll_<collective>_<algorithm>(<the MPI arguments, counts as MPI_Aint>,
 *                                         MPI_Comm comm, const arcoll_sched_t *s);
 *
 * e.g. arcoll_reduce_binomial(sendbuf, recvbuf, count, datatype, op, root, comm, s),
 * like MPICH's src/mpi/coll/<op>/<op>_intra_<algorithm>.c. Semantics are those
 * of the MPI call (MPI_IN_PLACE, count 0, any root, derived datatypes, user
 * ops); arguments are assumed valid (the caller delegates invalid ones to PMPI).
 * Return MPI_SUCCESS or the first error code of an MPI call.
 *
 * Each collective has a table of its algorithms (arcoll_algo_desc_t) so the
 * selector and `arcoll list-algorithms` can enumerate them.
 */
#ifndef ARCOLL_COLLECTIVES_COLL_H
#define ARCOLL_COLLECTIVES_COLL_H

#include <mpi.h>

#include "tree.h" /* arcoll_tree_shape_t */

#ifdef __cplusplus
extern "C" {
#endif

/** How an algorithm runs: rank order, segmentation, parameter, tag. */
typedef struct arcoll_sched {
  /** position -> communicator rank, a permutation of 0..P-1 (P = comm size);
   *  NULL = identity. Rooted collectives require order[0] == root when set.
   *  Order-preserving algorithms (non-commutative ops) ignore it. */
  const int *order;
  /** segment size in bytes, rounded down to whole elements; <= 0: one segment */
  MPI_Aint segment_bytes;
  /** algorithm parameter (pieces k, radix, ...); 0 = the algorithm's default */
  int k;
  /** point-to-point tag of every message; callers run on a private communicator */
  int tag;
  /** per position (size P, position 0 never set): 1 = the rank there sends its subtree's
   *  result straight to the root, which receives it after its tree children (adapt/order.h
   *  "detached": late ranks of a reduce); NULL = none.  Read by the binomial and k-nomial
   *  reduce for commutative ops only (reduce.h); every other algorithm ignores it. */
  const unsigned char *detached;
  /** this rank's state of the detaching k-nomial / binomial reduce (reduce_detach.h: late
   *  ranks detached by their tree parent, small messages, commutative ops, no order);
   *  NULL = the plain tree.  Every rank of the call passes one or none. */
  struct arcoll_red_detach *red_detach;
  /** chain bcast (bcast.h arcoll_bcast_chain): the blocks of rank numbers that bound the
   *  runs of its chain of runs (tree_extra.h arcoll_tree_chain_runs); <= 1: one chain.  Every other algorithm
   *  ignores it. */
  int run;
  /** halving algorithms (reduce_scatter_halving.h: allreduce rabenseifner, reduce rsag and
   *  their far-first twins): when non-NULL, this rank's seconds in the exchange of each
   *  recursive-halving step, step i at [i] (log2 of P's largest power of two, at most 30), the
   *  local reduction not counted; a rank folded out of the halving (P not a power of two)
   *  writes nothing.  Every other algorithm ignores it.  collectives/online_steps.h reads it. */
  double *step_s;
} arcoll_sched_t;

/** Default radix of the k-nomial broadcast tree (bcast knomial; MVAPICH2's). */
#define ARCOLL_KNOMIAL_RADIX 4

/** Algorithm property flags. */
#define ARCOLL_ALGO_COMMUTATIVE_ONLY 1u /**< needs a commutative op */
#define ARCOLL_ALGO_USES_ORDER 2u       /**< honours sched->order */
#define ARCOLL_ALGO_SEGMENTED 4u        /**< honours sched->segment_bytes */
/** exchanges between far positions first (M/2 between positions P/2 apart);
 *  its near-first twin, the same formula, is in the same table */
#define ARCOLL_ALGO_FAR_FIRST 8u

/** One entry of an algorithm table; `fn` is cast to the collective's signature. */
typedef struct arcoll_algo_desc {
  const char *collective; /**< "bcast", "reduce", ... */
  const char *name;       /**< "binomial", "pipeline", ... (ARCOLL_<COLL>_ALGORITHM value) */
  void (*fn)(void);       /**< the arcoll_<collective>_<name> function */
  unsigned flags;         /**< ARCOLL_ALGO_* */
  const char *source;     /**< seed file + formula, or paper */
  arcoll_tree_shape_t tree; /**< its tree over positions; left out of a table entry: NONE */
} arcoll_algo_desc_t;

/**
 * MPI_Wait on req[0..n) (MPI_REQUEST_NULL entries allowed), every one even
 * after an error (no request is left pending).  Returns rc when it is not
 * MPI_SUCCESS (an earlier error wins), else the first error of the waits,
 * else MPI_SUCCESS.  One MPI_Wait per request, not MPI_Waitall with
 * MPI_STATUSES_IGNORE, which GCC's access attributes on MPICH's prototypes
 * flag.  Defined in coll.c.
 */
int arcoll_wait_all(MPI_Aint n, MPI_Request *req, int rc);

/**
 * Parses s as a whole decimal integer (optional sign, no trailing characters,
 * no overflow) in [lo, hi] into *out.  Returns 0, or -1 (then *out is left
 * unchanged) when s is empty, not a whole integer or out of range.  The one
 * integer parser of the environment variables (adapt/config.c, the SMPI
 * benchmark).  Defined in coll.c.
 */
int arcoll_parse_integer(const char *s, long long lo, long long hi, long long *out);

#ifdef __cplusplus
}
#endif
#endif
