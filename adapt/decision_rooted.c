/*
 * Bcast's online decisions taken by the root from the records that arrived
 * (decision.h, arcoll_decision_start_rooted): no rank waits for a late
 * rank's record; a root whose records are not in at the deadline postpones
 * it (ARCOLL_ROOTED_POSTPONES, decision.h) instead of waiting.
 *
 * On the wire every number is a float (records: 2k, result: RESULT_LEN(k), a
 * postponement: 1): all P - 1 records come into the root's link and all
 * P - 1 results leave it within a call or two, in the middle of the
 * collective's own stream, and their bytes stall it (SMPI, 8 B, 200 calls
 * back to back, balanced, summed inside, doubles -> floats: scatter flat
 * P = 64 0.05908 -> 0.05889 s, two-level tree P = 64 0.1486 -> 0.1471, flat
 * P = 256 0.3683 -> 0.3649; bcast tree P = 64 0.1055 -> 0.1024; the late
 * scenarios within 0.4 %: bench/notes/adaptive-layer-2026-12-01-to-02.md "The rooted decision's
 * messages").  The root decides on the rounded result it sends, so every
 * rank decides on the same numbers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "decision.h"
#include "decision_held.h"
#include "late_pattern.h"
#include "late_tracker.h"
#include "poll_pause.h"

/* The result's length (numbers): the sums of the times inside, the max
 * periods, minus the min ones (k each), then minus the smallest time a
 * rank spent outside the collective (1: arcoll_explorer_period_extremes()'s
 * layout after the sums) */
#define RESULT_LEN(k) (3 * (k) + 1)

/* records of rank r: buf[2 k r .. 2 k r + 2k) (times inside, then periods) */
struct arcoll_rooted {
  int root, k, P, nreq;
  float *buf;       /* root: [P][2k] records, then the result; else [2k] mine, the result */
  double *res;      /* [RESULT_LEN(k)]: the result as decided (the root: also its reduction's scratch) */
  MPI_Request *req; /* root: [P] receives (its own: null), [P] result sends, then
                       [ARCOLL_ROOTED_POSTPONES + 1][P] postponement sends (the probe's
                       too); else send, receive */
  unsigned char *got; /* root: the records received so far ([P]) */
  int have, postponed; /* root: how many; postponements so far (both sides) */
  int probe;   /* root: > 0 while the first deadline is a probe: postponed by this many calls
                  if the quorum is not in (arcoll_decision_start_rooted) */
  int probed;  /* root: 1 once the probe postponed (not one of ARCOLL_ROOTED_POSTPONES) */
  double t_post; /* root: PMPI_Wtime() when it posted its record (the round's last call) */
  int mean_periods; /* a bcast whose root moved: periods reduced to their mean over ranks (root_reduce) */
  int sent, sent_rc; /* root: its result sent ahead of the call that applies it
                        (arcoll_decision_rooted_send), and that send's error */
  float lag_sent[ARCOLL_ROOTED_POSTPONES + 1]; /* root: the postponements' messages */
  struct arcoll_rooted *next; /* st->rooted_open: requests still open */
};

#define TAG_RECORD(c) ARCOLL_TAG_DECISION(c)
#define TAG_RESULT(c) (ARCOLL_TAG_DECISION(c) + 1)

