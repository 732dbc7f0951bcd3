/*
 * libarcoll: MPI_Alltoallv and MPI_Alltoallv_c (MPI >= 4) dispatched to the
 * alltoallv algorithms of collectives/ (alltoallv.h): linear, pairwise.
 *
 * Same choice on every rank: rank r knows only its own sendcounts and
 * recvcounts, so nothing that decides the path may depend on them.  The
 * algorithm is chosen for (P, ARCOLL_ALLTOALLV_CHOICE_BYTES): one size class
 * per communicator, the model evaluated at that block size, then the online
 * measurement (auto mode) times the candidates on the communicator's first
 * calls whatever their counts and all ranks agree on the fastest (one
 * allreduce); a tuning file or ARCOLL_ALLTOALLV_ALGORITHM fixes it.  Every
 * rank runs the algorithm even when its own counts are all zero (the
 * exploration's allreduce needs every rank), and blocks above INT_MAX
 * elements travel as one struct-type element (alltoallv_prep.h) rather than
 * going to PMPI, since that would be a per-rank decision.
 * Passed to PMPI (which reports MPICH's own errors): intercommunicators, one
 * rank, mode pmpi; and the erroneous calls arcoll_alltoallv_args() rejects
 * (dispatch.h; shared with MPI_Ialltoallv, nbc_api_vblocks.c), where MPICH
 * then reports the error on the ranks that made it.
 * counts (int, or MPI_Count for _c) and displs (int, or MPI_Aint) are
 * widened to MPI_Aint arrays.  Dispatch: dispatch.h, adapt/DISPATCH.md.
 */
#include <mpi.h>
#include <stdlib.h>

#include "alltoallv.h"
#include "dispatch_blocks.h"

#define C ARCOLL_COLL_ALLTOALLV

/* counts and displs into v[0..P) and v[P..2P) (arcoll_widen_counts; wide:
 * the _c form's arrays); returns the total count, or -1 for a negative count */
static MPI_Aint widen(const void *counts, const void *displs, int wide, int P, MPI_Aint *v) {
  MPI_Aint total = 0;
  arcoll_widen_counts(counts, displs, wide, P, v);
  for (int r = 0; r < P; ++r) {
    if (v[r] < 0) return -1;
    total += v[r];
  }
  return total;
}

int arcoll_alltoallv_args(const void *sbuf, const void *scounts, const void *sdispls,
                          MPI_Datatype stype, void *rbuf, const void *rcounts,
                          const void *rdispls, MPI_Datatype rtype, int wide, int P, MPI_Aint *v) {
  int ssize = 0, rsize = 0;
  const int inplace = sbuf == MPI_IN_PLACE;
  if (!rcounts || !rdispls || !arcoll_type_ok(rtype, &rsize)) return 0;
  if (!inplace && (!scounts || !sdispls || !arcoll_type_ok(stype, &ssize) || sbuf == rbuf))
    return 0;
  const MPI_Aint rtotal = widen(rcounts, rdispls, wide, P, v);
  const MPI_Aint stotal = inplace ? 0 : widen(scounts, sdispls, wide, P, v + 2 * P);
  return rtotal >= 0 && stotal >= 0 && arcoll_buf_ok(rbuf, rtotal, rsize, rtype) &&
         (inplace || arcoll_buf_ok(sbuf, stotal, ssize, stype));
}

static int alltoallv_impl(const void *sbuf, const void *scounts, const void *sdispls,
                          MPI_Datatype stype, void *rbuf, const void *rcounts,
                          const void *rdispls, MPI_Datatype rtype, int wide, MPI_Comm comm) {
  int P, rc;
  const int inplace = sbuf == MPI_IN_PLACE;
  if (!arcoll_intra(C, comm, &P)) return ARCOLL_USE_PMPI;
  MPI_Aint *v = malloc(sizeof(MPI_Aint) * 4 * (size_t)P), *sv = v + 2 * P;
  if (!v) return ARCOLL_USE_PMPI;
  if (!arcoll_alltoallv_args(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, wide,
                             P, v)) {
    free(v);
    return ARCOLL_USE_PMPI;
  }
  arcoll_comm_state_t *st = arcoll_state(comm, &rc);
  if (!st) {
    free(v);
    return arcoll_finish(comm, rc);
  }
  const arcoll_cached_t *ch = arcoll_choose(st, C, ARCOLL_ALLTOALLV_CHOICE_BYTES, 1);
  if (!ch || !ch->algo) {
    free(v);
    return ARCOLL_USE_PMPI;
  }
  arcoll_note(C, ch->algo);
  const arcoll_sched_t s = {NULL, ch->segment_bytes, ch->k, ARCOLL_TAG(C)};
  const double t0 = arcoll_online_t0(ch);
  rc = ((arcoll_alltoallv_fn)ch->algo->fn)(sbuf, inplace ? NULL : sv, inplace ? NULL : sv + P,
                                           stype, rbuf, v, v + P, rtype, st->priv, &s);
  free(v);
  return arcoll_finish(comm, arcoll_online_done(st, ch, t0, rc));
}

ARCOLL_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = alltoallv_impl(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, 0, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm);
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                                  const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                  const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                  MPI_Datatype recvtype, MPI_Comm comm) {
  int rc = alltoallv_impl(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, 1, comm);
  if (rc != ARCOLL_USE_PMPI) return rc;
  arcoll_note(C, NULL);
  return PMPI_Alltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
}
#endif
