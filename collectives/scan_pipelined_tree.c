/* Pipelined (segmented) in-order binary tree scan/exscan; see scan.h and
 * tree_inorder.h for the tree.
 *
 * Rank v with left subtree value L = x_lo op ... op x_(v-1), right subtree
 * value R and prefix D = x_0 op ... op x_(lo-1) of the ranks left of its
 * subtree (from the parent; none on the root's left spine), per segment j:
 *   up:   a = L op x_v;  to the parent (if send_up): a op R
 *   down: a = D op a (= the inclusive result);  to the left child: D;
 *         to the right child: a
 * Exscan: recvbuf = D op L (D, L or nothing when absent) and a lives in a
 * temporary.  The operands keep rank order, so non-commutative ops are
 * exact.  Up and down run as two pipelines of segments: segment j's up step
 * needs L_j, R_j and a free up slot; its down step needs its up step, D_j
 * and free down slots.  All waiting is one MPI_Waitany over every posted
 * receive and every send in flight, so no blocked slot stops the other
 * streams (deadlock-free also when sends need a posted receive).  Per
 * segment an inner rank receives 3 and sends 3 messages (full duplex:
 * ~3 M / B); fill ~2 (depth - 1) segment steps. */
#include "bcast_tree.h" /* arcoll_segment_count */
#include "scan.h"
#include "scan_impl.h"
#include "tree_inorder.h"

/* Segments in flight per stream (receives posted ahead, sends outstanding):
 * ARCOLL_SCAN_TREE_WINDOW = 2.  Three streams share an inner rank's link, so
 * a message waits behind up to 3 W others: a deep window lengthens the
 * 2 (D - 1) fill steps.  SMPI, flat 10 Gb/s, P = 256, 8 KiB segments:
 * 1 MiB 3.72 / 3.21 / 3.06 / 3.19 ms with W = 8 / 4 / 2 / 1; 4 MiB
 * 11.21 ms (W = 2) / 12.18 ms (W = 1). */
#define W ARCOLL_SCAN_TREE_WINDOW

/* request array layout: 6 streams of W slots */
enum { RL, RR, RD, SUP, SDL, SDR, NSTREAM };