static void rooted_free(struct arcoll_rooted *r) {
  free(r->buf), free(r->res), free(r->req), free(r->got), free(r);
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
                                                  const arcoll_explorer_t *ex, int root, int probe,
                                                  int *rc) {
  const int k = ex->n * ex->trials, P = st->P, me = st->me, c = (int)ex->coll;
  *rc = MPI_SUCCESS;
  struct arcoll_rooted *r = calloc(1, sizeof *r);
  const int nreq = me == root ? (3 + ARCOLL_ROOTED_POSTPONES) * P : 2;
  float *buf = malloc(sizeof(float) * (size_t)((me == root ? 2 * P : 2) * k + RESULT_LEN(k)));
  double *res = malloc(sizeof(double) * (size_t)RESULT_LEN(k));
  MPI_Request *req = malloc(sizeof *req * (size_t)nreq);
  unsigned char *got = me == root ? calloc((size_t)P, 1) : NULL;
  if (!r || !buf || !res || !req || (me == root && !got)) {
    free(r), free(buf), free(res), free(req), free(got);
    return NULL;
  }
  for (int i = 0; i < nreq; ++i) req[i] = MPI_REQUEST_NULL;
  r->root = root, r->k = k, r->P = P, r->nreq = nreq, r->buf = buf, r->res = res, r->req = req;
  r->got = got;
  r->probe = probe > 0 ? probe : 0;
  r->mean_periods = ex->coll == ARCOLL_COLL_BCAST && ex->root_moved;
  if (me == root) got[me] = 1, r->have = 1, r->t_post = PMPI_Wtime();
  float *mine = me == root ? buf + 2 * k * me : buf;
  for (int i = 0; i < k; ++i) mine[i] = (float)ex->t[i], mine[k + i] = (float)ex->p[i];
  if (me == root) {
    for (int q = 0; q < P && *rc == MPI_SUCCESS; ++q)
      if (q != me)
        *rc = PMPI_Irecv(buf + 2 * k * q, 2 * k, MPI_FLOAT, q, TAG_RECORD(c), st->priv, &req[q]);
  } else {
    *rc = PMPI_Isend(buf, 2 * k, MPI_FLOAT, root, TAG_RECORD(c), st->priv, &req[0]);
    if (*rc == MPI_SUCCESS)
      *rc = PMPI_Irecv(buf + 2 * k, RESULT_LEN(k), MPI_FLOAT, root, TAG_RESULT(c), st->priv, &req[1]);
  }
  return r;
}

/* The root: which records to count - all but the latest one (the quorum),
 * then that one if it has arrived too; r->got[q] = 1 for those.  Why not
 * fewer, uncharged: a rank waiting inside for a late one sends its record
 * as late, and leaving such records out hides the cost of the tree that
 * made it wait (SMPI flat P = 256, 8 B, one late rank with a subtree of 32
 * in binomial: leaving out the latest 31 records chose a tree, 4.69 s
 * summed inside against 1.85 s with the allreduce way; all but one: 2.05
 * s) - records missing after the patience are charged to those trees
 * (decision_held.h).  Takes only what has arrived; *ready = 1 when the
 * quorum is in, else 0. */
static int root_collect(struct arcoll_rooted *r, int *idx, int *ready) {
  const int P = r->P, quorum = P - 2 > 0 ? P - 2 : P - 1;
  int rc = MPI_SUCCESS, outc = 0;
  *ready = 0;
  if (r->have < quorum) {
    rc = PMPI_Testsome(P, r->req, &outc, idx, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS || outc == MPI_UNDEFINED) return rc;
    for (int i = 0; i < outc; ++i) r->got[idx[i]] = 1, ++r->have;
    if (r->have < quorum) return rc;
  }
  *ready = 1;
  rc = PMPI_Testsome(P, r->req, &outc, idx, MPI_STATUSES_IGNORE);
  for (int i = 0; rc == MPI_SUCCESS && outc != MPI_UNDEFINED && i < outc; ++i)
    r->got[idx[i]] = 1, ++r->have;
  return rc;
}

/* The root's wait for its quorum while records keep coming: it gives up
 * once none has come for `quiet` seconds (arrival noise spreads the records
 * out, a late rank's subtree sends them all a lateness later: SMPI two-level
 * tree, P = 64, 8 B bcast, 0-200 us noise: a fixed wait of 179 us had 52 of
 * 64 records missing).  *ready as root_collect's. */
static int root_collect_patient(struct arcoll_rooted *r, int *idx, double quiet, int *ready) {
  double last = PMPI_Wtime();
  for (;;) {
    const int had = r->have;
    const int rc = root_collect(r, idx, ready);
    const double now = PMPI_Wtime();
    if (r->have > had) last = now;
    if (rc != MPI_SUCCESS || *ready || now - last >= quiet) return rc;
    ARCOLL_POLL_PAUSE();
  }
}

/* The root's wait for the records still missing once its quorum is in,
 * until all are in or PMPI_Wtime() reaches `until`. */
