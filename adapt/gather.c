/*
 * libarcoll: MPI_Gather and MPI_Gather_c (MPI >= 4) dispatched to the gather
 * algorithms of collectives/ (gather.h): linear, binomial.  The size used
 * for the choice is one block's bytes (the same on every rank: recvcount x
 * recvtype size at the root, sendcount x sendtype size elsewhere, equal by
 * MPI's type-signature rule).  Dispatch (blocks.c) and PMPI cases: dispatch.h,
 * adapt/README.md.
 */
#include <mpi.h>

#include "dispatch.h"

#define C ARCOLL_COLL_GATHER

ARCOLL_EXPORT int MPI_Gather(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                             int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  int rc = arcoll_rooted_blocks(C, sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Gather(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Gather_c(const void *sendbuf, MPI_Count scount, MPI_Datatype stype,
                               void *recvbuf, MPI_Count rcount, MPI_Datatype rtype, int root,
                               MPI_Comm comm) {
  int rc = arcoll_rooted_blocks(C, sendbuf, (MPI_Aint)scount, stype, recvbuf, (MPI_Aint)rcount,
                                rtype, root, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Gather_c(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
}
#endif
