/*
 * libarcoll: MPI_Scatter and MPI_Scatter_c (MPI >= 4) dispatched to the
 * scatter algorithms of collectives/ (gather.h): linear, binomial.  The size
 * used for the choice is one block's bytes (sendcount x sendtype size at the
 * root, recvcount x recvtype size elsewhere).  Dispatch and PMPI cases:
 * dispatch.h, adapt/README.md.
 */
#include <limits.h>
#include <mpi.h>

#include "dispatch.h"
#include "gather.h"

#define C ARCOLL_COLL_SCATTER

static int scatter_impl(const void *sendbuf, MPI_Aint scount, MPI_Datatype stype, void *recvbuf,
                        MPI_Aint rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  int P, me, ssize = 0, rsize = 0, rc;
  MPI_Aint bytes;
  if (!arcoll_intra(C, comm, &P)) return ARCOLL_USE_PMPI;
  if (root < 0 || root >= P) return ARCOLL_USE_PMPI;
  PMPI_Comm_rank(comm, &me);
  if (me == root) {
    if (scount < 0 || !arcoll_type_ok(stype, &ssize)) return ARCOLL_USE_PMPI;
    bytes = scount * (MPI_Aint)ssize;
    if (!arcoll_buf_ok(sendbuf, scount, ssize, stype)) return ARCOLL_USE_PMPI;
    if (recvbuf != MPI_IN_PLACE) {
      if (rcount < 0 || !arcoll_type_ok(rtype, &rsize)) return ARCOLL_USE_PMPI;
      if (rcount * (MPI_Aint)rsize != bytes || !arcoll_buf_ok(recvbuf, rcount, rsize, rtype) ||
          (bytes > 0 && sendbuf == recvbuf))
        return ARCOLL_USE_PMPI; /* truncation / buffer / alias errors: MPICH reports them */
    }
  } else {
    if (recvbuf == MPI_IN_PLACE || rcount < 0 || !arcoll_type_ok(rtype, &rsize))
      return ARCOLL_USE_PMPI;
    bytes = rcount * (MPI_Aint)rsize;
    if (!arcoll_buf_ok(recvbuf, rcount, rsize, rtype)) return ARCOLL_USE_PMPI;
  }
  if (bytes > INT_MAX) return ARCOLL_USE_PMPI; /* algorithms use int counts per block */
  if (bytes == 0) {
    arcoll_note(C, &arcoll_none_desc);
    return MPI_SUCCESS;
  }
  arcoll_comm_state_t *st = arcoll_state(comm, &rc);
  if (!st) return arcoll_finish(comm, rc);
  const arcoll_cached_t *ch = arcoll_choose(st, C, bytes, 1);
  if (!ch || !ch->algo) return ARCOLL_USE_PMPI;
  arcoll_note(C, ch->algo);
  const arcoll_sched_t s = {NULL, ch->segment_bytes, ch->k, ARCOLL_TAG(C)};
  return arcoll_finish(comm, ((arcoll_scatter_fn)ch->algo->fn)(
                                 sendbuf, scount, stype, recvbuf, rcount, rtype, root, st->priv, &s));
}

ARCOLL_EXPORT int MPI_Scatter(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                              int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  int rc = scatter_impl(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Scatter(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Scatter_c(const void *sendbuf, MPI_Count scount, MPI_Datatype stype,
                                void *recvbuf, MPI_Count rcount, MPI_Datatype rtype, int root,
                                MPI_Comm comm) {
  int rc = scatter_impl(sendbuf, (MPI_Aint)scount, stype, recvbuf, (MPI_Aint)rcount, rtype, root,
                        comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Scatter_c(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
}
#endif
