/* Recursive-halving reduce_scatter_block for any P (commutative ops); see
 * reduce_scatter_block.h.  The vector is laid out by super-blocks: super
 * j (j < P2) = the blocks of positions j and j + P2 (when < P), so that the
 * halving over P2 members moves whole super-blocks and member j ends with
 * super j.  Offsets in elements; off[j] = first element of super j. */
#include <stdlib.h>

#include "reduce_scatter_block.h"
#include "reduce_scatter_block_prep.h"

int arcoll_reduce_scatter_block_recursive_halving(const void *sendbuf, void *recvbuf,
                                                  MPI_Aint count, MPI_Datatype dt, MPI_Op op,
                                                  MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_rsb_t r;
  int done, rc = arcoll_rsb_begin(sendbuf, recvbuf, count, dt, comm, s, 1, &r, &done);
  if (rc != MPI_SUCCESS || done) return rc;
  const int P = r.c.P, pos = r.pos, tag = r.c.tag;
  const arcoll_red_typeinfo_t *ti = &r.c.ti;
  int P2 = 1;
  while (P2 * 2 <= P) P2 *= 2;
  const MPI_Aint total = (MPI_Aint)P * count;
  arcoll_red_tmpbuf_t acc = {0}, tmp = {0};
  MPI_Aint *off = malloc(sizeof(MPI_Aint) * (size_t)(P2 + 1));
  if (!off) rc = MPI_ERR_NO_MEM;
  if (rc != MPI_SUCCESS || (rc = arcoll_red_tmpbuf_alloc(ti, total, &acc)) != MPI_SUCCESS ||
      (rc = arcoll_red_tmpbuf_alloc(ti, total, &tmp)) != MPI_SUCCESS)
    goto out;
  off[0] = 0;
  for (int j = 0; j < P2; ++j) off[j + 1] = off[j] + (j + P2 < P ? 2 : 1) * count;
  for (int j = 0; j < P2 && rc == MPI_SUCCESS; ++j) { /* input in super-block layout */
    rc = arcoll_red_copy(arcoll_rsb_in(&r, j), ARCOLL_RED_ELEM(acc.buf, off[j], ti), count, dt,
                         ti);
    if (rc == MPI_SUCCESS && j + P2 < P)
      rc = arcoll_red_copy(arcoll_rsb_in(&r, j + P2),
                           ARCOLL_RED_ELEM(acc.buf, off[j] + count, ti), count, dt, ti);
  }
  if (rc != MPI_SUCCESS) goto out;
  if (pos >= P2) { /* fold: my whole vector to pos - P2, my result back from it */
    rc = arcoll_red_send(acc.buf, total, r.map[pos - P2], dt, ti, tag, comm);
    if (rc == MPI_SUCCESS) rc = arcoll_red_recv(recvbuf, count, r.map[pos - P2], dt, ti, tag, comm);
    goto out;
  }
  if (pos + P2 < P) {
    rc = arcoll_red_recv(tmp.buf, total, r.map[pos + P2], dt, ti, tag, comm);
    if (rc == MPI_SUCCESS) rc = arcoll_red_local(tmp.buf, acc.buf, total, dt, op, ti);
  }
  int lo = 0, hi = P2;
  for (int mask = P2 / 2; mask >= 1 && rc == MPI_SUCCESS; mask /= 2) {
    const int mid = lo + (hi - lo) / 2, upper = (pos & mask) != 0;
    const int klo = upper ? mid : lo, khi = upper ? hi : mid; /* kept */
    const int slo = upper ? lo : mid, shi = upper ? mid : hi; /* sent */
    rc = arcoll_red_sendrecv(ARCOLL_RED_ELEM(acc.buf, off[slo], ti), off[shi] - off[slo],
                             r.map[pos ^ mask], ARCOLL_RED_ELEM(tmp.buf, off[klo], ti),
                             off[khi] - off[klo], r.map[pos ^ mask], dt, ti, tag, comm);
    if (rc == MPI_SUCCESS)
      rc = arcoll_red_local(ARCOLL_RED_ELEM(tmp.buf, off[klo], ti),
                            ARCOLL_RED_ELEM(acc.buf, off[klo], ti), off[khi] - off[klo], dt, op,
                            ti);
    lo = klo;
    hi = khi;
  }
  if (rc == MPI_SUCCESS) /* unfold: the result of position pos + P2 */
    rc = arcoll_red_copy(ARCOLL_RED_ELEM(acc.buf, off[pos], ti), recvbuf, count, dt, ti);
  if (rc == MPI_SUCCESS && pos + P2 < P)
    rc = arcoll_red_send(ARCOLL_RED_ELEM(acc.buf, off[pos] + count, ti), count,
                         r.map[pos + P2], dt, ti, tag, comm);
out:
  arcoll_red_tmpbuf_free(&acc);
  arcoll_red_tmpbuf_free(&tmp);
  free(off);
  free(r.map);
  return rc;
}