static int root_collect_until(struct arcoll_rooted *r, int *idx, double until) {
  int rc = MPI_SUCCESS, ready = 0;
  while (rc == MPI_SUCCESS && r->have < r->P && PMPI_Wtime() < until) {
    ARCOLL_POLL_PAUSE();
    rc = root_collect(r, idx, &ready);
  }
  return rc;
}

/* The records in (r->got) reduced into res (RESULT_LEN(k) doubles): the
 * sums of the times inside, then the layout of
 * arcoll_explorer_period_extremes() reduced: max periods, minus the min
 * ones, minus the smallest time outside.  The records not in are left
 * out (late; their receives complete later, drain). */
static void root_reduce(const struct arcoll_rooted *r, double *res) {
  const int k = r->k;
  int in = 0;
  for (int i = 0; i < k; ++i)
    res[i] = 0.0, res[k + i] = r->mean_periods ? 0.0 : -INFINITY, res[2 * k + i] = -INFINITY;
  res[3 * k] = -INFINITY;
  for (int q = 0; q < r->P; ++q) {
    if (!r->got[q]) continue;
    ++in;
    for (int i = 0; i < k; ++i) {
      const double t = (double)r->buf[2 * k * q + i], p = (double)r->buf[2 * k * q + k + i];
      res[i] += t;
      res[k + i] = r->mean_periods ? res[k + i] + p : fmax(res[k + i], p);
      res[2 * k + i] = fmax(res[2 * k + i], -p);
      res[3 * k] = fmax(res[3 * k], -arcoll_explorer_outside(p, t));
    }
  }
  if (r->mean_periods)
    for (int i = 0; i < k; ++i) res[k + i] = in > 0 ? res[k + i] / in : INFINITY;
  /* a rank left out spent an unknown time outside: taken as 0, the band on
   * the whole period (arcoll_explorer_decide_periods).  Why: its lateness
   * sets the loop's period, not the max periods of the ranks in (SMPI flat
   * P = 64, 8 B bcast, rank 24 late by 1 ms, 1 ms of computation before
   * each call: without it linear's period 1.01 ms, 10 us above knomial's,
   * fell out of the band on 1.00 ms less 1 ms, and knomial, whose late rank
   * holds its subtree, took 12x the sum inside at the same loop time) */
  if (in < r->P) res[3 * k] = fmax(res[3 * k], 0.0);
}

/* After root_reduce(), when the quorum was not in (!ready): the missing
 * records charged to the trees that held them (decision_held.h). */
static void root_charge(const arcoll_comm_state_t *st, const struct arcoll_rooted *r,
                        const arcoll_explorer_t *ex, int ready, double *res) {
  if (ready) return;
  const double behind = PMPI_Wtime() - r->t_post;
  const int charged = arcoll_held_charge(ex->cand, ex->n, ex->trials, r->P, st->me, r->got,
                                         st->late[ex->coll] == NULL, behind, res);
  if (arcoll_g_cfg.debug)
    fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld: decided by root %d without %d of %d "
            "records, %d charged to the trees that held them (%.3g s behind)\n",
            ex->best.algo->collective, r->P, (long long)ex->bytes, st->me, r->P - r->have, r->P,
            charged, behind);
}

/* Whether postponing costs (about) nothing: the calls until the new
 * deadline run ex's held configuration, as the lag's did.  Only where the
 * last lateness summary of this collective found the arrivals at this root
 * quiet (late_pattern.h arcoll_late_quiet; no summary: no) - under arrival
 * noise held may be far off the best (SMPI flat P = 64, 32 KiB, 0-200 us
 * noise: held, the chain, at 0.0064 s per call summed against the binary
 * tree's 0.0041, postponed from call 28 to 76: 0.813 -> 0.923 s in all;
 * from 28 to 44: 0.854) - and then while fewer than half the records are
 * in (nothing known: a streaming root far ahead of every rank), or when
 * the decision over the records in would run held next anyway.  res:
 * scratch of RESULT_LEN(k) doubles. */
