/*
 * libarcoll: MPI_Scatter and MPI_Scatter_c (MPI >= 4) dispatched to the
 * scatter algorithms of collectives/ (gather.h): linear, binomial.  The size
 * used for the choice is one block's bytes (sendcount x sendtype size at the
 * root, recvcount x recvtype size elsewhere).  Dispatch (blocks.c) and PMPI cases:
 * dispatch.h, adapt/README.md.
 */
#include <mpi.h>

#include "dispatch.h"

#define C ARCOLL_COLL_SCATTER

ARCOLL_EXPORT int MPI_Scatter(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                              int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  int rc = arcoll_rooted_blocks(C, sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Scatter(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Scatter_c(const void *sendbuf, MPI_Count scount, MPI_Datatype stype,
                                void *recvbuf, MPI_Count rcount, MPI_Datatype rtype, int root,
                                MPI_Comm comm) {
  int rc = arcoll_rooted_blocks(C, sendbuf, (MPI_Aint)scount, stype, recvbuf, (MPI_Aint)rcount,
                                rtype, root, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Scatter_c(sendbuf, scount, stype, recvbuf, rcount, rtype, root, comm);
}
#endif
