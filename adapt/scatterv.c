/*
 * libarcoll: MPI_Scatterv and MPI_Scatterv_c (MPI >= 4) dispatched to the
 * scatterv algorithms of collectives/ (gatherv.h): linear, binomial, chosen
 * for a nominal block size (vblocks.c: only the root knows the counts).
 * sendcounts / displs (int, or MPI_Count / MPI_Aint for _c) are read and
 * widened at the root only.  Passed to PMPI (which reports MPICH's own
 * errors): intercommunicators, one rank, mode pmpi, root out of range, and
 * the invalid arguments a rank can see by itself - non-root: MPI_IN_PLACE,
 * negative recvcount, invalid type or buffer; root: NULL sendcounts /
 * displs, a negative count, invalid types or buffers, a receive size that
 * is not its block's, recvbuf equal to its block of sendbuf.  Only
 * erroneous programs make the ranks of one call take different paths.
 */
#include <mpi.h>
#include <stdlib.h>

#include "dispatch_blocks.h"

#define C ARCOLL_COLL_SCATTERV

/* The root's checks; v (2P) receives the widened counts and displs. */
static int root_ok(const void *sendbuf, const void *scounts, const void *sdispls, int wide,
                   MPI_Datatype stype, void *recvbuf, MPI_Aint rcount, MPI_Datatype rtype, int P,
                   int root, MPI_Aint *v) {
  int ssize = 0, rsize = 0;
  MPI_Aint lb, extent, total = 0;
  if (!scounts || !sdispls || !arcoll_type_ok(stype, &ssize) ||
      PMPI_Type_get_extent(stype, &lb, &extent) != MPI_SUCCESS)
    return 0;
  arcoll_widen_counts(scounts, sdispls, wide, P, v);
  for (int r = 0; r < P; ++r) {
    if (v[r] < 0) return 0;
    total += v[r];
  }
  if (!arcoll_buf_ok(sendbuf, total, ssize, stype)) return 0;
  if (recvbuf == MPI_IN_PLACE) return 1;
  const MPI_Aint mine = v[root] * (MPI_Aint)ssize;
  return rcount >= 0 && arcoll_type_ok(rtype, &rsize) && rcount * (MPI_Aint)rsize == mine &&
         arcoll_buf_ok(recvbuf, rcount, rsize, rtype) &&
         !(mine > 0 && (const char *)recvbuf == (const char *)sendbuf + v[P + root] * extent);
}

static int scatterv_impl(const void *sendbuf, const void *scounts, const void *sdispls, int wide,
                         MPI_Datatype stype, void *recvbuf, MPI_Aint rcount, MPI_Datatype rtype,
                         int root, MPI_Comm comm, const void *ret_addr) {
  int P, me, rsize = 0;
  if (!arcoll_intra(C, comm, &P) || root < 0 || root >= P ||
      PMPI_Comm_rank(comm, &me) != MPI_SUCCESS)
    return ARCOLL_USE_PMPI;
  MPI_Aint *v = NULL;
  if (me != root) {
    if (recvbuf == MPI_IN_PLACE || rcount < 0 || !arcoll_type_ok(rtype, &rsize) ||
        !arcoll_buf_ok(recvbuf, rcount, rsize, rtype))
      return ARCOLL_USE_PMPI;
  } else if (!(v = malloc(sizeof(MPI_Aint) * 2 * (size_t)P)) ||
             !root_ok(sendbuf, scounts, sdispls, wide, stype, recvbuf, rcount, rtype, P, root, v)) {
    free(v);
    return ARCOLL_USE_PMPI;
  }
  const arcoll_vcall_t a = {sendbuf, 0, stype, recvbuf, rcount, rtype, v, v ? v + P : NULL, root};
  const int rc = arcoll_rooted_vblocks(C, &a, comm, ret_addr);
  free(v);
  return rc;
}

ARCOLL_EXPORT int MPI_Scatterv(const void *sendbuf, const int scounts[], const int displs[],
                               MPI_Datatype stype, void *recvbuf, int rcount, MPI_Datatype rtype,
                               int root, MPI_Comm comm) {
  int rc = scatterv_impl(sendbuf, scounts, displs, 0, stype, recvbuf, rcount, rtype, root, comm,
                         __builtin_return_address(0));
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Scatterv(sendbuf, scounts, displs, stype, recvbuf, rcount, rtype, root, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Scatterv_c(const void *sendbuf, const MPI_Count scounts[],
                                 const MPI_Aint displs[], MPI_Datatype stype, void *recvbuf,
                                 MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  int rc = scatterv_impl(sendbuf, scounts, displs, 1, stype, recvbuf, (MPI_Aint)rcount, rtype,
                         root, comm, __builtin_return_address(0));
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Scatterv_c(sendbuf, scounts, displs, stype, recvbuf, rcount, rtype, root, comm);
}
#endif
