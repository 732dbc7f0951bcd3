/*
 * Schedules of MPI_Iallgatherv and MPI_Iallgather / MPI_Allgather_init (the
 * latter the former with equal blocks) (nbc.h): Bruck et al. (1997),
 * "Efficient algorithms for all-to-all communications in multiport
 * message-passing systems", over blocks of any size.  The blocks live as
 * packed bytes in one temporary in the order of ranks me, me + 1, ... (mod
 * P), the own block first; round k (distance d = 2^k) sends the first
 * n = min(d, P - d) blocks to me - d and receives the n blocks of ranks
 * me + d .. me + d + n - 1 (the first n of me + d's temporary) from me + d
 * behind them; after ceil(log2 P) rounds each block is unpacked into its
 * rank's place of recvbuf (displs, units of recvtype's extent).  Both ends
 * of a message compute its size from recvcounts (equal on every rank), so
 * messages of zero bytes are left out on both.  Time: sum over d of the
 * largest T(bytes of n consecutive blocks); each rank receives every other
 * block once, and sends its own block in every round: one block of B bytes
 * costs about ceil(log2 P) T(B) (a ring: P - 1 hops of T(B) one after the
 * other), in ceil(log2 P) rounds instead of a ring's P - 1.
 */
#include <stdlib.h>

#include "nbc.h"

void nbc_build_allgatherv(nbc_sched_t *s, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                          void *rbuf, const MPI_Aint *rcounts, const MPI_Aint *displs,
                          MPI_Datatype rtype, int P) {
  const int me = s->me, inplace = sbuf == MPI_IN_PLACE;
  int size = 0;
  PMPI_Type_size(rtype, &size);
  const MPI_Aint ext = nbc_extent(rtype);
  /* off[i]: byte offset in tmp of the block of rank (me + i) mod P; off[P]: all */
  MPI_Aint *off = malloc(((size_t)P + 1) * sizeof *off);
  if (!off) {
    s->err = MPI_ERR_NO_MEM;
    return;
  }
  off[0] = 0;
  for (int i = 0; i < P; ++i) off[i + 1] = off[i] + rcounts[(me + i) % P] * size;
  char *tmp = off[P] > 0 ? nbc_alloc(s, off[P]) : NULL;
  if (!tmp) goto done;
  if (off[1] > 0) {
    if (inplace) nbc_pack(s, (char *)rbuf + displs[me] * ext, rcounts[me], rtype, tmp);
    else nbc_pack(s, sbuf, scount, stype, tmp);
    nbc_round(s);
  }
  for (int d = 1; d < P; d <<= 1) {
    const int n = d < P - d ? d : P - d;
    if (off[n] > 0) nbc_send(s, tmp, off[n], MPI_BYTE, (me - d + P) % P);
    if (off[d + n] > off[d])
      nbc_recv(s, tmp + off[d], off[d + n] - off[d], MPI_BYTE, (me + d) % P);
    nbc_round(s);
  }
  for (int i = inplace ? 1 : 0; i < P; ++i) {
    const int r = (me + i) % P;
    if (off[i + 1] > off[i])
      nbc_unpack(s, tmp + off[i], (char *)rbuf + displs[r] * ext, rcounts[r], rtype);
  }
  nbc_round(s);
done:
  free(off);
}

void nbc_build_allgather(nbc_sched_t *s, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                         void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int P) {
  MPI_Aint *v = malloc(2 * (size_t)P * sizeof *v);
  if (!v) {
    s->err = MPI_ERR_NO_MEM;
    return;
  }
  for (int r = 0; r < P; ++r) v[r] = rcount, v[P + r] = (MPI_Aint)r * rcount;
  nbc_build_allgatherv(s, sbuf, scount, stype, rbuf, v, v + P, rtype, P);
  free(v);
}
