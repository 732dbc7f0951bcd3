/* Pipelined chain reduce (seed 000_32450fa7292fe18a.txt pipelined chain,
 * T = (k + P - 2)(2 T_send(M/k) + t_op M/k)).  See reduce.h. */
#include <stdlib.h>

#include "bcast_tree.h" /* arcoll_segment_count */
#include "reduce.h"
#include "reduce_util.h"

#define W 8 /* receive slots per middle rank */
#define D 4 /* receives posted ahead (< W: a slot's send has D iterations to finish) */

int arcoll_reduce_chain(const void *sendbuf, void *recvbuf, MPI_Aint count,
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
  int *map = tc.map;
#define RANK(p) (map ? map[p] : (p))
  const MPI_Aint sc = arcoll_segment_count(s ? s->segment_bytes : 0, ti.size, count);
  const MPI_Aint nseg = (count + sc - 1) / sc;
#define SEG(buf, j) ARCOLL_RED_ELEM(buf, (MPI_Aint)(j) * sc, &ti)
#define LEN(j) ((int)((j) == nseg - 1 ? count - (MPI_Aint)(j) * sc : sc))
  arcoll_red_tmpbuf_t I = {0}, S = {0}, F = {0};
  MPI_Request rreq[W], sreq[W], *freq = NULL;
  for (int i = 0; i < W; ++i) rreq[i] = sreq[i] = MPI_REQUEST_NULL;
  if (!top_is_root && me == root && sendbuf == MPI_IN_PLACE) {
    /* the final result will land in recvbuf: keep the input apart */
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &I)) != MPI_SUCCESS) goto done;
    if ((rc = arcoll_red_copy(in, I.buf, count, datatype, &ti)) != MPI_SUCCESS) goto done;
    in = I.buf;
  }
  const int prev = mypos > 0 ? RANK(mypos - 1) : -1, next = mypos < P - 1 ? RANK(mypos + 1) : -1;
  if (mypos == P - 1) { /* start of the chain: send the input segments */
    for (MPI_Aint j = 0; j < nseg; ++j) {
      int w = (int)(j % W);
      if ((rc = MPI_Wait(&sreq[w], MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
      rc = MPI_Isend(SEG(in, j), LEN(j), datatype, prev, tag, comm, &sreq[w]);
      if (rc != MPI_SUCCESS) goto done;
    }
  } else if (mypos > 0) { /* middle: slot = in op slot, forward */
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, sc * W, &S)) != MPI_SUCCESS) goto done;
#define SLOT(j) ARCOLL_RED_ELEM(S.buf, ((j) % W) * sc, &ti)
    for (MPI_Aint j = 0; j < nseg && j < D; ++j)
      if ((rc = MPI_Irecv(SLOT(j), LEN(j), datatype, next, tag, comm, &rreq[j % W])) != MPI_SUCCESS)
        goto done;
    for (MPI_Aint j = 0; j < nseg; ++j) {
      MPI_Aint a = j + D; /* post the receive of segment a into its (freed) slot */
      if (a < nseg) {
        if ((rc = MPI_Wait(&sreq[a % W], MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
        rc = MPI_Irecv(SLOT(a), LEN(a), datatype, next, tag, comm, &rreq[a % W]);
        if (rc != MPI_SUCCESS) goto done;
      }
      if ((rc = MPI_Wait(&rreq[j % W], MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
      if ((rc = MPI_Reduce_local(SEG(in, j), SLOT(j), LEN(j), datatype, op)) != MPI_SUCCESS)
        goto done;
      if ((rc = MPI_Isend(SLOT(j), LEN(j), datatype, prev, tag, comm, &sreq[j % W])) != MPI_SUCCESS)
        goto done;
    }
  } else { /* position 0: the end of the chain */
    void *out = top_is_root ? recvbuf : NULL;
    if (!out) { /* rank 0 computes the result for a different root */
      if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &F)) != MPI_SUCCESS) goto done;
      out = F.buf;
      freq = malloc(sizeof(MPI_Request) * (size_t)nseg);
      if (!freq) { rc = MPI_ERR_NO_MEM; goto done; }
      for (MPI_Aint q = 0; q < nseg; ++q) freq[q] = MPI_REQUEST_NULL;
    }
    const int direct = in != out; /* receive straight into out, out = in op out */
    if (!direct && (rc = arcoll_red_tmpbuf_alloc(&ti, sc * W, &S)) != MPI_SUCCESS) goto done;
#define DST(j) (direct ? SEG(out, j) : SLOT(j))
    for (MPI_Aint j = 0; j < nseg && j < W; ++j)
      if ((rc = MPI_Irecv(DST(j), LEN(j), datatype, next, tag, comm, &rreq[j % W])) != MPI_SUCCESS)
        goto done;
    for (MPI_Aint j = 0; j < nseg; ++j) {
      if ((rc = MPI_Wait(&rreq[j % W], MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
      if (direct) {
        rc = MPI_Reduce_local(SEG(in, j), SEG(out, j), LEN(j), datatype, op);
      } else if (commut) {
        rc = MPI_Reduce_local(SLOT(j), SEG(out, j), LEN(j), datatype, op);
      } else {
        rc = MPI_Reduce_local(SEG(in, j), SLOT(j), LEN(j), datatype, op);
        if (rc == MPI_SUCCESS) rc = arcoll_red_copy(SLOT(j), SEG(out, j), LEN(j), datatype, &ti);
      }
      if (rc != MPI_SUCCESS) goto done;
      if (j + W < nseg) {
        rc = MPI_Irecv(DST(j + W), LEN(j + W), datatype, next, tag, comm, &rreq[j % W]);
        if (rc != MPI_SUCCESS) goto done;
      }
      if (freq && (rc = MPI_Isend(SEG(out, j), LEN(j), datatype, root, tag, comm, &freq[j])) != MPI_SUCCESS)
        goto done;
    }
#undef DST
  }
  if (rc == MPI_SUCCESS && !top_is_root && me == root) { /* collect the result from rank 0 */
    for (MPI_Aint j = 0; j < nseg && rc == MPI_SUCCESS; ++j)
      rc = MPI_Recv(SEG(recvbuf, j), LEN(j), datatype, 0, tag, comm, MPI_STATUS_IGNORE);
  }
done:
  for (int i = 0; i < W; ++i) {
    int r = MPI_Wait(&sreq[i], MPI_STATUS_IGNORE);
    if (r != MPI_SUCCESS && rc == MPI_SUCCESS) rc = r;
    if (rreq[i] != MPI_REQUEST_NULL) { MPI_Cancel(&rreq[i]); MPI_Wait(&rreq[i], MPI_STATUS_IGNORE); }
  }
  if (freq) {
    rc = arcoll_wait_all(nseg, freq, rc);
    free(freq);
  }
  arcoll_red_tmpbuf_free(&I);
  arcoll_red_tmpbuf_free(&S);
  arcoll_red_tmpbuf_free(&F);
  free(map);
  return rc;
#undef SLOT
#undef SEG
#undef LEN
#undef RANK
}
