/*
 * libarcoll: the dispatch shared by MPI_Gatherv and MPI_Scatterv (gatherv.c,
 * scatterv.c; algorithms in collectives/gatherv.h), and the widening of
 * count / displacement arrays shared with allgatherv.c.
 *
 * The counts are significant only at the root, so nothing that depends on
 * them may decide anything all ranks must agree on: the choice is made for
 * one nominal block size (ARCOLL_VBLOCK_NOMINAL_BYTES) whatever the call
 * moves - one size class per communicator, the online selection measuring
 * the candidates on the calls the program makes - and no size sends a call
 * to PMPI (the algorithms take any count: gatherv_stream.h).  A call with
 * nothing to move still runs the algorithm (no rank but the root knows that
 * nothing moves).  Dispatch and PMPI cases: dispatch.h, adapt/DISPATCH.md.
 */
#include <mpi.h>

#include "dispatch_blocks.h"
#include "late_order.h"
#include "gatherv.h"

void arcoll_widen_counts(const void *counts, const void *displs, int wide, int P, MPI_Aint *v) {
  for (int r = 0; r < P; ++r) {
#if MPI_VERSION >= 4
    if (wide) {
      v[r] = (MPI_Aint)((const MPI_Count *)counts)[r];
      v[P + r] = ((const MPI_Aint *)displs)[r];
      continue;
    }
#endif
    v[r] = ((const int *)counts)[r];
    v[P + r] = ((const int *)displs)[r];
  }
}

int arcoll_rooted_vblocks(arcoll_coll_t C, const arcoll_vcall_t *a, MPI_Comm comm,
                          const void *ret_addr) {
  int rc;
  arcoll_comm_state_t *st = arcoll_state(comm, &rc);
  if (!st) return arcoll_finish(comm, rc);
  const arcoll_cached_t *ch = arcoll_choose(st, C, ARCOLL_VBLOCK_NOMINAL_BYTES, 1);
  if (!ch || !ch->algo) return ARCOLL_USE_PMPI; /* the same on every rank */
  arcoll_note(C, ch->algo);
  /* late ranks: leaves nearest the root (gatherv), leaves (scatterv); the
   * binomial trees are gather's and scatter's (late_order.c) */
  arcoll_late_call_t lc;
  rc = arcoll_late_begin(st, C, ch, a->root, 1, ARCOLL_VBLOCK_NOMINAL_BYTES, &lc);
  if (rc != MPI_SUCCESS) return arcoll_finish(comm, rc);
  const arcoll_sched_t s = {lc.order, ch->segment_bytes, ch->k, ARCOLL_TAG(C)};
  const double t0 = arcoll_online_t0(ch);
  if (C == ARCOLL_COLL_GATHERV)
    rc = ((arcoll_gatherv_fn)ch->algo->fn)(a->sbuf, a->scount, a->stype, a->rbuf, a->counts,
                                           a->displs, a->rtype, a->root, st->priv, &s);
  else
    rc = ((arcoll_scatterv_fn)ch->algo->fn)(a->sbuf, a->counts, a->displs, a->stype, a->rbuf,
                                            a->rcount, a->rtype, a->root, st->priv, &s);
  rc = arcoll_online_done(st, ch, t0, rc);
  if (rc == MPI_SUCCESS) rc = arcoll_late_end(st, ch, a->root, ret_addr, &lc);
  return arcoll_finish(comm, rc);
}
