/*
 * libarcoll: the dispatch shared by the unrooted reductions MPI_Allreduce,
 * MPI_Scan, MPI_Exscan and MPI_Reduce_scatter_block (allreduce.c, scan.c,
 * exscan.c, reduce_scatter_block.c): same arguments (for
 * reduce_scatter_block the count is one block's, the buffers hold P blocks),
 * same checks, same algorithm signature (arcoll_allreduce_fn ==
 * arcoll_scan_fn == arcoll_reduce_scatter_block_fn).  Dispatch and PMPI
 * cases: dispatch.h, adapt/DISPATCH.md.
 */
#include <limits.h>
#include <mpi.h>

#include "allreduce.h"
#include "dispatch_blocks.h"
#include "scan.h"

int arcoll_unrooted_reduction(arcoll_coll_t C, const void *sendbuf, void *recvbuf,
                              MPI_Aint count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  int P, tsize, commut = 0, rc;
  if (!arcoll_intra(C, comm, &P)) return ARCOLL_USE_PMPI;
  if (count < 0 || !arcoll_type_ok(dt, &tsize)) return ARCOLL_USE_PMPI;
  if (!arcoll_op_ok(op, dt, &commut)) return ARCOLL_USE_PMPI;
  const MPI_Aint bytes = count * (MPI_Aint)tsize; /* identical on all ranks */
  if (bytes > INT_MAX) return ARCOLL_USE_PMPI;
  if (bytes == 0) {
    arcoll_note(C, &arcoll_none_desc);
    return MPI_SUCCESS;
  }
  if ((sendbuf != MPI_IN_PLACE && !arcoll_buf_ok(sendbuf, count, tsize, dt)) ||
      !arcoll_buf_ok(recvbuf, count, tsize, dt) || sendbuf == recvbuf)
    return ARCOLL_USE_PMPI; /* MPICH's buffer / alias errors */
  arcoll_comm_state_t *st = arcoll_state(comm, &rc);
  if (!st) return arcoll_finish(comm, rc);
  const arcoll_cached_t *ch = arcoll_choose(st, C, bytes, commut);
  if (!ch || !ch->algo) return ARCOLL_USE_PMPI;
  arcoll_note(C, ch->algo);
  const arcoll_sched_t s = {NULL, ch->segment_bytes, ch->k, ARCOLL_TAG(C), .step_s = arcoll_online_steps(ch)};
  const double t0 = arcoll_online_t0(ch);
  rc = ((arcoll_allreduce_fn)ch->algo->fn)(sendbuf, recvbuf, count, dt, op, st->priv, &s);
  return arcoll_finish(comm, arcoll_online_done(st, ch, t0, rc));
}
