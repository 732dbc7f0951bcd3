/*
 * libarcoll: MPI_Reduce_scatter and MPI_Reduce_scatter_c (MPI >= 4)
 * dispatched to the algorithms of collectives/ (reduce_scatter.h):
 * recursive_halving, ring (commutative ops), pairwise (every op, rank order
 * kept).  The size used for the choice is the largest block's bytes (the
 * imbalance term of the model; the same on every rank since recvcounts are).
 * recvcounts (int, or MPI_Count for _c) are widened to an MPI_Aint array.
 * Passed to PMPI (which reports MPICH's own errors): intercommunicators, one
 * rank, mode pmpi, NULL recvcounts, negative counts, invalid types, ops or
 * buffers, sendbuf == recvbuf, more than INT_MAX bytes in all.  Dispatch:
 * dispatch.h, adapt/DISPATCH.md.
 */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>

#include "dispatch.h"
#include "reduce_scatter.h"

#define C ARCOLL_COLL_REDUCE_SCATTER

static int reduce_scatter_impl(const void *sendbuf, void *recvbuf, const void *rcounts, int wide,
                               MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  int P, me, tsize, commut = 0, rc;
  if (!arcoll_intra(C, comm, &P)) return ARCOLL_USE_PMPI;
  if (!rcounts || !arcoll_type_ok(dt, &tsize) || !arcoll_op_ok(op, dt, &commut) ||
      PMPI_Comm_rank(comm, &me) != MPI_SUCCESS)
    return ARCOLL_USE_PMPI;
  MPI_Aint *v = malloc(sizeof(MPI_Aint) * (size_t)P), total = 0, maxb = 0;
  if (!v) return ARCOLL_USE_PMPI;
  for (int r = 0; r < P; ++r) {
#if MPI_VERSION >= 4
    v[r] = wide ? (MPI_Aint)((const MPI_Count *)rcounts)[r] : ((const int *)rcounts)[r];
#else
    (void)wide;
    v[r] = ((const int *)rcounts)[r];
#endif
    if (v[r] < 0 || v[r] > INT_MAX) goto pmpi;
    total += v[r];
    if (v[r] * (MPI_Aint)tsize > maxb) maxb = v[r] * (MPI_Aint)tsize;
  }
  const int inplace = sendbuf == MPI_IN_PLACE;
  if (total * (MPI_Aint)tsize > INT_MAX) goto pmpi;
  if (total * (MPI_Aint)tsize == 0) {
    free(v);
    arcoll_note(C, &arcoll_none_desc);
    return MPI_SUCCESS;
  }
  if ((!inplace && !arcoll_buf_ok(sendbuf, total, tsize, dt)) ||
      !arcoll_buf_ok(recvbuf, inplace ? total : v[me], tsize, dt) || sendbuf == recvbuf)
    goto pmpi; /* MPICH's buffer / alias errors */
  arcoll_comm_state_t *st = arcoll_state(comm, &rc);
  if (!st) {
    free(v);
    return arcoll_finish(comm, rc);
  }
  const arcoll_cached_t *ch = arcoll_choose(st, C, maxb, commut);
  if (!ch || !ch->algo) goto pmpi;
  arcoll_note(C, ch->algo);
  const arcoll_sched_t s = {NULL, ch->segment_bytes, ch->k, ARCOLL_TAG(C)};
  const double t0 = arcoll_online_t0(ch);
  rc = ((arcoll_reduce_scatter_fn)ch->algo->fn)(sendbuf, recvbuf, v, dt, op, st->priv, &s);
  free(v);
  return arcoll_finish(comm, arcoll_online_done(st, ch, t0, rc));
pmpi:
  free(v);
  return ARCOLL_USE_PMPI;
}

ARCOLL_EXPORT int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                     MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  int rc = reduce_scatter_impl(sendbuf, recvbuf, recvcounts, 0, dt, op, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, dt, op, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf,
                                       const MPI_Count recvcounts[], MPI_Datatype dt, MPI_Op op,
                                       MPI_Comm comm) {
  int rc = reduce_scatter_impl(sendbuf, recvbuf, recvcounts, 1, dt, op, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Reduce_scatter_c(sendbuf, recvbuf, recvcounts, dt, op, comm);
}
#endif
