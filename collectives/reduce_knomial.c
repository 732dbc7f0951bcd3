/* k-nomial tree reduce (the binomial reduce's body with radix k; MVAPICH2's
 * knomial reduce, SMPI `mvapich2_knomial`); order-preserving for
 * non-commutative ops.  See reduce.h: arcoll_reduce_knomial, and
 * reduce_binomial.c for radix 2. */
#include <limits.h>
#include <stdlib.h>

#include "reduce.h"
#include "reduce_detach.h"
#include "reduce_util.h"

int arcoll_reduce_knomial_radix(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                const arcoll_sched_t *s, int k) {
  int rc, done;
  arcoll_red_tree_call_t tc;
  if (k < 2) return MPI_ERR_ARG;
  if ((rc = arcoll_red_tree_begin(sendbuf, recvbuf, count, datatype, op, root, comm, s, &tc,
                                  &done)) != MPI_SUCCESS ||
      done)
    return rc;
  if (s && s->red_detach && tc.commut && tc.map && tc.top_is_root && !s->detached) {
    rc = arcoll_reduce_knomial_detach(&tc, recvbuf, count, datatype, op, comm, k, s->red_detach);
    free(tc.map);
    return rc;
  }
  const int P = tc.c.P, me = tc.c.me, tag = tc.c.tag, commut = tc.commut, mypos = tc.mypos;
  const int top_is_root = tc.top_is_root;
  const arcoll_red_typeinfo_t ti = tc.c.ti;
  const void *in = tc.in;
  int *map = tc.map; /* else: tree over ranks, rank 0 at the top, result forwarded to root */
#define RANK(p) (map ? map[p] : (p))
  /* Children, nearest first (the order their subtrees finish; ascending
   * positions, each subtree a contiguous range after the previous one, so
   * acc op child keeps the rank order): arcoll_red_knomial_links (reduce_util.h).
   * Detached positions (commutative ops, s->detached: late ranks, adapt/order.h): such a
   * position sends its subtree's result to position 0, which receives those after its
   * tree children, in ascending position; its tree parent does not wait for it. */
  const unsigned char *det = commut && map && s ? s->detached : NULL;
  int parent = -1, nchild = arcoll_red_knomial_links(mypos, P, k, det, NULL, &parent);
  /* Receive window: every child's receive is posted up front when the
   * buffers take at most ARCOLL_REDUCE_PREPOST_BYTES, else two at a time (as
   * Open MPI's generic reduce, coll_base_reduce.c).  A transfer starts when
   * both sides are posted (SMPI; rendezvous protocols), so a posted receive
   * overlaps one child's latency with the others': tree platform, 8 B,
   * P = 64: one receive at a time 50.9 us, two 43.1 us, all 39.1 us
   * (bench/notes/smpi-collectives-results-earlier.md).  Counts > INT_MAX: one
   * blocking receive at a time, in
   * INT_MAX pieces. */
  const int prepost = count <= INT_MAX;
  const double span = (double)ti.true_extent + (double)(count - 1) * (double)ti.extent;
  const int W = nchild * span <= ARCOLL_REDUCE_PREPOST_BYTES ? nchild : (nchild < 2 ? nchild : 2);
  int *child = malloc(sizeof(int) * (size_t)(nchild + 1));
  arcoll_red_tmpbuf_t A = {0}, *T = calloc((size_t)W + 1, sizeof *T);
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(W + 1));
  void **buf = malloc(sizeof(void *) * (size_t)(W + 1)), *acc = (void *)in;
  for (int j = 0; req && j <= W; ++j) req[j] = MPI_REQUEST_NULL;
  if (!child || !T || !req || !buf) {
    rc = MPI_ERR_NO_MEM;
    goto done;
  }
  arcoll_red_knomial_links(mypos, P, k, det, child, &parent);
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
  if (parent >= 0) rc = arcoll_red_send(acc, count, RANK(parent), datatype, &ti, tag, comm);
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
  for (int j = 0; req && j < W; ++j)
    if (req[j] != MPI_REQUEST_NULL) { /* only after an error */
      MPI_Cancel(&req[j]);
      MPI_Wait(&req[j], MPI_STATUS_IGNORE);
    }
  for (int j = 0; T && j < W; ++j) arcoll_red_tmpbuf_free(&T[j]);
  arcoll_red_tmpbuf_free(&A);
  free(T), free(req), free(buf), free(child);
  free(map);
  return rc;
}

int arcoll_reduce_knomial(const void *sendbuf, void *recvbuf, MPI_Aint count,
                          MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                          const arcoll_sched_t *s) {
  const int k = s && s->k >= 2 ? s->k : ARCOLL_KNOMIAL_RADIX;
  return arcoll_reduce_knomial_radix(sendbuf, recvbuf, count, datatype, op, root, comm, s, k);
}