static int postpone_harmless(const arcoll_comm_state_t *st, const struct arcoll_rooted *r,
                             const arcoll_explorer_t *ex, double *res) {
  const arcoll_late_tracker_t *lt = st->late[ex->coll];
  if (!lt || lt->exchanges == 0 || !arcoll_late_quiet(lt->sum, r->root)) return 0;
  if (2 * r->have < r->P) return 1;
  arcoll_explorer_t trial = *ex; /* a plain struct: decided on a copy */
  root_reduce(r, res);
  arcoll_explorer_decide_extremes(&trial, res, res + r->k);
  const arcoll_choice_t *next = arcoll_explorer_next(&trial);
  if (!next) next = &trial.best;
  return arcoll_choice_same(next, ex->has_held ? &ex->held : &ex->best);
}

/* The root postpones: every other rank gets one double, the calls to the
 * next deadline (the result message is RESULT_LEN(k) floats: the receiver tells
 * them apart by the count). */
static int root_postpone(arcoll_comm_state_t *st, struct arcoll_rooted *r, int c, int lag) {
  const int P = r->P, j = r->postponed++;
  int rc = MPI_SUCCESS;
  r->lag_sent[j] = (float)lag;
  for (int q = 0; q < P; ++q)
    if (q != st->me) {
      const int src = PMPI_Isend(&r->lag_sent[j], 1, MPI_FLOAT, q, TAG_RESULT(c), st->priv,
                                 &r->req[(2 + j) * P + q]);
      if (rc == MPI_SUCCESS) rc = src;
    }
  return rc;
}

/* The root at its deadline: collect the records, then postpone (may_postpone,
 * *again = calls to the new deadline) or reduce them into r->res and send
 * that result to every rank. */
static int root_decide(arcoll_comm_state_t *st, struct arcoll_rooted *r, arcoll_explorer_t *ex,
                       int may_postpone, int *again) {
  const int k = r->k, P = r->P, me = st->me, c = (int)ex->coll;
  float *wire = r->buf + 2 * k * P; /* the result sent */
  double *res = r->res;
  int rc = MPI_SUCCESS;
  *again = 0;
  int *idx = malloc(sizeof(int) * (size_t)P), ready = 0;
  if (!idx) rc = MPI_ERR_NO_MEM;
  const int probe = r->probe;
  r->probe = 0;
  if (rc == MPI_SUCCESS && may_postpone && r->postponed - r->probed < ARCOLL_ROOTED_POSTPONES) {
    rc = root_collect(r, idx, &ready);
    if (rc == MPI_SUCCESS && !ready && (probe > 0 || postpone_harmless(st, r, ex, res))) {
      *again = probe > 0 ? probe : ARCOLL_ONLINE_STREAM_LAG << (r->postponed - r->probed);
      r->probed += probe > 0;
      rc = root_postpone(st, r, c, *again);
      if (arcoll_g_cfg.debug)
        fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld: decision postponed %d calls by "
                "root %d (records in: %d of %d, %s)\n", ex->best.algo->collective, P,
                (long long)ex->bytes, *again, me, r->have, P,
                probe > 0 ? "probe" : "arrivals quiet");
      if (rc == MPI_SUCCESS) {
        free(idx);
        return rc;
      }
      *again = 0; /* failed: the others get the error's result below */
    }
  }
  /* the patience (no record for that long), then the missing records
   * charged to the trees that held them (decision_held.h); none held: left out */
  if (rc == MPI_SUCCESS && !ready) {
    const double patience = fmax(ARCOLL_ROOTED_PATIENCE_MIN_S,
                                 ARCOLL_ROOTED_PATIENCE_CALLS * ex->best.predicted_s);
    rc = root_collect_patient(r, idx, patience, &ready);
  }
  /* how far behind the root a rank on time may be: twice the round's max
   * periods summed (the root, held by nobody, runs ahead by about them;
   * SMPI flat P = 64 and 256, 8 B, balanced: the last record came 1.3-1.4x
   * that sum after the root's own) */
  double natural = 0.0;
  if (rc == MPI_SUCCESS) {
    root_reduce(r, res);
    for (int x = 0; x < k; ++x)
      if (isfinite(res[k + x])) natural += ARCOLL_ROOTED_ONTIME_PERIODS * res[k + x];
    root_charge(st, r, ex, ready, res);
  }
  /* small messages: a record still missing is a late rank, which costs
   * the trees that hold ranks wherever it is next (decision_held.h,
   * exposure) - waited for while its lateness could change the choice.
   * Not where a lateness tracker orders late ranks onto leaves (st->late) */
  if (rc == MPI_SUCCESS && r->have < P && ex->bytes < ARCOLL_ONLINE_SKEW_MAX_BYTES &&
      !st->late[ex->coll]) {
    const double t = arcoll_held_exposure_threshold(ex->cand, ex->n, ex->trials, P, res);
    const int had = r->have;
    if (ARCOLL_ROOTED_EXPOSURE_MARGIN * t <= ARCOLL_ROOTED_EXPOSURE_WAIT_MAX_S)
      rc = root_collect_until(r, idx, fmin(r->t_post + natural + ARCOLL_ROOTED_EXPOSURE_MARGIN * t,
                                           PMPI_Wtime() + ARCOLL_ROOTED_EXPOSURE_WAIT_MAX_S));
    if (rc == MPI_SUCCESS && r->have > had) root_reduce(r, res), root_charge(st, r, ex, ready, res);
    const double late = PMPI_Wtime() - r->t_post - natural;
    if (rc == MPI_SUCCESS && r->have < P && late > 0.0) {
      arcoll_held_exposure(ex->cand, ex->n, ex->trials, P, late, res);
      if (arcoll_g_cfg.debug)
        fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld: %d of %d records missing %.3g s "
                "beyond the round's periods: a late rank's exposure charged (threshold %.3g s)\n",
                ex->best.algo->collective, P, (long long)ex->bytes, P - r->have, P, late, t);
    }
  }
  free(idx);
  /* on an error the others still get a result: every time +inf, the
   * decision then keeps the current best everywhere */
  if (rc != MPI_SUCCESS)
    for (int i = 0; i < RESULT_LEN(k); ++i) res[i] = i < 2 * k ? INFINITY : -INFINITY;
  for (int i = 0; i < RESULT_LEN(k); ++i) res[i] = wire[i] = (float)res[i]; /* decided as sent */
  for (int q = 0; q < P; ++q)
    if (q != me) {
      const int src = PMPI_Isend(wire, RESULT_LEN(k), MPI_FLOAT, q, TAG_RESULT(c), st->priv, &r->req[P + q]);
      if (rc == MPI_SUCCESS) rc = src;
    }
  return rc;
}

