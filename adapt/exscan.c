/*
 * libarcoll: MPI_Exscan and MPI_Exscan_c (MPI >= 4) dispatched to the exscan
 * algorithms of collectives/ (scan.h): linear, pipeline, brent_kung, sqrtp,
 * recursive_doubling (all order-preserving; rank 0's recvbuf is left
 * untouched, MPI leaves it undefined).  Dispatch (reduction.c) and PMPI cases:
 * dispatch.h, adapt/README.md.
 */
#include <mpi.h>

#include "dispatch.h"

#define C ARCOLL_COLL_EXSCAN

ARCOLL_EXPORT int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt,
                                MPI_Op op, MPI_Comm comm) {
  int rc = arcoll_unrooted_reduction(C, sendbuf, recvbuf, count, dt, op, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Exscan(sendbuf, recvbuf, count, dt, op, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                                  MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  int rc = arcoll_unrooted_reduction(C, sendbuf, recvbuf, (MPI_Aint)count, dt, op, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Exscan_c(sendbuf, recvbuf, count, dt, op, comm);
}
#endif
