/* Binomial-tree reduce (seed 000_32450fa7292fe18a.txt: T = log P (t_s + (1/B + t_op) M));
 * order-preserving for non-commutative ops.  See reduce.h. */
#include <stdlib.h>

#include "reduce.h"
#include "reduce_util.h"

int arcoll_reduce_binomial(const void *sendbuf, void *recvbuf, MPI_Aint count,
                           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                           const arcoll_sched_t *s) {
  int rc, done;
  arcoll_red_call_t c;
  if ((rc = arcoll_red_begin(sendbuf, recvbuf, count, datatype, comm, s, 0, &c, &done)) !=
          MPI_SUCCESS ||
      done)
    return rc;
  const int P = c.P, me = c.me, tag = c.tag;
  const arcoll_red_typeinfo_t ti = c.ti;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

  const int commut = arcoll_red_op_commutative(op);
  int *map = NULL, mypos = me;
  if (commut) { /* tree over the positions of the order, root at position 0 */
    if ((rc = arcoll_red_pos_map(s ? s->order : NULL, P, root, me, &map, &mypos)) != MPI_SUCCESS)
      return rc;
  } /* else: tree over ranks, rank 0 at the top, result forwarded to root */
#define RANK(p) (map ? map[p] : (p))
  const int top_is_root = commut || root == 0; /* position 0 is the root */
  int has_child = 0;
  for (int mask = 1; mask < P; mask <<= 1) {
    if (mypos & mask) break;
    if ((mypos | mask) < P) has_child = 1;
  }
  arcoll_red_tmpbuf_t A = {0}, T = {0};
  void *acc = (void *)in, *tmp = NULL;
  if (mypos == 0 && top_is_root) { /* me == root: accumulate in recvbuf */
    if ((rc = arcoll_red_copy(in, recvbuf, count, datatype, &ti)) != MPI_SUCCESS) goto done;
    acc = recvbuf;
  } else if (has_child) {
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &A)) != MPI_SUCCESS) goto done;
    if ((rc = arcoll_red_copy(in, A.buf, count, datatype, &ti)) != MPI_SUCCESS) goto done;
    acc = A.buf;
  }
  if (has_child) {
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &T)) != MPI_SUCCESS) goto done;
    tmp = T.buf;
  }
  for (int mask = 1; mask < P; mask <<= 1) {
    if (mypos & mask) { /* parent: clear the lowest set bit */
      rc = arcoll_red_send(acc, count, RANK(mypos - mask), datatype, &ti, tag, comm);
      goto forward;
    }
    int child = mypos | mask;
    if (child >= P) continue;
    if ((rc = arcoll_red_recv(tmp, count, RANK(child), datatype, &ti, tag, comm)) != MPI_SUCCESS)
      goto done;
    if (commut) {
      rc = arcoll_red_local(tmp, acc, count, datatype, op, &ti); /* acc = child op acc */
    } else { /* child holds the higher ranks: acc op child */
      rc = arcoll_red_local(acc, tmp, count, datatype, op, &ti);
      void *x = acc; acc = tmp; tmp = x;
    }
    if (rc != MPI_SUCCESS) goto done;
  }
forward:
  if (rc != MPI_SUCCESS) goto done;
  if (mypos == 0) {
    if (top_is_root) {
      if (acc != recvbuf) rc = arcoll_red_copy(acc, recvbuf, count, datatype, &ti);
    } else {
      rc = arcoll_red_send(acc, count, root, datatype, &ti, tag, comm);
    }
  } else if (!top_is_root && me == root) {
    rc = arcoll_red_recv(recvbuf, count, 0, datatype, &ti, tag, comm);
  }
done:
#undef RANK
  arcoll_red_tmpbuf_free(&A);
  arcoll_red_tmpbuf_free(&T);
  free(map);
  return rc;
}