int arcoll_decision_rooted_send(arcoll_comm_state_t *st, struct arcoll_rooted *r,
                                arcoll_explorer_t *ex) {
  int again = 0;
  if (st->me != r->root || r->sent) return MPI_SUCCESS;
  r->sent_rc = root_decide(st, r, ex, 0, &again);
  r->sent = 1;
  return r->sent_rc;
}

int arcoll_decision_rooted_decider(const struct arcoll_rooted *r) { return r->root; }

int arcoll_decision_rooted_complete(arcoll_comm_state_t *st, struct arcoll_rooted *r,
                                    arcoll_explorer_t *ex, int may_postpone, int *again) {
  const int k = r->k, me = st->me, c = (int)ex->coll;
  float *wire = r->buf + 2 * k; /* a non-root's: the result received */
  double *res = r->res;
  int rc = MPI_SUCCESS;
  *again = 0;
  if (me == r->root) {
    if (r->sent) {
      rc = r->sent_rc;
    } else {
      rc = root_decide(st, r, ex, may_postpone, again);
      if (*again > 0) return rc;
    }
  } else {
    MPI_Status status;
    int n = 0;
    rc = PMPI_Wait(&r->req[1], &status);
    if (rc == MPI_SUCCESS) rc = PMPI_Get_count(&status, MPI_FLOAT, &n);
    if (rc == MPI_SUCCESS && n == 1) { /* postponed: the next message at the new deadline */
      const int lag = wire[0] >= 1.0f ? (int)wire[0] : 1; /* read before the buffer is reposted */
      ++r->postponed;
      rc = PMPI_Irecv(wire, RESULT_LEN(k), MPI_FLOAT, r->root, TAG_RESULT(c), st->priv, &r->req[1]);
      if (rc == MPI_SUCCESS) {
        *again = lag;
        return rc;
      }
    }
    for (int i = 0; rc == MPI_SUCCESS && i < RESULT_LEN(k); ++i) res[i] = wire[i];
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
