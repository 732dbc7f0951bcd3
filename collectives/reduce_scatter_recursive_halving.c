/* Recursive-halving reduce_scatter for any P (commutative ops), far-first
 * and near-first dimension orders; see reduce_scatter.h.  The vector is laid
 * out by super-blocks: super j (j < P2) = the blocks of positions j and
 * j + P2 (when < P), so that the halving over P2 members moves whole
 * super-blocks.  Slot t of the layout holds super slot_super(t): t itself
 * far first, bitreverse(t) near first; either way every step splits the
 * member's slot range in two contiguous halves (near first, step i decides
 * on bit i of the position, which is the slot's bit log2 P2 - 1 - i) and
 * member j ends with the slot holding super j.  Offsets in elements;
 * off[t] = first element of slot t. */
#include <stdlib.h>

#include "reduce_scatter.h"
#include "reduce_scatter_halving.h"
#include "reduce_scatter_prep.h"

/* bitreverse of t over `bits` bits */
static int rev(int t, int bits) {
  int r = 0;
  for (int i = 0; i < bits; ++i) r |= ((t >> i) & 1) << (bits - 1 - i);
  return r;
}

static int halving(const void *sendbuf, void *recvbuf, const MPI_Aint *counts, MPI_Datatype dt,
                   MPI_Op op, MPI_Comm comm, const arcoll_sched_t *s, int near) {
  arcoll_rsc_t r;
  int done, rc = arcoll_rsc_begin(sendbuf, recvbuf, counts, dt, comm, s, 1, &r, &done);
  if (rc != MPI_SUCCESS || done) {
    arcoll_rsc_end(&r);
    return rc;
  }
  const int P = r.c.P, pos = r.pos, tag = r.c.tag, P2 = arcoll_floor_pow2(P);
  const arcoll_red_typeinfo_t *ti = &r.c.ti;
  const MPI_Aint total = r.disp[P], mine = counts[r.c.me];
  arcoll_red_tmpbuf_t acc = {0}, tmp = {0};
  MPI_Aint *off = malloc(sizeof(MPI_Aint) * (size_t)(P2 + 1));
  if (!off) rc = MPI_ERR_NO_MEM;
  if (rc != MPI_SUCCESS || (rc = arcoll_red_tmpbuf_alloc(ti, total, &acc)) != MPI_SUCCESS ||
      (rc = arcoll_red_tmpbuf_alloc(ti, total, &tmp)) != MPI_SUCCESS)
    goto out;
  const int bits = arcoll_rs_steps(P2);
#define SUPER(t) (near ? rev((t), bits) : (t))
  off[0] = 0;
  for (int t = 0; t < P2; ++t) {
    const int j = SUPER(t);
    off[t + 1] = off[t] + arcoll_rsc_count(&r, j) + (j + P2 < P ? arcoll_rsc_count(&r, j + P2) : 0);
  }
  for (int t = 0; t < P2 && rc == MPI_SUCCESS; ++t) { /* input in super-block layout */
    const int j = SUPER(t);
    const MPI_Aint nj = arcoll_rsc_count(&r, j);
    rc = arcoll_red_copy(arcoll_rsc_in(&r, j), ARCOLL_RED_ELEM(acc.buf, off[t], ti), nj, dt, ti);
    if (rc == MPI_SUCCESS && j + P2 < P)
      rc = arcoll_red_copy(arcoll_rsc_in(&r, j + P2), ARCOLL_RED_ELEM(acc.buf, off[t] + nj, ti),
                           arcoll_rsc_count(&r, j + P2), dt, ti);
  }
  if (rc != MPI_SUCCESS) goto out;
  if (pos >= P2) { /* fold: my whole vector to pos - P2, my result back from it */
    const int peer = arcoll_rsc_rank(&r, pos - P2);
    rc = arcoll_red_send(acc.buf, total, peer, dt, ti, tag, comm);
    if (rc == MPI_SUCCESS) rc = arcoll_red_recv(recvbuf, mine, peer, dt, ti, tag, comm);
    goto out;
  }
  if (pos + P2 < P) {
    rc = arcoll_red_recv(tmp.buf, total, arcoll_rsc_rank(&r, pos + P2), dt, ti, tag, comm);
    if (rc == MPI_SUCCESS) rc = arcoll_red_local(tmp.buf, acc.buf, total, dt, op, ti);
  }
  int lo = 0, hi = P2;
  for (int i = 0; i < bits && rc == MPI_SUCCESS; ++i) {
    const int mask = near ? 1 << i : P2 >> (i + 1);
    const int mid = lo + (hi - lo) / 2, upper = (pos & mask) != 0;
    const int klo = upper ? mid : lo, khi = upper ? hi : mid; /* kept */
    const int slo = upper ? lo : mid, shi = upper ? mid : hi; /* sent */
    const int peer = arcoll_rsc_rank(&r, pos ^ mask);
    rc = arcoll_red_sendrecv(ARCOLL_RED_ELEM(acc.buf, off[slo], ti), off[shi] - off[slo], peer,
                             ARCOLL_RED_ELEM(tmp.buf, off[klo], ti), off[khi] - off[klo], peer,
                             dt, ti, tag, comm);
    if (rc == MPI_SUCCESS)
      rc = arcoll_red_local(ARCOLL_RED_ELEM(tmp.buf, off[klo], ti),
                            ARCOLL_RED_ELEM(acc.buf, off[klo], ti), off[khi] - off[klo], dt, op,
                            ti);
    lo = klo;
    hi = khi;
  }
  const int slot = near ? rev(pos, bits) : pos; /* = lo: the slot holding super pos */
  if (rc == MPI_SUCCESS) /* unfold: the result of position pos + P2 */
    rc = arcoll_red_copy(ARCOLL_RED_ELEM(acc.buf, off[slot], ti), recvbuf, mine, dt, ti);
  if (rc == MPI_SUCCESS && pos + P2 < P)
    rc = arcoll_red_send(ARCOLL_RED_ELEM(acc.buf, off[slot] + mine, ti),
                         arcoll_rsc_count(&r, pos + P2), arcoll_rsc_rank(&r, pos + P2), dt, ti,
                         tag, comm);
out:
  arcoll_red_tmpbuf_free(&acc);
  arcoll_red_tmpbuf_free(&tmp);
  free(off);
  arcoll_rsc_end(&r);
  return rc;
#undef SUPER
}

int arcoll_reduce_scatter_recursive_halving(const void *sendbuf, void *recvbuf,
                                            const MPI_Aint *counts, MPI_Datatype dt, MPI_Op op,
                                            MPI_Comm comm, const arcoll_sched_t *s) {
  return halving(sendbuf, recvbuf, counts, dt, op, comm, s, 0);
}

int arcoll_reduce_scatter_recursive_halving_near(const void *sendbuf, void *recvbuf,
                                                 const MPI_Aint *counts, MPI_Datatype dt,
                                                 MPI_Op op, MPI_Comm comm,
                                                 const arcoll_sched_t *s) {
  return halving(sendbuf, recvbuf, counts, dt, op, comm, s, 1);
}
