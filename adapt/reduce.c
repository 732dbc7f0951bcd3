/*
 * libarcoll: MPI_Reduce and MPI_Reduce_c (MPI >= 4) dispatched to the reduce
 * algorithms of collectives/ (reduce.h): binomial, rsag and rsag_far (commutative ops
 * only), chain.  Dispatch and PMPI cases: dispatch.h, adapt/DISPATCH.md.
 */
#include <limits.h>
#include <mpi.h>

#include <string.h>

#include "detach_state.h"
#include "dispatch.h"
#include "late_order.h"
#include "late_outside_exchange.h"
#include "online_pacing.h"
#include "reduce.h"

#define C ARCOLL_COLL_REDUCE

static int reduce_impl(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                       MPI_Op op, int root, MPI_Comm comm, const void *ret_addr) {
  int P, tsize, commut = 0, me, rc;
  if (!arcoll_intra(C, comm, &P)) return ARCOLL_USE_PMPI;
  if (count < 0 || root < 0 || root >= P || !arcoll_type_ok(dt, &tsize)) return ARCOLL_USE_PMPI;
  if (!arcoll_op_ok(op, dt, &commut)) return ARCOLL_USE_PMPI;
  PMPI_Comm_rank(comm, &me);
  const MPI_Aint bytes = count * (MPI_Aint)tsize; /* identical on all ranks */
  if (bytes > INT_MAX) return ARCOLL_USE_PMPI;
  if (bytes > 0) { /* MPICH's buffer / in-place / alias errors */
    if (me != root && sendbuf == MPI_IN_PLACE) return ARCOLL_USE_PMPI;
    if (sendbuf != MPI_IN_PLACE && !arcoll_buf_ok(sendbuf, count, tsize, dt)) return ARCOLL_USE_PMPI;
    if (me == root && (!arcoll_buf_ok(recvbuf, count, tsize, dt) || sendbuf == recvbuf))
      return ARCOLL_USE_PMPI;
  }
  if (bytes == 0) {
    arcoll_note(C, &arcoll_none_desc);
    return MPI_SUCCESS;
  }
  arcoll_comm_state_t *st = arcoll_state(comm, &rc);
  if (!st) return arcoll_finish(comm, rc);
  const arcoll_cached_t *ch = arcoll_choose(st, C, bytes, commut);
  if (!ch || !ch->algo) return ARCOLL_USE_PMPI;
  arcoll_note(C, ch->algo);
  /* a streaming chain's late ranks from the times outside (late_outside_exchange.h) */
  const int outside = arcoll_outside_eligible(ch, commut, bytes);
  if (outside) arcoll_outside_enter(st, ch, bytes);
  /* late ranks on the leaves nearest the root, with ARCOLL_LATE_DETACH=on the
   * latest sending to the root directly (late_order.c, order.h); the
   * algorithms honour an order for commutative ops only */
  arcoll_late_call_t lc;
  if ((rc = arcoll_late_begin(st, C, ch, root, commut, bytes, &lc)) != MPI_SUCCESS)
    return arcoll_finish(comm, rc);
  const arcoll_cached_t *chosen = ch;
  ch = arcoll_late_algorithm(st, C, bytes, ch, &lc);
  if (outside && !lc.order) lc.order = arcoll_outside_order(st, ch, root);
  /* small reduces: late ranks detached by their tree parent (detach_state.h) */
  struct arcoll_red_detach *rd =
      arcoll_reduce_detach_state(st, ch, root, commut, bytes, lc.order, lc.detached);
  const arcoll_sched_t s = {lc.order, ch->segment_bytes, ch->k, ARCOLL_TAG(C), lc.detached, rd,
                            .step_s = ch == chosen ? arcoll_online_steps(chosen) : NULL};
  const double t0 = arcoll_online_t0(chosen);
  if (chosen->ex) arcoll_explorer_note_root(chosen->ex, root); /* a moving root: online_pacing.h */
  rc = ((arcoll_reduce_fn)ch->algo->fn)(sendbuf, recvbuf, count, dt, op, root, st->priv, &s);
  rc = arcoll_late_done(st, chosen, ch, t0, rc);
  if (outside && rc == MPI_SUCCESS) rc = arcoll_outside_exit(st);
  if (rc == MPI_SUCCESS) rc = arcoll_late_end(st, ch, root, ret_addr, &lc);
  return arcoll_finish(comm, rc);
}

ARCOLL_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt,
                             MPI_Op op, int root, MPI_Comm comm) {
  int rc = reduce_impl(sendbuf, recvbuf, count, dt, op, root, comm, __builtin_return_address(0));
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Reduce(sendbuf, recvbuf, count, dt, op, root, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                               MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm) {
  int rc = reduce_impl(sendbuf, recvbuf, (MPI_Aint)count, dt, op, root, comm,
                       __builtin_return_address(0));
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Reduce_c(sendbuf, recvbuf, count, dt, op, root, comm);
}
#endif
