/* Binomial-tree reduce (seed 000_32450fa7292fe18a.txt: T = log P (t_s + (1/B + t_op) M));
 * order-preserving for non-commutative ops.  See reduce.h. */
#include <limits.h>
#include <stdlib.h>

#include "reduce.h"
#include "reduce_util.h"

int arcoll_reduce_binomial(const void *sendbuf, void *recvbuf, MPI_Aint count,
                           MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                           const arcoll_sched_t *s) {
  int rc, done;
  arcoll_red_tree_call_t tc;
  if ((rc = arcoll_red_tree_begin(sendbuf, recvbuf, count, datatype, op, root, comm, s, &tc,
                                  &done)) != MPI_SUCCESS ||
      done)
    return rc;
  const int P = tc.c.P, me = tc.c.me, tag = tc.c.tag, commut = tc.commut, mypos = tc.mypos;
  const int top_is_root = tc.top_is_root;
  const arcoll_red_typeinfo_t ti = tc.c.ti;
  const void *in = tc.in;
  int *map = tc.map; /* else: tree over ranks, rank 0 at the top, result forwarded to root */
#define RANK(p) (map ? map[p] : (p))
  int child[32], nchild = 0; /* children, nearest first (the order they finish) */
  for (int mask = 1; mask < P && !(mypos & mask); mask <<= 1)
    if ((mypos | mask) < P) child[nchild++] = mypos | mask;
  /* Receive window: every child's receive is posted up front when the
   * buffers take at most ARCOLL_REDUCE_PREPOST_BYTES, else two at a time (as
   * Open MPI's generic reduce, coll_base_reduce.c).  A transfer starts when
   * both sides are posted (SMPI; rendezvous protocols), so a posted receive
   * overlaps one child's latency with the others': tree platform, 8 B,
   * P = 64: one receive at a time 50.9 us, two 43.1 us, all 39.1 us
   * (bench/README.md).  Counts > INT_MAX: one blocking receive at a time, in
   * INT_MAX pieces. */
  const int prepost = count <= INT_MAX;
  const double span = (double)ti.true_extent + (double)(count - 1) * (double)ti.extent;
  const int W = nchild * span <= ARCOLL_REDUCE_PREPOST_BYTES ? nchild : (nchild < 2 ? nchild : 2);
  arcoll_red_tmpbuf_t A = {0}, T[32] = {{0}};
  MPI_Request req[32];
  void *acc = (void *)in, *buf[32];
  for (int j = 0; j < 32; ++j) req[j] = MPI_REQUEST_NULL;
  if (mypos == 0 && top_is_root) { /* me == root: accumulate in recvbuf */
    if ((rc = arcoll_red_copy(in, recvbuf, count, datatype, &ti)) != MPI_SUCCESS) goto done;
    acc = recvbuf;
  } else if (nchild) {
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &A)) != MPI_SUCCESS) goto done;
    if ((rc = arcoll_red_copy(in, A.buf, count, datatype, &ti)) != MPI_SUCCESS) goto done;
    acc = A.buf;
  }
  for (int j = 0; j < W; ++j) {
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &T[j])) != MPI_SUCCESS) goto done;
    buf[j] = T[j].buf;
    if (prepost && (rc = MPI_Irecv(buf[j], (int)count, datatype, RANK(child[j]), tag, comm,
                                   &req[j])) != MPI_SUCCESS)
      goto done;
  }
  for (int i = 0; i < nchild; ++i) {
    const int b = i % W;
    rc = prepost ? MPI_Wait(&req[b], MPI_STATUS_IGNORE)
                 : arcoll_red_recv(buf[b], count, RANK(child[i]), datatype, &ti, tag, comm);
    if (rc != MPI_SUCCESS) goto done;
    if (commut) {
      rc = arcoll_red_local(buf[b], acc, count, datatype, op, &ti); /* acc = child op acc */
    } else { /* child holds the higher ranks: acc op child */
      rc = arcoll_red_local(acc, buf[b], count, datatype, op, &ti);
      void *x = acc; acc = buf[b]; buf[b] = x;
    }
    if (rc != MPI_SUCCESS) goto done;
    if (prepost && i + W < nchild &&
        (rc = MPI_Irecv(buf[b], (int)count, datatype, RANK(child[i + W]), tag, comm, &req[b])) !=
            MPI_SUCCESS)
      goto done;
  }
  if (mypos != 0) /* parent: clear the lowest set bit */
    rc = arcoll_red_send(acc, count, RANK(mypos & (mypos - 1)), datatype, &ti, tag, comm);
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
  for (int j = 0; j < 32; ++j) {
    if (req[j] != MPI_REQUEST_NULL) { /* only after an error */
      MPI_Cancel(&req[j]);
      MPI_Wait(&req[j], MPI_STATUS_IGNORE);
    }
    arcoll_red_tmpbuf_free(&T[j]);
  }
  arcoll_red_tmpbuf_free(&A);
  free(map);
  return rc;
}
