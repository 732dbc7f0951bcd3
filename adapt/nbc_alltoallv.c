/*
 * Schedules of MPI_Ialltoallv and MPI_Ialltoall / MPI_Alltoall_init (the
 * latter the former with equal blocks) (nbc.h): linear - every receive and
 * every send posted at once in one round, receives from me, me - 1, ...,
 * sends to me, me + 1, ... (mod P), straight from and into the user's
 * buffers with the user's datatypes (displacements in units of each type's
 * extent; the own block as a message to itself).  Blocks of zero bytes are
 * left out: the two ends of a message agree on its size (equal type
 * signatures), so both leave it out.  MPI_IN_PLACE (MPI-4 section 6.8):
 * first a round without communication copies every other rank's block of
 * recvbuf into one temporary (recvtype, the blocks one after the other), the
 * sends then go from there; the own block stays where it is.  Blocks above
 * INT_MAX elements (_c forms) travel as one element of a struct type
 * (nbc_progress.c).  Time: T(m) + (P - 1) X(m) through each rank's link
 * (m: its largest block).
 */
#include <stdlib.h>

#include "nbc.h"

void nbc_build_alltoallv(nbc_sched_t *s, const void *sbuf, const MPI_Aint *scounts,
                         const MPI_Aint *sdispls, MPI_Datatype stype, void *rbuf,
                         const MPI_Aint *rcounts, const MPI_Aint *rdispls, MPI_Datatype rtype,
                         int P) {
  const int me = s->me, inplace = sbuf == MPI_IN_PLACE;
  int rsize = 0, ssize = 0;
  PMPI_Type_size(rtype, &rsize);
  const MPI_Aint rext = nbc_extent(rtype);
  MPI_Aint *tdispls = NULL; /* in place: the blocks' displacements in the copy */
  if (inplace) {
    MPI_Aint total = 0;
    for (int j = 0; j < P; ++j) total += j == me ? 0 : rcounts[j];
    if (total * rsize == 0) return; /* nothing but the own block, which stays */
    char *copy = nbc_alloc_elems(s, total, rtype);
    if (!copy || !(tdispls = malloc((size_t)P * sizeof *tdispls))) {
      if (copy) s->err = MPI_ERR_NO_MEM;
      return;
    }
    total = 0;
    for (int j = 0; j < P; ++j) {
      tdispls[j] = total;
      if (j == me || rcounts[j] == 0) continue;
      nbc_copy(s, (char *)rbuf + rdispls[j] * rext, copy + total * rext, rcounts[j], rtype);
      total += rcounts[j];
    }
    nbc_round(s);
    sbuf = copy, scounts = rcounts, sdispls = tdispls, stype = rtype;
  }
  PMPI_Type_size(stype, &ssize);
  const MPI_Aint sext = nbc_extent(stype);
  for (int i = 0; i < P; ++i) {
    const int j = (me + P - i) % P;
    if (rcounts[j] * rsize > 0 && !(inplace && j == me))
      nbc_recv(s, (char *)rbuf + rdispls[j] * rext, rcounts[j], rtype, j);
  }
  for (int i = 0; i < P; ++i) {
    const int j = (me + i) % P;
    if (scounts[j] * ssize > 0 && !(inplace && j == me))
      nbc_send(s, (const char *)sbuf + sdispls[j] * sext, scounts[j], stype, j);
  }
  nbc_round(s);
  free(tdispls);
}

void nbc_build_alltoall(nbc_sched_t *s, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                        void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int P) {
  MPI_Aint *v = malloc(4 * (size_t)P * sizeof *v);
  if (!v) {
    s->err = MPI_ERR_NO_MEM;
    return;
  }
  for (int j = 0; j < P; ++j) {
    v[j] = rcount, v[P + j] = (MPI_Aint)j * rcount;
    v[2 * P + j] = scount, v[3 * P + j] = (MPI_Aint)j * scount;
  }
  nbc_build_alltoallv(s, sbuf, v + 2 * P, v + 3 * P, stype, rbuf, v, v + P, rtype, P);
  free(v);
}
