/* Reduce by recursive-halving reduce-scatter + binomial gather (seed
 * 000_32450fa7292fe18a.txt: T = 4 t_s log P + (4/B + t_op) M (P-1)/P;
 * Rabenseifner 2004).  See reduce.h. */
#include <stdlib.h>

#include "reduce.h"
#include "reduce_scatter_halving.h"
#include "reduce_util.h"

static int rsag(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype datatype,
                MPI_Op op, int root, MPI_Comm comm, const arcoll_sched_t *s, int dim) {
  int rc, done;
  arcoll_red_call_t c;
  if (!arcoll_red_op_commutative(op)) return MPI_ERR_OP;
  if ((rc = arcoll_red_begin(sendbuf, recvbuf, count, datatype, comm, s, 0, &c, &done)) !=
          MPI_SUCCESS ||
      done)
    return rc;
  const int P = c.P, me = c.me, tag = c.tag;
  const arcoll_red_typeinfo_t ti = c.ti;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

  /* positions: an order's (the root first), else the ranks' own, so the
   * pairs do not move with the root (see reduce.h) */
  const int *order = s ? s->order : NULL;
  int *map = NULL, *nrank = NULL, mypos;
  arcoll_red_tmpbuf_t A = {0}, T = {0};
  if ((rc = arcoll_red_pos_map(order, P, order ? root : 0, me, &map, &mypos)) != MPI_SUCCESS)
    return rc;
  const int rootpos = order ? 0 : root;
  const int P2 = arcoll_floor_pow2(P), rem = P - P2;
  /* the survivor of folded pair i (positions 2i, 2i + 1): the root if in it, else 2i */
#define SURVIVOR(i) ((rootpos >> 1) == (i) && rootpos < 2 * rem ? rootpos : 2 * (i))
  void *acc;
  if (mypos == rootpos) { /* the root accumulates in recvbuf */
    acc = recvbuf;
    if ((rc = arcoll_red_copy(in, recvbuf, count, datatype, &ti)) != MPI_SUCCESS) goto done;
  } else {
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &A)) != MPI_SUCCESS) goto done;
    acc = A.buf;
    if ((rc = arcoll_red_copy(in, acc, count, datatype, &ti)) != MPI_SUCCESS) goto done;
  }
  if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &T)) != MPI_SUCCESS) goto done;
  nrank = malloc(sizeof(int) * (size_t)P2);
  if (!nrank) { rc = MPI_ERR_NO_MEM; goto done; }
  for (int i = 0; i < P2; ++i) nrank[i] = map[i < rem ? SURVIVOR(i) : i + rem];

  /* Fold the first 2*rem positions pairwise into the survivor (the root stays). */
  int newpos;
  if (mypos < 2 * rem) {
    if (mypos != SURVIVOR(mypos >> 1)) {
      rc = arcoll_red_send(acc, count, map[mypos ^ 1], datatype, &ti, tag, comm);
      goto done;
    }
    if ((rc = arcoll_red_recv(T.buf, count, map[mypos ^ 1], datatype, &ti, tag, comm)) != MPI_SUCCESS)
      goto done;
    if ((rc = arcoll_red_local(T.buf, acc, count, datatype, op, &ti)) != MPI_SUCCESS) goto done;
    newpos = mypos / 2;
  } else {
    newpos = mypos - rem;
  }
  rc = arcoll_reduce_scatter_halving(acc, T.buf, count, datatype, op, &ti, newpos, P2, nrank,
                                     dim, tag, comm, s ? s->step_s : NULL);
  if (rc != MPI_SUCCESS) goto done;
  /* Binomial gather of the blocks to the root's newpos: the halving steps
   * undone in reverse; at step i the member whose mask_i bit differs from
   * the root's sends the range it held after step i + 1 to its partner
   * and is done (XOR by the root's newpos keeps the pairs). */
  const int newroot = rootpos < 2 * rem ? rootpos >> 1 : rootpos - rem;
  for (int i = arcoll_rs_steps(P2) - 1; i >= 0; --i) {
    int mask = arcoll_rs_mask(P2, dim, i);
    if ((newpos ^ newroot) & mask) {
      int mlo, mhi;
      arcoll_rs_range(P2, dim, newpos, i + 1, &mlo, &mhi);
      MPI_Aint d = arcoll_rs_block(count, P2, mlo), n = arcoll_rs_block(count, P2, mhi) - d;
      rc = arcoll_red_send(ARCOLL_RED_ELEM(acc, d, &ti), n, nrank[newpos ^ mask], datatype, &ti,
                           tag, comm);
      break;
    }
    int plo, phi;
    arcoll_rs_range(P2, dim, newpos ^ mask, i + 1, &plo, &phi);
    MPI_Aint d = arcoll_rs_block(count, P2, plo), n = arcoll_rs_block(count, P2, phi) - d;
    rc = arcoll_red_recv(ARCOLL_RED_ELEM(acc, d, &ti), n, nrank[newpos ^ mask], datatype, &ti, tag,
                         comm);
    if (rc != MPI_SUCCESS) break;
  }
#undef SURVIVOR
done:
  arcoll_red_tmpbuf_free(&A);
  arcoll_red_tmpbuf_free(&T);
  free(nrank);
  free(map);
  return rc;
}

int arcoll_reduce_rsag(const void *sendbuf, void *recvbuf, MPI_Aint count,
                       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                       const arcoll_sched_t *s) {
  return rsag(sendbuf, recvbuf, count, datatype, op, root, comm, s, ARCOLL_RS_NEAR_FIRST);
}

int arcoll_reduce_rsag_far(const void *sendbuf, void *recvbuf, MPI_Aint count,
                           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                           const arcoll_sched_t *s) {
  return rsag(sendbuf, recvbuf, count, datatype, op, root, comm, s, ARCOLL_RS_FAR_FIRST);
}
