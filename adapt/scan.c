/*
 * libarcoll: MPI_Scan and MPI_Scan_c (MPI >= 4) dispatched to the scan
 * algorithms of collectives/ (scan.h): linear, pipeline, brent_kung, sqrtp,
 * recursive_doubling (all order-preserving).  Dispatch and PMPI cases:
 * dispatch.h, adapt/README.md.
 */
#include <limits.h>
#include <mpi.h>

#include "scan.h"
#include "dispatch.h"

#define C ARCOLL_COLL_SCAN

static int scan_impl(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                          MPI_Op op, MPI_Comm comm) {
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
  const arcoll_sched_t s = {NULL, ch->segment_bytes, ch->k, ARCOLL_TAG(C)};
  return arcoll_finish(comm, ((arcoll_scan_fn)ch->algo->fn)(sendbuf, recvbuf, count, dt,
                                                                 op, st->priv, &s));
}

ARCOLL_EXPORT int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt,
                                MPI_Op op, MPI_Comm comm) {
  int rc = scan_impl(sendbuf, recvbuf, count, dt, op, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Scan(sendbuf, recvbuf, count, dt, op, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                                  MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  int rc = scan_impl(sendbuf, recvbuf, (MPI_Aint)count, dt, op, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Scan_c(sendbuf, recvbuf, count, dt, op, comm);
}
#endif
