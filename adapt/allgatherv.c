/*
 * libarcoll: MPI_Allgatherv and MPI_Allgatherv_c (MPI >= 4) dispatched to the
 * allgatherv algorithms of collectives/ (allgatherv.h): ring,
 * recursive_doubling, bruck, gather_bcast.  The size used for the choice is
 * the largest block's bytes (the imbalance term of the model; the same on
 * every rank since recvcounts are).  recvcounts / displs (int, or MPI_Count
 * / MPI_Aint for _c) are widened to MPI_Aint arrays for the algorithms.
 * Passed to PMPI (which reports MPICH's own errors): intercommunicators, one
 * rank, mode pmpi, and what arcoll_allgatherv_args() rejects (dispatch.h;
 * shared with MPI_Iallgatherv, nbc_api_vblocks.c).
 * Dispatch: dispatch.h, adapt/DISPATCH.md.
 */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>

#include "allgatherv.h"
#include "dispatch_blocks.h"

#define C ARCOLL_COLL_ALLGATHERV

int arcoll_allgatherv_args(const void *sendbuf, MPI_Aint scount, MPI_Datatype stype,
                           void *recvbuf, const void *rcounts, const void *rdispls, int wide,
                           MPI_Datatype rtype, int P, int me, MPI_Aint *v, MPI_Aint *bytes,
                           MPI_Aint *maxb) {
  int ssize = 0, rsize = 0;
  MPI_Aint lb, extent, total = 0;
  *bytes = *maxb = 0;
  if (!rcounts || !rdispls || !arcoll_type_ok(rtype, &rsize) ||
      PMPI_Type_get_extent(rtype, &lb, &extent) != MPI_SUCCESS)
    return 0;
  arcoll_widen_counts(rcounts, rdispls, wide, P, v);
  for (int r = 0; r < P; ++r) {
    if (v[r] < 0 || v[r] > INT_MAX) return 0;
    total += v[r];
    if (v[r] * (MPI_Aint)rsize > *maxb) *maxb = v[r] * (MPI_Aint)rsize;
  }
  *bytes = total * (MPI_Aint)rsize;
  const MPI_Aint mine = v[me] * (MPI_Aint)rsize;
  if (*bytes > INT_MAX || !arcoll_buf_ok(recvbuf, total, rsize, rtype)) return 0;
  if (sendbuf != MPI_IN_PLACE) {
    if (scount < 0 || !arcoll_type_ok(stype, &ssize)) return 0;
    /* truncation / buffer / alias errors: MPICH reports them */
    if (scount * (MPI_Aint)ssize != mine || !arcoll_buf_ok(sendbuf, scount, ssize, stype) ||
        (mine > 0 && (const char *)sendbuf == (const char *)recvbuf + v[P + me] * extent))
      return 0;
  }
  return 1;
}

static int allgatherv_impl(const void *sendbuf, MPI_Aint scount, MPI_Datatype stype,
                           void *recvbuf, const void *rcounts, const void *rdispls, int wide,
                           MPI_Datatype rtype, MPI_Comm comm) {
  int P, me, rc;
  MPI_Aint bytes, maxb;
  if (!arcoll_intra(C, comm, &P) || PMPI_Comm_rank(comm, &me) != MPI_SUCCESS)
    return ARCOLL_USE_PMPI;
  MPI_Aint *v = malloc(sizeof(MPI_Aint) * 2 * (size_t)P);
  if (!v) return ARCOLL_USE_PMPI;
  if (!arcoll_allgatherv_args(sendbuf, scount, stype, recvbuf, rcounts, rdispls, wide, rtype, P,
                              me, v, &bytes, &maxb))
    goto pmpi;
  if (bytes == 0) {
    free(v);
    arcoll_note(C, &arcoll_none_desc);
    return MPI_SUCCESS;
  }
  arcoll_comm_state_t *st = arcoll_state(comm, &rc);
  if (!st) {
    free(v);
    return arcoll_finish(comm, rc);
  }
  const arcoll_cached_t *ch = arcoll_choose(st, C, maxb, 1);
  if (!ch || !ch->algo) goto pmpi;
  arcoll_note(C, ch->algo);
  const arcoll_sched_t s = {NULL, ch->segment_bytes, ch->k, ARCOLL_TAG(C)};
  const double t0 = arcoll_online_t0(ch);
  rc = ((arcoll_allgatherv_fn)ch->algo->fn)(sendbuf, scount, stype, recvbuf, v, v + P, rtype,
                                            st->priv, &s);
  free(v);
  return arcoll_finish(comm, arcoll_online_done(st, ch, t0, rc));
pmpi:
  free(v);
  return ARCOLL_USE_PMPI;
}

ARCOLL_EXPORT int MPI_Allgatherv(const void *sendbuf, int scount, MPI_Datatype stype,
                                 void *recvbuf, const int rcounts[], const int displs[],
                                 MPI_Datatype rtype, MPI_Comm comm) {
  int rc = allgatherv_impl(sendbuf, scount, stype, recvbuf, rcounts, displs, 0, rtype, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Allgatherv(sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Allgatherv_c(const void *sendbuf, MPI_Count scount, MPI_Datatype stype,
                                   void *recvbuf, const MPI_Count rcounts[],
                                   const MPI_Aint displs[], MPI_Datatype rtype, MPI_Comm comm) {
  int rc = allgatherv_impl(sendbuf, (MPI_Aint)scount, stype, recvbuf, rcounts, displs, 1, rtype,
                           comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Allgatherv_c(sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, comm);
}
#endif