static int tree_scan(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                     MPI_Op op, MPI_Aint seg_bytes, int exclusive, int tag, MPI_Comm comm) {
  int rc, done;
  arcoll_red_call_t c;
  if ((rc = arcoll_red_call_init(count, dt, comm, tag, &c, &done)) != MPI_SUCCESS || done) return rc;
  const arcoll_red_typeinfo_t ti = c.ti;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (c.P == 1) return exclusive ? MPI_SUCCESS : arcoll_red_copy(in, recvbuf, count, dt, &ti);
  arcoll_inorder_node_t t;
  if (arcoll_tree_inorder(c.P, c.me, &t) != 0) return MPI_ERR_INTERN;
  const int hasL = t.left >= 0, getR = t.right >= 0 && t.send_up, hasD = t.recv_down;
  const MPI_Aint sc = arcoll_segment_count(seg_bytes, ti.size, count);
  const MPI_Aint nseg = (count + sc - 1) / sc;
  /* A rank that gets prefixes runs its up steps at most `ahead` segments
   * before its down steps: sends below the eager limit complete at once, so
   * without this bound the leaves send every segment up at the start and
   * the unexpected messages pile up at their parents (SMPI, P = 64, 4 MiB,
   * 4 KiB segments: 36 s of simulation instead of 4 s, the same simulated
   * time; a bound of 8 slowed it 1.7x, 16 and 32 did not at P = 64, 32
   * did not at P = 256).  4 x levels covers the round trip of a segment up
   * and down the tree.  Deadlock-free: down step j only needs up step j. */
  const MPI_Aint ahead = 4 * (MPI_Aint)arcoll_tree_inorder_depth(c.P);
  MPI_Request req[NSTREAM * W];
  for (int i = 0; i < NSTREAM * W; ++i) req[i] = MPI_REQUEST_NULL;
#define REQ(s, j) req[(s) * W + (int)((j) % W)]
#define SEG(buf, j) ARCOLL_RED_ELEM(buf, (MPI_Aint)(j) * sc, &ti)
#define SLOT(ring, j) ARCOLL_RED_ELEM((ring).buf, ((j) % W) * sc, &ti)
#define LEN(j) ((int)((j) == nseg - 1 ? count - (MPI_Aint)(j) * sc : sc))
  /* a: recvbuf (scan) or a copy of the input (exscan); rings of W segments
   * for L, for R / the up message, for D */
  arcoll_red_tmpbuf_t A = {0}, BL = {0}, BU = {0}, BD = {0};
  void *a = recvbuf;
  if (exclusive) {
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &A)) != MPI_SUCCESS) goto done;
    a = A.buf;
  }
  if ((rc = arcoll_red_copy(in, a, count, dt, &ti)) != MPI_SUCCESS) goto done;
  if ((hasL && (rc = arcoll_red_tmpbuf_alloc(&ti, sc * W, &BL)) != MPI_SUCCESS) ||
      (t.send_up && (rc = arcoll_red_tmpbuf_alloc(&ti, sc * W, &BU)) != MPI_SUCCESS) ||
      (hasD && (rc = arcoll_red_tmpbuf_alloc(&ti, sc * W, &BD)) != MPI_SUCCESS))
    goto done;
  /* up / dn: segments whose up / down step is done; pl, pr, pd: receives
   * posted (segments 0 .. p-1) */
  MPI_Aint up = 0, dn = 0, pl = 0, pr = 0, pd = 0;
  while (dn < nseg) {
    int moved = 0;
    /* post receives into free slots (a slot is free once its segment was
     * used and, for R and D, sent on) */
    for (; hasL && pl < nseg && pl < up + W; ++pl)
      if ((rc = MPI_Irecv(SLOT(BL, pl), LEN(pl), dt, t.left, tag, comm, &REQ(RL, pl))) != MPI_SUCCESS)
        goto done;
    for (; getR && pr < nseg && pr < up + W && REQ(SUP, pr) == MPI_REQUEST_NULL; ++pr)
      if ((rc = MPI_Irecv(SLOT(BU, pr), LEN(pr), dt, t.right, tag, comm, &REQ(RR, pr))) != MPI_SUCCESS)
        goto done;
    for (; hasD && pd < nseg && pd < dn + W && REQ(SDL, pd) == MPI_REQUEST_NULL; ++pd)
      if ((rc = MPI_Irecv(SLOT(BD, pd), LEN(pd), dt, t.parent, tag, comm, &REQ(RD, pd))) != MPI_SUCCESS)
        goto done;
    /* up steps */
    while (up < nseg && (!hasD || up < dn + ahead) && (!hasL || (up < pl && REQ(RL, up) == MPI_REQUEST_NULL)) &&
           (!t.send_up || (getR ? up < pr && REQ(RR, up) == MPI_REQUEST_NULL
                                : REQ(SUP, up) == MPI_REQUEST_NULL))) {
      const MPI_Aint j = up++;
      const int n = LEN(j);
      moved = 1;
      if (hasL) {
        if (exclusive && (rc = arcoll_red_copy(SLOT(BL, j), SEG(recvbuf, j), n, dt, &ti)) != MPI_SUCCESS)
          goto done;
        if ((rc = MPI_Reduce_local(SLOT(BL, j), SEG(a, j), n, dt, op)) != MPI_SUCCESS) goto done;
      }
      if (t.send_up) { /* the up message a op R, built in the R slot */
        if (getR) rc = MPI_Reduce_local(SEG(a, j), SLOT(BU, j), n, dt, op);
        else rc = arcoll_red_copy(SEG(a, j), SLOT(BU, j), n, dt, &ti);
        if (rc != MPI_SUCCESS ||
            (rc = MPI_Isend(SLOT(BU, j), n, dt, t.parent, tag, comm, &REQ(SUP, j))) != MPI_SUCCESS)
          goto done;
      }
    }
    /* down steps */
    while (dn < up && (!hasD || (dn < pd && REQ(RD, dn) == MPI_REQUEST_NULL)) &&
           (!(hasD && hasL) || REQ(SDL, dn) == MPI_REQUEST_NULL) &&
           (t.right < 0 || REQ(SDR, dn) == MPI_REQUEST_NULL)) {
      const MPI_Aint j = dn++;
      const int n = LEN(j);
      moved = 1;
      if (hasD) {
        if (exclusive) {
          rc = hasL ? MPI_Reduce_local(SLOT(BD, j), SEG(recvbuf, j), n, dt, op)
                    : arcoll_red_copy(SLOT(BD, j), SEG(recvbuf, j), n, dt, &ti);
          if (rc != MPI_SUCCESS) goto done;
        }
        if ((rc = MPI_Reduce_local(SLOT(BD, j), SEG(a, j), n, dt, op)) != MPI_SUCCESS) goto done;
        if (hasL && (rc = MPI_Isend(SLOT(BD, j), n, dt, t.left, tag, comm, &REQ(SDL, j))) != MPI_SUCCESS)
          goto done;
      }
      if (t.right >= 0 &&
          (rc = MPI_Isend(SEG(a, j), n, dt, t.right, tag, comm, &REQ(SDR, j))) != MPI_SUCCESS)
        goto done;
    }
    if (moved || dn == nseg) continue;
    int idx;
    if ((rc = MPI_Waitany(NSTREAM * W, req, &idx, MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
    if (idx == MPI_UNDEFINED) { /* nothing in flight and no step possible: a bug */
      rc = MPI_ERR_INTERN;
      goto done;
    }
  }
done:
  /* sends still in flight (the receives are all complete on success) */
  for (int i = 0; i < NSTREAM * W; ++i) {
    if (req[i] == MPI_REQUEST_NULL) continue;
    if (i < SUP * W) { MPI_Cancel(&req[i]); }
    int r = MPI_Wait(&req[i], MPI_STATUS_IGNORE);
    if (r != MPI_SUCCESS && rc == MPI_SUCCESS) rc = r;
  }
  arcoll_red_tmpbuf_free(&A);
  arcoll_red_tmpbuf_free(&BL);
  arcoll_red_tmpbuf_free(&BU);
  arcoll_red_tmpbuf_free(&BD);
  return rc;
#undef REQ
#undef SEG
#undef SLOT
#undef LEN
}

int arcoll_scan_pipelined_tree(const void *sendbuf, void *recvbuf, MPI_Aint count,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               const arcoll_sched_t *s) {
  return tree_scan(sendbuf, recvbuf, count, datatype, op, s ? s->segment_bytes : 0, 0,
                   s ? s->tag : 0, comm);
}

int arcoll_exscan_pipelined_tree(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 const arcoll_sched_t *s) {
  return tree_scan(sendbuf, recvbuf, count, datatype, op, s ? s->segment_bytes : 0, 1,
                   s ? s->tag : 0, comm);
}
