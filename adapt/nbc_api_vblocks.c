/*
 * libarcoll: MPI_Iallgatherv and MPI_Ialltoallv (+ _c: MPI_Count counts,
 * MPI_Aint displacements; MPI 4 only) as schedules (nbc.h;
 * nbc_allgatherv.c, nbc_alltoallv.c).  Checks as the blocking forms
 * (arcoll_allgatherv_args, arcoll_alltoallv_args in dispatch.h; adapt/DISPATCH.md
 * "Passed to PMPI"): ARCOLL_NONBLOCKING=off, mode pmpi of MPI_Allgatherv /
 * MPI_Alltoallv, intercommunicators, one rank, a communicator without
 * arcoll state yet (nbc_handles), invalid arguments; iallgatherv also more
 * than INT_MAX bytes in all (recvcounts are equal on every rank, so every
 * rank decides alike).  Ialltoallv takes any counts: each rank knows only
 * its own, so no size may send one rank to PMPI and another to arcoll.
 */
#include <stdlib.h>

#include "dispatch_blocks.h"
#include "nbc.h"

static int iallgatherv(const void *sbuf, MPI_Aint scount, MPI_Datatype stype, void *rbuf,
                       const void *rcounts, const void *displs, int wide, MPI_Datatype rtype,
                       MPI_Comm comm, MPI_Request *req) {
  int P, me, rc;
  MPI_Aint bytes, maxb;
  if (!nbc_handles(ARCOLL_COLL_ALLGATHERV, comm, req, &P)) return ARCOLL_USE_PMPI;
  PMPI_Comm_rank(comm, &me);
  MPI_Aint *v = malloc(2 * (size_t)P * sizeof *v);
  if (!v) return arcoll_finish(comm, MPI_ERR_NO_MEM); /* PMPI here could hang the others */
  if (!arcoll_allgatherv_args(sbuf, scount, stype, rbuf, rcounts, displs, wide, rtype, P, me, v,
                              &bytes, &maxb)) {
    free(v);
    return ARCOLL_USE_PMPI;
  }
  nbc_sched_t *s = nbc_begin(comm, 0, &rc);
  if (s) nbc_build_allgatherv(s, sbuf, scount, stype, rbuf, v, v + P, rtype, P);
  free(v);
  return s ? nbc_end(comm, s, 0, req) : arcoll_finish(comm, rc);
}

static int ialltoallv(const void *sbuf, const void *scounts, const void *sdispls,
                      MPI_Datatype stype, void *rbuf, const void *rcounts, const void *rdispls,
                      MPI_Datatype rtype, int wide, MPI_Comm comm, MPI_Request *req) {
  int P, rc;
  if (!nbc_handles(ARCOLL_COLL_ALLTOALLV, comm, req, &P)) return ARCOLL_USE_PMPI;
  MPI_Aint *v = malloc(4 * (size_t)P * sizeof *v);
  if (!v) return arcoll_finish(comm, MPI_ERR_NO_MEM);
  if (!arcoll_alltoallv_args(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, wide,
                             P, v)) {
    free(v);
    return ARCOLL_USE_PMPI;
  }
  nbc_sched_t *s = nbc_begin(comm, 0, &rc);
  if (s) nbc_build_alltoallv(s, sbuf, v + 2 * P, v + 3 * P, stype, rbuf, v, v + P, rtype, P);
  free(v);
  return s ? nbc_end(comm, s, 0, req) : arcoll_finish(comm, rc);
}

#define IALLGATHERV(Name, COUNT_T, DISP_T, WIDE)                                                \
  ARCOLL_EXPORT int Name(const void *sbuf, COUNT_T scount, MPI_Datatype stype, void *rbuf,     \
                         const COUNT_T rcounts[], const DISP_T displs[], MPI_Datatype rtype,   \
                         MPI_Comm comm, MPI_Request *req) {                                     \
    int rc = iallgatherv(sbuf, (MPI_Aint)scount, stype, rbuf, rcounts, displs, WIDE, rtype,     \
                         comm, req);                                                            \
    return rc != ARCOLL_USE_PMPI                                                                \
               ? rc                                                                             \
               : P##Name(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req);        \
  }
#define IALLTOALLV(Name, COUNT_T, DISP_T, WIDE)                                                 \
  ARCOLL_EXPORT int Name(const void *sbuf, const COUNT_T scounts[], const DISP_T sdispls[],    \
                         MPI_Datatype stype, void *rbuf, const COUNT_T rcounts[],              \
                         const DISP_T rdispls[], MPI_Datatype rtype, MPI_Comm comm,             \
                         MPI_Request *req) {                                                    \
    int rc = ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, WIDE,     \
                        comm, req);                                                             \
    return rc != ARCOLL_USE_PMPI ? rc                                                           \
                                 : P##Name(sbuf, scounts, sdispls, stype, rbuf, rcounts,       \
                                           rdispls, rtype, comm, req);                          \
  }

IALLGATHERV(MPI_Iallgatherv, int, int, 0)
IALLTOALLV(MPI_Ialltoallv, int, int, 0)
#if MPI_VERSION >= 4
IALLGATHERV(MPI_Iallgatherv_c, MPI_Count, MPI_Aint, 1)
IALLTOALLV(MPI_Ialltoallv_c, MPI_Count, MPI_Aint, 1)
#endif
