/**
 * @file dispatch_blocks.h
 * @brief Internal to libarcoll.so: the dispatch entry points that several
 *        collectives share - the rooted and unrooted block collectives
 *        (blocks.c, vblocks.c, unrooted_blocks.c), the unrooted reductions
 *        (reduction.c), the argument checks of the v-forms - and the
 *        MPI_<Name> / MPI_<Name>_c wrapper macros built on them.  Not
 *        installed.  What every collective shares is dispatch.h.
 */
#ifndef ARCOLL_ADAPT_DISPATCH_BLOCKS_H
#define ARCOLL_ADAPT_DISPATCH_BLOCKS_H

#include "dispatch.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Dispatch of one call of the unrooted reductions (c = ARCOLL_COLL_ALLREDUCE,
 * _SCAN, _EXSCAN or _REDUCE_SCATTER_BLOCK, count = one block's; reduction.c):
 * checks, choice, run on the private communicator.  Returns the algorithm's result (errors already passed to
 * the communicator's error handler) or ARCOLL_USE_PMPI.
 */
ARCOLL_HIDDEN int arcoll_unrooted_reduction(arcoll_coll_t c, const void *sendbuf, void *recvbuf,
                                            MPI_Aint count, MPI_Datatype dt, MPI_Op op,
                                            MPI_Comm comm);

/**
 * Dispatch of one MPI_Gather (c = ARCOLL_COLL_GATHER) or MPI_Scatter (c =
 * ARCOLL_COLL_SCATTER) call (blocks.c), with the call's own arguments.
 * Returns the algorithm's result (errors already passed to the
 * communicator's error handler) or ARCOLL_USE_PMPI.  ret_addr: the caller's
 * return address (call-site key of the late-rank order).
 */
ARCOLL_HIDDEN int arcoll_rooted_blocks(arcoll_coll_t c, const void *sendbuf, MPI_Aint scount,
                                       MPI_Datatype stype, void *recvbuf, MPI_Aint rcount,
                                       MPI_Datatype rtype, int root, MPI_Comm comm,
                                       const void *ret_addr);

/** Counts and displs (int arrays, or MPI_Count / MPI_Aint arrays when
 *  wide: the _c forms) widened into v[0..P) and v[P..2P) (vblocks.c). */
ARCOLL_HIDDEN void arcoll_widen_counts(const void *counts, const void *displs, int wide, int P,
                                       MPI_Aint *v);

/**
 * The argument checks of MPI_Allgatherv (allgatherv.c), shared with
 * MPI_Iallgatherv (nbc_api_vblocks.c): rcounts / rdispls (int arrays, or
 * MPI_Count / MPI_Aint arrays when wide) widened into v[0..P) and
 * v[P..2P) (room for 2P), *bytes = all blocks' bytes, *maxb = the largest
 * block's bytes.  Returns 1 when arcoll may run the call; 0 (pass it to
 * PMPI) for NULL arrays, negative counts or counts above INT_MAX, more than
 * INT_MAX bytes in all, invalid types or buffers, a send size that is not
 * this rank's (me) block size, sendbuf equal to this rank's block (MPICH's
 * alias check).  Depends on rank-local arguments only where the call is
 * erroneous.
 */
ARCOLL_HIDDEN int arcoll_allgatherv_args(const void *sendbuf, MPI_Aint scount,
                                         MPI_Datatype stype, void *recvbuf, const void *rcounts,
                                         const void *rdispls, int wide, MPI_Datatype rtype, int P,
                                         int me, MPI_Aint *v, MPI_Aint *bytes, MPI_Aint *maxb);

/**
 * The argument checks of MPI_Alltoallv (alltoallv.c), shared with
 * MPI_Ialltoallv (nbc_api_vblocks.c): receive counts / displacements
 * widened into v[0..P) / v[P..2P), send ones (unless sbuf is MPI_IN_PLACE)
 * into v[2P..3P) / v[3P..4P) (room for 4P; wide: the _c form's arrays).
 * Returns 1 when arcoll may run the call; 0 (pass it to PMPI) only for
 * erroneous calls - NULL arrays, negative counts, invalid types, NULL
 * buffers with data, sbuf == rbuf - since each rank sees only its own
 * counts and all must take the same path.
 */
ARCOLL_HIDDEN int arcoll_alltoallv_args(const void *sbuf, const void *scounts,
                                        const void *sdispls, MPI_Datatype stype, void *rbuf,
                                        const void *rcounts, const void *rdispls,
                                        MPI_Datatype rtype, int wide, int P, MPI_Aint *v);

/** One MPI_Gatherv / MPI_Scatterv call, checked (gatherv.c, scatterv.c):
 *  counts / displs widened (root only; NULL elsewhere), the root's
 *  per-rank counts; scount (gatherv) or rcount (scatterv) this rank's own. */
