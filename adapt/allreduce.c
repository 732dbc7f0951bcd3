/*
 * libarcoll: MPI_Allreduce and MPI_Allreduce_c (MPI >= 4) dispatched to the
 * allreduce algorithms of collectives/ (allreduce.h): recursive_doubling,
 * rabenseifner, rabenseifner_far and ring (commutative ops only), reduce_bcast.  Dispatch
 * (reduction.c) and PMPI cases:
 * dispatch.h, adapt/DISPATCH.md.
 */
#include <mpi.h>

#include "dispatch_blocks.h"

#define C ARCOLL_COLL_ALLREDUCE

ARCOLL_EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt,
                                MPI_Op op, MPI_Comm comm) {
  int rc = arcoll_unrooted_reduction(C, sendbuf, recvbuf, count, dt, op, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                                  MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  int rc = arcoll_unrooted_reduction(C, sendbuf, recvbuf, (MPI_Aint)count, dt, op, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Allreduce_c(sendbuf, recvbuf, count, dt, op, comm);
}
#endif
