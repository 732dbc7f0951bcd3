/*
 * libarcoll: MPI_Gatherv and MPI_Gatherv_c (MPI >= 4) dispatched to the
 * gatherv algorithms of collectives/ (gatherv.h): linear, binomial, chosen
 * for a nominal block size (vblocks.c: only the root knows the counts).
 * recvcounts / displs (int, or MPI_Count / MPI_Aint for _c) are read and
 * widened at the root only.  Passed to PMPI (which reports MPICH's own
 * errors): intercommunicators, one rank, mode pmpi, root out of range, and
 * the invalid arguments a rank can see by itself - non-root: MPI_IN_PLACE,
 * negative sendcount, invalid type or buffer; root: NULL recvcounts /
 * displs, a negative count, invalid types or buffers, a send size that is
 * not its block's, sendbuf equal to its block of recvbuf.  Only erroneous
 * programs make the ranks of one call take different paths.
 */
#include <mpi.h>
#include <stdlib.h>

#include "dispatch_blocks.h"

#define C ARCOLL_COLL_GATHERV

/* The root's checks; v (2P) receives the widened counts and displs. */
static int root_ok(const void *sendbuf, MPI_Aint scount, MPI_Datatype stype, void *recvbuf,
                   const void *rcounts, const void *rdispls, int wide, MPI_Datatype rtype,
                   int P, int root, MPI_Aint *v) {
  int ssize = 0, rsize = 0;
  MPI_Aint lb, extent, total = 0;
  if (!rcounts || !rdispls || !arcoll_type_ok(rtype, &rsize) ||
      PMPI_Type_get_extent(rtype, &lb, &extent) != MPI_SUCCESS)
    return 0;
  arcoll_widen_counts(rcounts, rdispls, wide, P, v);
  for (int r = 0; r < P; ++r) {
    if (v[r] < 0) return 0;
    total += v[r];
  }
  if (!arcoll_buf_ok(recvbuf, total, rsize, rtype)) return 0;
  if (sendbuf == MPI_IN_PLACE) return 1;
  const MPI_Aint mine = v[root] * (MPI_Aint)rsize;
  return scount >= 0 && arcoll_type_ok(stype, &ssize) && scount * (MPI_Aint)ssize == mine &&
         arcoll_buf_ok(sendbuf, scount, ssize, stype) &&
         !(mine > 0 && (const char *)sendbuf == (const char *)recvbuf + v[P + root] * extent);
}

static int gatherv_impl(const void *sendbuf, MPI_Aint scount, MPI_Datatype stype, void *recvbuf,
                        const void *rcounts, const void *rdispls, int wide, MPI_Datatype rtype,
                        int root, MPI_Comm comm, const void *ret_addr) {
  int P, me, ssize = 0;
  if (!arcoll_intra(C, comm, &P) || root < 0 || root >= P ||
      PMPI_Comm_rank(comm, &me) != MPI_SUCCESS)
    return ARCOLL_USE_PMPI;
  MPI_Aint *v = NULL;
  if (me != root) {
    if (sendbuf == MPI_IN_PLACE || scount < 0 || !arcoll_type_ok(stype, &ssize) ||
        !arcoll_buf_ok(sendbuf, scount, ssize, stype))
      return ARCOLL_USE_PMPI;
  } else if (!(v = malloc(sizeof(MPI_Aint) * 2 * (size_t)P)) ||
             !root_ok(sendbuf, scount, stype, recvbuf, rcounts, rdispls, wide, rtype, P, root, v)) {
    free(v);
    return ARCOLL_USE_PMPI;
  }
  const arcoll_vcall_t a = {sendbuf, scount, stype, recvbuf, 0, rtype, v, v ? v + P : NULL, root};
  const int rc = arcoll_rooted_vblocks(C, &a, comm, ret_addr);
  free(v);
  return rc;
}

ARCOLL_EXPORT int MPI_Gatherv(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                              const int rcounts[], const int displs[], MPI_Datatype rtype,
                              int root, MPI_Comm comm) {
  int rc = gatherv_impl(sendbuf, scount, stype, recvbuf, rcounts, displs, 0, rtype, root, comm,
                        __builtin_return_address(0));
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Gatherv(sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, root, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Gatherv_c(const void *sendbuf, MPI_Count scount, MPI_Datatype stype,
                                void *recvbuf, const MPI_Count rcounts[], const MPI_Aint displs[],
                                MPI_Datatype rtype, int root, MPI_Comm comm) {
  int rc = gatherv_impl(sendbuf, (MPI_Aint)scount, stype, recvbuf, rcounts, displs, 1, rtype,
                        root, comm, __builtin_return_address(0));
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Gatherv_c(sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, root, comm);
}
#endif
