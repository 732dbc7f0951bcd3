/*
 * libarcoll: MPI_Barrier dispatched to the barrier algorithms of
 * collectives/ (alltoall.h): dissemination.  (MPI-4 has no MPI_Barrier_c:
 * the call has no count.)  Dispatch and PMPI cases: dispatch.h,
 * adapt/DISPATCH.md.
 */
#include <mpi.h>

#include "alltoall.h"
#include "dispatch.h"

#define C ARCOLL_COLL_BARRIER

ARCOLL_EXPORT int MPI_Barrier(MPI_Comm comm) {
  int P, rc;
  const arcoll_cached_t *ch = NULL;
  arcoll_comm_state_t *st = NULL;
  if (arcoll_intra(C, comm, &P) && (st = arcoll_state(comm, &rc)) != NULL)
    ch = arcoll_choose(st, C, 0, 1);
  if (!ch || !ch->algo) {
    arcoll_note(C, NULL);
    return PMPI_Barrier(comm);
  }
  arcoll_note(C, ch->algo);
  const arcoll_sched_t s = {NULL, ch->segment_bytes, ch->k, ARCOLL_TAG(C)};
  const double t0 = arcoll_online_t0(ch);
  rc = ((arcoll_barrier_fn)ch->algo->fn)(st->priv, &s);
  return arcoll_finish(comm, arcoll_online_done(st, ch, t0, rc));
}
