/* Direct scan/exscan: every rank sends its contribution straight to every
 * higher rank; rank j folds x_0 .. x_(j-1) in rank order (order-preserving:
 * non-commutative ops are fine).  One hop, P(P-1)/2 messages: the scan of
 * SMPI's default (scan__default) and of Open MPI's basic linear component
 * for tiny messages.  Cost and the model's cap: scan.h. */
#include "reduce_util.h"
#include "scan.h"

#include <limits.h>
#include <stdlib.h>

/* receives posted at once (memory: DIRECT_BATCH x the message) */
#define DIRECT_BATCH 64

static int direct_scan(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                       MPI_Op op, int exclusive, int tag, MPI_Comm comm) {
  int rc, done;
  arcoll_red_call_t c;
  if ((rc = arcoll_red_call_init(count, dt, comm, tag, &c, &done)) != MPI_SUCCESS || done) return rc;
  const int P = c.P, me = c.me;
  const arcoll_red_typeinfo_t ti = c.ti;
  if (count > INT_MAX) return MPI_ERR_COUNT; /* one message per pair */
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  arcoll_red_tmpbuf_t A = {0}, T = {0};
  MPI_Request *req = NULL, *rreq = NULL;
  const int nsend = P - 1 - me;
  if (nsend > 0 && !(req = malloc(sizeof(*req) * (size_t)nsend))) return MPI_ERR_NO_MEM;
  for (int j = 0; j < nsend; ++j) req[j] = MPI_REQUEST_NULL;
  for (int j = 0; j < nsend; ++j) /* x_me to every higher rank (buffer only read) */
    if ((rc = MPI_Isend(in, (int)count, dt, me + 1 + j, tag, comm, &req[j])) != MPI_SUCCESS)
      goto done;
  if (me > 0) {
    /* acc = x_0 op ... op x_(me-1): the receives are posted in batches of
     * DIRECT_BATCH at once (one by one they would serialise: a transfer
     * starts when its receive is posted, measured 14x slower under SMPI at
     * P = 16, 8 B), then folded in rank order */
    const int W = me < DIRECT_BATCH ? me : DIRECT_BATCH;
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &A)) != MPI_SUCCESS) goto done;
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count * W, &T)) != MPI_SUCCESS) goto done;
    if (!(rreq = malloc(sizeof(*rreq) * (size_t)W))) {
      rc = MPI_ERR_NO_MEM;
      goto done;
    }
    void *acc = A.buf;
    for (int i0 = 0; i0 < me; i0 += W) {
      const int nb = me - i0 < W ? me - i0 : W;
      for (int j = 0; j < nb; ++j) rreq[j] = MPI_REQUEST_NULL;
      for (int j = 0; j < nb && rc == MPI_SUCCESS; ++j)
        rc = MPI_Irecv(ARCOLL_RED_ELEM(T.buf, (MPI_Aint)j * count, &ti), (int)count, dt, i0 + j,
                       tag, comm, &rreq[j]);
      if ((rc = arcoll_wait_all(nb, rreq, rc)) != MPI_SUCCESS) goto done;
      for (int j = 0; j < nb; ++j) {
        void *x = ARCOLL_RED_ELEM(T.buf, (MPI_Aint)j * count, &ti);
        if (i0 + j == 0) {
          rc = arcoll_red_copy(x, acc, count, dt, &ti);
        } else { /* x = acc op x_i, then acc = x */
          rc = arcoll_red_local(acc, x, count, dt, op, &ti);
          if (rc == MPI_SUCCESS) rc = arcoll_red_copy(x, acc, count, dt, &ti);
        }
        if (rc != MPI_SUCCESS) goto done;
      }
    }
    /* the sends read `in` (= recvbuf when in place): complete them first */
    if ((rc = arcoll_wait_all(nsend, req, MPI_SUCCESS)) != MPI_SUCCESS) goto done;
    if (exclusive) {
      rc = arcoll_red_copy(acc, recvbuf, count, dt, &ti);
    } else {
      if (in != recvbuf && (rc = arcoll_red_copy(in, recvbuf, count, dt, &ti)) != MPI_SUCCESS)
        goto done;
      rc = arcoll_red_local(acc, recvbuf, count, dt, op, &ti); /* acc op x_me */
    }
  } else {
    if ((rc = arcoll_wait_all(nsend, req, MPI_SUCCESS)) != MPI_SUCCESS) goto done;
    if (!exclusive && in != recvbuf) rc = arcoll_red_copy(in, recvbuf, count, dt, &ti);
  }
done:
  if (rc != MPI_SUCCESS && req) rc = arcoll_wait_all(nsend, req, rc); /* none left pending */
  free(req);
  free(rreq);
  arcoll_red_tmpbuf_free(&A);
  arcoll_red_tmpbuf_free(&T);
  return rc;
}

int arcoll_scan_direct(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, const arcoll_sched_t *s) {
  return direct_scan(sendbuf, recvbuf, count, datatype, op, 0, s ? s->tag : 0, comm);
}

int arcoll_exscan_direct(const void *sendbuf, void *recvbuf, MPI_Aint count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                         const arcoll_sched_t *s) {
  return direct_scan(sendbuf, recvbuf, count, datatype, op, 1, s ? s->tag : 0, comm);
}
