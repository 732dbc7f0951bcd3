/* Pipelined (segmented) chain scan/exscan (seed 000_32450fa7292fe18a.txt:
 * T = (k + P)(2 T_send(M/k) + T_comp(M/k)), best on every machine); the
 * chain kernel also serves the linear algorithm.  See scan.h. */
#include <stdlib.h>

#include "bcast_tree.h" /* arcoll_segment_count */
#include "scan.h"
#include "scan_impl.h"

#define W 8 /* receive slots (segments received ahead) */

int arcoll_scan_chain(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                      MPI_Op op, MPI_Aint seg_bytes, int exclusive, int tag, MPI_Comm comm) {
  int rc, done;
  arcoll_red_call_t c;
  if ((rc = arcoll_red_call_init(count, dt, comm, tag, &c, &done)) != MPI_SUCCESS || done) return rc;
  const int P = c.P, me = c.me;
  const arcoll_red_typeinfo_t ti = c.ti;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (!exclusive && (rc = arcoll_red_copy(in, recvbuf, count, dt, &ti)) != MPI_SUCCESS)
    return rc;
  if (P == 1) return MPI_SUCCESS;
  const MPI_Aint sc = arcoll_segment_count(seg_bytes, ti.size, count);
  const MPI_Aint nseg = (count + sc - 1) / sc;
#define SEG(buf, j) ARCOLL_RED_ELEM(buf, (MPI_Aint)(j) * sc, &ti)
#define LEN(j) ((int)((j) == nseg - 1 ? count - (MPI_Aint)(j) * sc : sc))
#define RSLOT(j) ARCOLL_RED_ELEM(R.buf, ((j) % W) * sc, &ti)
#define SSLOT(j) ARCOLL_RED_ELEM(S.buf, ((j) % W) * sc, &ti)
  const int prev = me - 1, next = me + 1 < P ? me + 1 : MPI_PROC_NULL;
  MPI_Request rreq[W], sreq[W];
  for (int i = 0; i < W; ++i) rreq[i] = sreq[i] = MPI_REQUEST_NULL;
  arcoll_red_tmpbuf_t R = {0}, S = {0};
  if (me > 0 && (rc = arcoll_red_tmpbuf_alloc(&ti, sc * W, &R)) != MPI_SUCCESS) goto done;
  if (exclusive && me > 0 && (rc = arcoll_red_tmpbuf_alloc(&ti, sc * W, &S)) != MPI_SUCCESS) goto done;
  if (me > 0)
    for (MPI_Aint j = 0; j < nseg && j < W; ++j)
      if ((rc = MPI_Irecv(RSLOT(j), LEN(j), dt, prev, tag, comm, &rreq[j])) != MPI_SUCCESS)
        goto done;
  for (MPI_Aint j = 0; j < nseg; ++j) {
    const int w = (int)(j % W);
    const void *out; /* what goes to the next rank */
    if ((rc = MPI_Wait(&sreq[w], MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done; /* segment j-W sent */
    if (me == 0) {
      out = exclusive ? SEG(in, j) : SEG(recvbuf, j);
    } else {
      if ((rc = MPI_Wait(&rreq[w], MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
      if (!exclusive) { /* recv = prefix_{me-1}: recvbuf = recv op recvbuf */
        rc = MPI_Reduce_local(RSLOT(j), SEG(recvbuf, j), LEN(j), dt, op);
        out = SEG(recvbuf, j);
      } else { /* send prefix_{me-1} op x_me, keep prefix_{me-1} */
        rc = arcoll_red_copy(SEG(in, j), SSLOT(j), LEN(j), dt, &ti);
        if (rc == MPI_SUCCESS) rc = MPI_Reduce_local(RSLOT(j), SSLOT(j), LEN(j), dt, op);
        if (rc == MPI_SUCCESS) rc = arcoll_red_copy(RSLOT(j), SEG(recvbuf, j), LEN(j), dt, &ti);
        out = SSLOT(j);
      }
      if (rc != MPI_SUCCESS) goto done;
      if (j + W < nseg &&
          (rc = MPI_Irecv(RSLOT(j + W), LEN(j + W), dt, prev, tag, comm, &rreq[w])) != MPI_SUCCESS)
        goto done;
    }
    if (next != MPI_PROC_NULL &&
        (rc = MPI_Isend(out, LEN(j), dt, next, tag, comm, &sreq[w])) != MPI_SUCCESS)
      goto done;
  }
done:
  for (int i = 0; i < W; ++i) {
    int r = MPI_Wait(&sreq[i], MPI_STATUS_IGNORE);
    if (r != MPI_SUCCESS && rc == MPI_SUCCESS) rc = r;
    if (rreq[i] != MPI_REQUEST_NULL) { MPI_Cancel(&rreq[i]); MPI_Wait(&rreq[i], MPI_STATUS_IGNORE); }
  }
  arcoll_red_tmpbuf_free(&R);
  arcoll_red_tmpbuf_free(&S);
  return rc;
#undef SEG
#undef LEN
#undef RSLOT
#undef SSLOT
}

int arcoll_scan_pipeline(const void *sendbuf, void *recvbuf, MPI_Aint count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                         const arcoll_sched_t *s) {
  return arcoll_scan_chain(sendbuf, recvbuf, count, datatype, op, s ? s->segment_bytes : 0, 0,
                           s ? s->tag : 0, comm);
}

int arcoll_exscan_pipeline(const void *sendbuf, void *recvbuf, MPI_Aint count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           const arcoll_sched_t *s) {
  return arcoll_scan_chain(sendbuf, recvbuf, count, datatype, op, s ? s->segment_bytes : 0, 1,
                           s ? s->tag : 0, comm);
}
