/*
 * Bcast's online decisions taken by the root from the records that arrived
 * (decision.h, arcoll_decision_start_rooted): no rank waits for a late
 * rank's record.
 */
#include <math.h>
#include <stdlib.h>

#include "decision.h"

/* records of rank r: buf[2 k r .. 2 k r + 2k) (times inside, then periods) */
struct arcoll_rooted {
  int root, k, P, nreq;
  double *buf;      /* root: [P][2k] records, then [3k] result; else [2k] mine, [3k] result */
  MPI_Request *req; /* root: [P] receives (its own: null), then [P] result sends; else send, receive */
  struct arcoll_rooted *next; /* st->rooted_open: requests still open */
};

#define TAG_RECORD(c) ARCOLL_TAG_DECISION(c)
#define TAG_RESULT(c) (ARCOLL_TAG_DECISION(c) + 1)

static void rooted_free(struct arcoll_rooted *r) {
  free(r->buf), free(r->req), free(r);
}

void arcoll_decision_rooted_drain(arcoll_comm_state_t *st, int wait) {
  struct arcoll_rooted **pp = &st->rooted_open;
  while (*pp) {
    struct arcoll_rooted *r = *pp;
    int done = 1;
    if (wait) PMPI_Waitall(r->nreq, r->req, MPI_STATUSES_IGNORE);
    else PMPI_Testall(r->nreq, r->req, &done, MPI_STATUSES_IGNORE);
    if (done) {
      *pp = r->next;
      rooted_free(r);
    } else {
      pp = &r->next;
    }
  }
}

struct arcoll_rooted *arcoll_decision_rooted_post(arcoll_comm_state_t *st,
                                                  const arcoll_explorer_t *ex, int root, int *rc) {
  const int k = ex->n * ex->trials, P = st->P, me = st->me, c = (int)ex->coll;
  *rc = MPI_SUCCESS;
  struct arcoll_rooted *r = calloc(1, sizeof *r);
  const int nreq = me == root ? 2 * P : 2;
  double *buf = malloc(sizeof(double) * (size_t)(me == root ? (2 * P + 3) * k : 5 * k));
  MPI_Request *req = malloc(sizeof *req * (size_t)nreq);
  if (!r || !buf || !req) {
    free(r), free(buf), free(req);
    return NULL;
  }
  for (int i = 0; i < nreq; ++i) req[i] = MPI_REQUEST_NULL;
  r->root = root, r->k = k, r->P = P, r->nreq = nreq, r->buf = buf, r->req = req;
  double *mine = me == root ? buf + 2 * k * me : buf;
  for (int i = 0; i < k; ++i) mine[i] = ex->t[i], mine[k + i] = ex->p[i];
  if (me == root) {
    for (int q = 0; q < P && *rc == MPI_SUCCESS; ++q)
      if (q != me)
        *rc = PMPI_Irecv(buf + 2 * k * q, 2 * k, MPI_DOUBLE, q, TAG_RECORD(c), st->priv, &req[q]);
  } else {
    *rc = PMPI_Isend(buf, 2 * k, MPI_DOUBLE, root, TAG_RECORD(c), st->priv, &req[0]);
    if (*rc == MPI_SUCCESS)
      *rc = PMPI_Irecv(buf + 2 * k, 3 * k, MPI_DOUBLE, root, TAG_RESULT(c), st->priv, &req[1]);
  }
  return r;
}

/* The root: which records to count - all but the latest one are waited
 * for, then that one if it has arrived; got[q] = 1 for those.  Why not
 * fewer: a rank waiting inside for a late one sends its record as late,
 * and leaving such records out hides the cost of the tree that made it
 * wait (SMPI flat P = 256, 8 B, one late rank with a subtree of 32 in
 * binomial: leaving out the latest 31 records chose a tree, 4.69 s summed
 * inside against 1.85 s with the allreduce way; all but one: 2.05 s). */
static int root_collect(struct arcoll_rooted *r, int me, unsigned char *got, int *idx) {
  const int P = r->P, quorum = P - 2 > 0 ? P - 2 : P - 1;
  int have = 0, rc = MPI_SUCCESS, outc = 0;
  got[me] = 1;
  while (have < quorum) {
    rc = PMPI_Waitsome(P, r->req, &outc, idx, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS || outc == MPI_UNDEFINED) return rc;
    for (int i = 0; i < outc; ++i) got[idx[i]] = 1, ++have;
  }
  rc = PMPI_Testsome(P, r->req, &outc, idx, MPI_STATUSES_IGNORE);
  for (int i = 0; rc == MPI_SUCCESS && outc != MPI_UNDEFINED && i < outc; ++i) got[idx[i]] = 1;
  return rc;
}

int arcoll_decision_rooted_complete(arcoll_comm_state_t *st, struct arcoll_rooted *r,
                                    arcoll_explorer_t *ex) {
  const int k = r->k, P = r->P, me = st->me, c = (int)ex->coll;
  double *res = me == r->root ? r->buf + 2 * k * P : r->buf + 2 * k;
  int rc = MPI_SUCCESS;
  if (me == r->root) {
    unsigned char *got = calloc((size_t)P, 1);
    int *idx = malloc(sizeof(int) * (size_t)P);
    if (!got || !idx) rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) rc = root_collect(r, me, got, idx);
    /* the layout of arcoll_explorer_period_extremes() reduced: max periods, minus the min ones */
    for (int i = 0; i < k; ++i) res[i] = 0.0, res[k + i] = -INFINITY, res[2 * k + i] = -INFINITY;
    for (int q = 0; rc == MPI_SUCCESS && q < P; ++q) {
      if (!got[q]) continue; /* late: left out; its receive completes later (drain) */
      for (int i = 0; i < k; ++i) {
        res[i] += r->buf[2 * k * q + i];
        res[k + i] = fmax(res[k + i], r->buf[2 * k * q + k + i]);
        res[2 * k + i] = fmax(res[2 * k + i], -r->buf[2 * k * q + k + i]);
      }
    }
    free(got), free(idx);
    /* on an error the others still get a result: every time +inf, the
     * decision then keeps the current best everywhere */
    if (rc != MPI_SUCCESS)
      for (int i = 0; i < 3 * k; ++i) res[i] = i < 2 * k ? INFINITY : -INFINITY;
    for (int q = 0; q < P; ++q)
      if (q != me) {
        const int src = PMPI_Isend(res, 3 * k, MPI_DOUBLE, q, TAG_RESULT(c), st->priv, &r->req[P + q]);
        if (rc == MPI_SUCCESS) rc = src;
      }
  } else {
    rc = PMPI_Wait(&r->req[1], MPI_STATUS_IGNORE);
  }
  if (me == r->root || rc == MPI_SUCCESS) { /* the root: what it sent */
    arcoll_explorer_decide_extremes(ex, res, res + k);
  } else {
    ex->pending = 0;
    ex->finished = 1;
  }
  r->next = st->rooted_open; /* its buffers live until its requests completed */
  st->rooted_open = r;
  arcoll_decision_rooted_drain(st, 0);
  return rc;
}
