/* The MPI_IN_PLACE exchange of the alltoallv algorithms (alltoallv.h,
 * alltoallv_prep.h): a round-robin tournament over the positions (a
 * 1-factorisation of the complete graph): P odd, round k = 0..P-1 pairs q
 * with (k - q) mod P (q with 2q = k sits out); P even, the same over the
 * first P-1 positions for k = 0..P-2, whoever sits out paired with position
 * P-1.  Every pair meets once; a pair swaps its blocks by copying the
 * outgoing block to a temporary (of the largest block) and one send-receive
 * into recvbuf. */
#include "alltoallv_prep.h"
#include "reduce_util.h"

/* partner position of q in round k (-1: none) */
static int partner(int P, int k, int q) {
  const int Q = P % 2 ? P : P - 1;
  if (q == Q) { /* P even: the position paired with the one sitting out */
    for (int x = 0; x < Q; ++x)
      if ((2 * x) % Q == k) return x;
    return -1;
  }
  const int p = ((k - q) % Q + Q) % Q;
  return p != q ? p : (P % 2 ? -1 : Q);
}

int arcoll_a2av_inplace(const arcoll_a2av_t *a, MPI_Comm comm) {
  const arcoll_a2av_side_t *r = &a->r;
  arcoll_red_typeinfo_t ti;
  arcoll_red_tmpbuf_t tmp = {0};
  MPI_Aint big = 0;
  int rc = arcoll_red_typeinfo(r->type, &ti);
  for (int q = 0; q < a->P; ++q)
    if (q != a->me && r->cnt[q] > big) big = r->cnt[q];
  if (rc != MPI_SUCCESS || r->size == 0 || big == 0) return rc;
  if ((rc = arcoll_red_tmpbuf_alloc(&ti, big, &tmp)) != MPI_SUCCESS) return rc;
  const int rounds = a->P % 2 ? a->P : a->P - 1;
  for (int k = 0; k < rounds && rc == MPI_SUCCESS; ++k) {
    const int pp = partner(a->P, k, a->pos);
    if (pp < 0) continue;
    const int peer = arcoll_a2av_rank(a, pp);
    const MPI_Aint n = r->cnt[peer];
    if (n == 0) continue; /* the peer's count for me is 0 too (MPI's matching rule) */
    char *blk = r->buf + r->dsp[peer] * r->ext;
    MPI_Datatype t;
    int m;
    if ((rc = arcoll_red_copy(blk, tmp.buf, n, r->type, &ti)) != MPI_SUCCESS ||
        (rc = arcoll_a2av_msgtype(n, r->type, &m, &t)) != MPI_SUCCESS)
      break;
    rc = MPI_Sendrecv(tmp.buf, m, t, peer, a->tag, blk, m, t, peer, a->tag, comm,
                      MPI_STATUS_IGNORE);
    arcoll_a2av_msgtype_free(r->type, &t);
  }
  arcoll_red_tmpbuf_free(&tmp);
  return rc;
}
