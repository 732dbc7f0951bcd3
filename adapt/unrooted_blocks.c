/*
 * libarcoll: the dispatch shared by MPI_Alltoall and MPI_Allgather
 * (alltoall.c, allgather.c): every rank sends and receives blocks of the same
 * byte size (alltoall: P blocks each way; allgather: one block sent, P
 * received).  The size used for the choice is one block's bytes, the same on
 * every rank by MPI's type-signature rule.  Same algorithm signature
 * (arcoll_alltoall_fn == arcoll_allgather_fn).  MPI_IN_PLACE: alltoall with a
 * receive type of negative extent goes to PMPI (its algorithms copy the
 * buffer's span first and need extent >= 0); allgather's own block is
 * already in place.  Dispatch and PMPI cases: dispatch.h, adapt/DISPATCH.md.
 */
#include <limits.h>
#include <mpi.h>

#include "alltoall.h"
#include "dispatch_blocks.h"

int arcoll_unrooted_blocks(arcoll_coll_t C, const void *sendbuf, MPI_Aint scount,
                           MPI_Datatype stype, void *recvbuf, MPI_Aint rcount,
                           MPI_Datatype rtype, MPI_Comm comm) {
  int P, ssize = 0, rsize = 0, rc;
  if (!arcoll_intra(C, comm, &P)) return ARCOLL_USE_PMPI;
  if (rcount < 0 || !arcoll_type_ok(rtype, &rsize)) return ARCOLL_USE_PMPI;
  const MPI_Aint bytes = rcount * (MPI_Aint)rsize;
  if (!arcoll_buf_ok(recvbuf, rcount, rsize, rtype)) return ARCOLL_USE_PMPI;
  if (sendbuf == MPI_IN_PLACE) {
    MPI_Aint lb, extent;
    if (C == ARCOLL_COLL_ALLTOALL &&
        (PMPI_Type_get_extent(rtype, &lb, &extent) != MPI_SUCCESS || extent < 0))
      return ARCOLL_USE_PMPI;
  } else {
    if (scount < 0 || !arcoll_type_ok(stype, &ssize)) return ARCOLL_USE_PMPI;
    /* the buffer MPICH's alias check compares sendbuf with: recvbuf
     * (alltoall), this rank's block of it (allgather) */
    const char *alias = (const char *)recvbuf;
    if (C == ARCOLL_COLL_ALLGATHER) {
      MPI_Aint lb, extent;
      int me;
      if (PMPI_Type_get_extent(rtype, &lb, &extent) != MPI_SUCCESS ||
          PMPI_Comm_rank(comm, &me) != MPI_SUCCESS)
        return ARCOLL_USE_PMPI;
      alias += (MPI_Aint)me * rcount * extent;
    }
    if (scount * (MPI_Aint)ssize != bytes || !arcoll_buf_ok(sendbuf, scount, ssize, stype) ||
        (bytes > 0 && (const char *)sendbuf == alias))
      return ARCOLL_USE_PMPI; /* truncation / buffer / alias errors: MPICH reports them */
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
  const double t0 = arcoll_online_t0(ch);
  rc = ((arcoll_alltoall_fn)ch->algo->fn)(sendbuf, scount, stype, recvbuf, rcount, rtype,
                                          st->priv, &s);
  return arcoll_finish(comm, arcoll_online_done(st, ch, t0, rc));
}
