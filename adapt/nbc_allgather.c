/*
 * Schedules of MPI_Iallgather / MPI_Allgather_init (Bruck et al. 1997) and
 * MPI_Ialltoall / MPI_Alltoall_init (linear) (nbc.h).
 * Allgather: packed blocks in a temporary, own block first; round k
 * (distance d = 2^k) sends the first min(d, P - d) blocks to me - d and
 * receives as many from me + d after them; ceil(log2 P) rounds, then block i
 * is unpacked into rank (me + i) mod P's place.  Time: sum over d of
 * T(min(d, P - d) m).
 * Alltoall: every receive and send posted at once (one round), datatypes
 * straight from and into the user's buffers; MPI_IN_PLACE sends from a
 * copy of recvbuf.  Time: T(m) + (P - 1) X(m) through each rank's link.
 */
#include "nbc.h"

void nbc_build_allgather(nbc_sched_t *s, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                         void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int P) {
  const int me = s->me;
  int size = 0;
  PMPI_Type_size(rtype, &size);
  const MPI_Aint blk = rcount * size, ext = nbc_extent(rtype) * rcount;
  if (blk == 0) return;
  char *tmp = nbc_alloc(s, (MPI_Aint)P * blk);
  if (!tmp) return;
  if (sbuf == MPI_IN_PLACE) nbc_pack(s, (char *)rbuf + (MPI_Aint)me * ext, rcount, rtype, tmp);
  else nbc_pack(s, sbuf, scount, stype, tmp);
  nbc_round(s);
  for (int d = 1; d < P; d <<= 1) {
    const int n = d < P - d ? d : P - d;
    nbc_send(s, tmp, (MPI_Aint)n * blk, MPI_BYTE, (me - d + P) % P);
    nbc_recv(s, tmp + (MPI_Aint)d * blk, (MPI_Aint)n * blk, MPI_BYTE, (me + d) % P);
    nbc_round(s);
  }
  for (int i = sbuf == MPI_IN_PLACE ? 1 : 0; i < P; ++i)
    nbc_unpack(s, tmp + (MPI_Aint)i * blk, (char *)rbuf + (MPI_Aint)((me + i) % P) * ext, rcount,
               rtype);
  nbc_round(s);
}

void nbc_build_alltoall(nbc_sched_t *s, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                        void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int P) {
  const int me = s->me;
  int size = 0;
  PMPI_Type_size(rtype, &size);
  if (rcount * size == 0) return;
  const MPI_Aint rext = nbc_extent(rtype) * rcount;
  if (sbuf == MPI_IN_PLACE) {
    void *copy = nbc_alloc_elems(s, (MPI_Aint)P * rcount, rtype);
    if (!copy) return;
    nbc_copy(s, rbuf, copy, (MPI_Aint)P * rcount, rtype);
    nbc_round(s);
    sbuf = copy, scount = rcount, stype = rtype;
  }
  const MPI_Aint sext = nbc_extent(stype) * scount;
  for (int i = 0; i < P; ++i) {
    const int j = (me + P - i) % P; /* receive from me, me - 1, ... */
    nbc_recv(s, (char *)rbuf + (MPI_Aint)j * rext, rcount, rtype, j);
  }
  for (int i = 0; i < P; ++i) {
    const int j = (me + i) % P; /* send to me, me + 1, ... */
    nbc_send(s, (const char *)sbuf + (MPI_Aint)j * sext, scount, stype, j);
  }
  nbc_round(s);
}
