/*
 * k-segment broadcast (seed 000_32450fa7292fe18a.txt): scatter of k pieces to
 * k group heads, ring circulation of the pieces among the heads, each head
 * feeding its group's chain.  T = (3k + P/k - 4) T_send(M/k), best k = P/2.
 * Details and honoured schedule fields: bcast.h.
 *
 * Positions 0..P-1 are cut in k contiguous groups (group g = positions
 * [g P / k, (g+1) P / k), head = first position).  Piece g (block g of the
 * k-block partition of the elements) starts at head g.  Head g acquires the
 * pieces in the order g, g-1, ..., g-k+1 (mod k) and forwards each, in that
 * order, down its chain; chain members receive and forward in the same order.
 * The ring is open between head k-1 and the root (the root has every piece
 * and receives nothing).  Head 1 receives its scatter piece and then ring
 * piece 0 from the root: the root sends them in that order, and the receives
 * are posted in that order.
 */
#include <limits.h>
#include <stdlib.h>

#include "bcast.h"
#include "bcast_etc_util.h"

static int group_start(int P, int k, int g) { return (int)((long)g * P / k); }

int arcoll_bcast_ksegment(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                          MPI_Comm comm, const arcoll_sched_t *s) {
  int *order, pos, P, rc, type_size;
  MPI_Aint lb, extent;
  if ((rc = arcoll_bcast_begin(s, root, comm, count, datatype, &type_size, &order, &pos, &P)) !=
          MPI_SUCCESS ||
      !order)
    return rc;
  if ((rc = MPI_Type_get_extent(datatype, &lb, &extent)) != MPI_SUCCESS) {
    free(order);
    return rc;
  }
  int k = (s && s->k > 0) ? s->k : P / 2;
  if (k < 1) k = 1;
  if (k > P) k = P;
  if ((MPI_Aint)k > count) k = (int)count;
  if ((count + k - 1) / k > INT_MAX) { /* pieces too large for one message */
    free(order);
    arcoll_sched_t bs = {s ? s->order : NULL, (MPI_Aint)INT_MAX * type_size, 0,
                         arcoll_sched_tag(s)};
    return arcoll_bcast_binomial(buf, count, datatype, root, comm, &bs);
  }
  const int tag = arcoll_sched_tag(s);
  /* my group g: largest g with group_start(g) <= pos */
  int g = (int)(((long)pos * k + k - 1) / P);
  while (g > 0 && group_start(P, k, g) > pos) --g;
  while (g + 1 < k && group_start(P, k, g + 1) <= pos) ++g;
  const int gstart = group_start(P, k, g), gend = group_start(P, k, g + 1);
  const int is_head = pos == gstart;
  const int succ = pos + 1 < gend ? order[pos + 1] : -1;
  MPI_Request *sreq = malloc(sizeof(MPI_Request) * (size_t)(2 * k + 2));
  MPI_Request *rreq = malloc(sizeof(MPI_Request) * (size_t)(k + 1));
  if (!sreq || !rreq) {
    free(sreq);
    free(rreq);
    free(order);
    return MPI_ERR_NO_MEM;
  }
  int ns = 0;
#define PIECE_PTR(p) ((char *)buf + arcoll_block_start(count, k, (p)) * extent)
#define PIECE_LEN(p) ((int)(arcoll_block_start(count, k, (p) + 1) - arcoll_block_start(count, k, (p))))
  if (is_head) {
    const int next = order[group_start(P, k, (g + 1) % k)];
    const int prev = order[group_start(P, k, (g + k - 1) % k)];
    if (g == 0) { /* root: scatter piece h to head h */
      for (int h = 1; h < k && rc == MPI_SUCCESS; ++h)
        rc = MPI_Isend(PIECE_PTR(h), PIECE_LEN(h), datatype, order[group_start(P, k, h)],
                       tag, comm, &sreq[ns++]);
    } else {
      rc = MPI_Recv(PIECE_PTR(g), PIECE_LEN(g), datatype, order[0], tag, comm,
                    MPI_STATUS_IGNORE);
    }
    if (rc == MPI_SUCCESS && succ >= 0)
      rc = MPI_Isend(PIECE_PTR(g), PIECE_LEN(g), datatype, succ, tag, comm, &sreq[ns++]);
    /* ring: step t sends piece g - t, receives piece g - t - 1 */
    for (int t = 0; t + 1 < k && rc == MPI_SUCCESS; ++t) {
      const int sp = ((g - t) % k + k) % k, rp = ((g - t - 1) % k + k) % k;
      MPI_Request r2[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
      if (g != 0) /* the root holds every piece already */
        rc = MPI_Irecv(PIECE_PTR(rp), PIECE_LEN(rp), datatype, prev, tag, comm, &r2[0]);
      if (rc == MPI_SUCCESS && g != k - 1) /* head k-1 would send to the root */
        rc = MPI_Isend(PIECE_PTR(sp), PIECE_LEN(sp), datatype, next, tag, comm, &r2[1]);
      rc = arcoll_wait_all(2, r2, rc);
      if (rc == MPI_SUCCESS && succ >= 0)
        rc = MPI_Isend(PIECE_PTR(rp), PIECE_LEN(rp), datatype, succ, tag, comm, &sreq[ns++]);
    }
  } else {
    const int pred = order[pos - 1];
    for (int i = 0; i < k && rc == MPI_SUCCESS; ++i) {
      const int p = ((g - i) % k + k) % k;
      rc = MPI_Irecv(PIECE_PTR(p), PIECE_LEN(p), datatype, pred, tag, comm, &rreq[i]);
      if (rc != MPI_SUCCESS) {
        for (int j = i; j < k; ++j) rreq[j] = MPI_REQUEST_NULL;
      }
    }
    for (int i = 0; i < k && rc == MPI_SUCCESS; ++i) {
      const int p = ((g - i) % k + k) % k;
      rc = MPI_Wait(&rreq[i], MPI_STATUS_IGNORE);
      if (rc == MPI_SUCCESS && succ >= 0)
        rc = MPI_Isend(PIECE_PTR(p), PIECE_LEN(p), datatype, succ, tag, comm, &sreq[ns++]);
    }
  }
#undef PIECE_PTR
#undef PIECE_LEN
  rc = arcoll_wait_all(ns, sreq, rc);
  free(sreq);
  free(rreq);
  free(order);
  return rc;
}