typedef struct arcoll_vcall {
  const void *sbuf;
  MPI_Aint scount;
  MPI_Datatype stype;
  void *rbuf;
  MPI_Aint rcount;
  MPI_Datatype rtype;
  const MPI_Aint *counts, *displs;
  int root;
} arcoll_vcall_t;

/**
 * Dispatch of one checked MPI_Gatherv (c = ARCOLL_COLL_GATHERV) or
 * MPI_Scatterv (c = ARCOLL_COLL_SCATTERV) call (vblocks.c): state, the
 * choice for ARCOLL_VBLOCK_NOMINAL_BYTES, late-rank order, run on the
 * private communicator.  Returns the algorithm's result (errors already
 * passed to the communicator's error handler) or ARCOLL_USE_PMPI (no
 * eligible algorithm: the same on every rank).  ret_addr: call-site key.
 */
ARCOLL_HIDDEN int arcoll_rooted_vblocks(arcoll_coll_t c, const arcoll_vcall_t *a, MPI_Comm comm,
                                        const void *ret_addr);

/**
 * Dispatch of one MPI_Alltoall (c = ARCOLL_COLL_ALLTOALL) or MPI_Allgather
 * (c = ARCOLL_COLL_ALLGATHER) call (unrooted_blocks.c), with the call's own
 * arguments.  Returns the algorithm's result (errors already passed to the
 * communicator's error handler) or ARCOLL_USE_PMPI.
 */
ARCOLL_HIDDEN int arcoll_unrooted_blocks(arcoll_coll_t c, const void *sendbuf, MPI_Aint scount,
                                         MPI_Datatype stype, void *recvbuf, MPI_Aint rcount,
                                         MPI_Datatype rtype, MPI_Comm comm);

/**
 * The MPI_<Name> / MPI_<Name>_c (MPI >= 4) wrappers of a collective whose
 * dispatch is arcoll_rooted_blocks() (Gather, Scatter) or
 * arcoll_unrooted_reduction() (Scan, Exscan, Reduce_scatter_block) or
 * arcoll_unrooted_blocks()
 * (Alltoall, Allgather): the dispatcher's result, or the
 * PMPI call (noted as "pmpi" for arcoll_last_algorithm()) when it returns
 * ARCOLL_USE_PMPI.  One definition for the int and the large-count forms.
 */
#define ARCOLL_ROOTED_BLOCKS_WRAPPER(Name, COUNT_T, COLL)                                          \
  ARCOLL_EXPORT int MPI_##Name(const void *sendbuf, COUNT_T scount, MPI_Datatype stype,           \
                               void *recvbuf, COUNT_T rcount, MPI_Datatype rtype, int root,       \
                               MPI_Comm comm) {                                                    \
    int rc = arcoll_rooted_blocks(COLL, sendbuf, (MPI_Aint)scount, stype, recvbuf,                \
                                  (MPI_Aint)rcount, rtype, root, comm,                             \
                                  __builtin_return_address(0));                                    \
    if (rc != ARCOLL_USE_PMPI) return rc;                                                          \
    arcoll_note(COLL, NULL);                                                                       \
    return PMPI_##Name(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);                \
  }
#define ARCOLL_UNROOTED_REDUCTION_WRAPPER(Name, COUNT_T, COLL)                                     \
  ARCOLL_EXPORT int MPI_##Name(const void *sendbuf, void *recvbuf, COUNT_T count,                 \
                               MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {                        \
    int rc = arcoll_unrooted_reduction(COLL, sendbuf, recvbuf, (MPI_Aint)count, dt, op, comm);    \
    if (rc != ARCOLL_USE_PMPI) return rc;                                                          \
    arcoll_note(COLL, NULL);                                                                       \
    return PMPI_##Name(sendbuf, recvbuf, count, dt, op, comm);                                     \
  }
#define ARCOLL_UNROOTED_BLOCKS_WRAPPER(Name, COUNT_T, COLL)                                        \
  ARCOLL_EXPORT int MPI_##Name(const void *sendbuf, COUNT_T scount, MPI_Datatype stype,           \
                               void *recvbuf, COUNT_T rcount, MPI_Datatype rtype, MPI_Comm comm) { \
    int rc = arcoll_unrooted_blocks(COLL, sendbuf, (MPI_Aint)scount, stype, recvbuf,              \
                                    (MPI_Aint)rcount, rtype, comm);                                \
    if (rc != ARCOLL_USE_PMPI) return rc;                                                          \
    arcoll_note(COLL, NULL);                                                                       \
    return PMPI_##Name(sendbuf, scount, stype, recvbuf, rcount, rtype, comm);                      \
  }
#if MPI_VERSION >= 4
#define ARCOLL_WITH_LARGE_COUNT(WRAPPER, Name, COLL) \
  WRAPPER(Name, int, COLL)                           \
  WRAPPER(Name##_c, MPI_Count, COLL)
#else
#define ARCOLL_WITH_LARGE_COUNT(WRAPPER, Name, COLL) WRAPPER(Name, int, COLL)
#endif

#ifdef __cplusplus
}
#endif
#endif
