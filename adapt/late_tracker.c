/* Lateness tracking and its exchange on point-to-point messages; see late_tracker.h. */
#include "late_tracker.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"

struct arcoll_late_round {
  arcoll_late_msg_t *msg;     /* [P] */
  MPI_Request *req;    /* [P] */
  int outstanding;
  arcoll_late_round_t *next;
};

static void round_free(arcoll_late_round_t *r) {
  if (!r) return;
  free(r->msg), free(r->req), free(r);
}

/* The coordinator's earlier summary sends must complete before sum_buf is reused. */
static void wait_sends(arcoll_late_tracker_t *t) {
  for (int i = 0; i < t->P; ++i)
    if (t->sum_sends[i] != MPI_REQUEST_NULL) PMPI_Wait(&t->sum_sends[i], MPI_STATUS_IGNORE);
}

/* Complete what arrived of stale rounds (messages of late ranks); free the
 * rounds whose receives all completed.  cancel: cancel the rest (shutdown). */
static void drain_stale(arcoll_late_tracker_t *t, int cancel) {
  for (arcoll_late_round_t **pp = &t->stale; *pp;) {
    arcoll_late_round_t *r = *pp;
    for (int i = 0; i < t->P && r->outstanding > 0; ++i) {
      if (r->req[i] == MPI_REQUEST_NULL) continue;
      int done = 0;
      if (cancel) {
        PMPI_Cancel(&r->req[i]);
        PMPI_Wait(&r->req[i], MPI_STATUS_IGNORE);
        done = 1;
      } else {
        PMPI_Test(&r->req[i], &done, MPI_STATUS_IGNORE);
      }
      if (done) --r->outstanding;
    }
    if (r->outstanding == 0) {
      *pp = r->next;
      round_free(r);
    } else {
      pp = &r->next;
    }
  }
}

int arcoll_late_init(arcoll_late_tracker_t *t, MPI_Comm comm, int tag, double alpha,
                     int min_interval) {
  memset(t, 0, sizeof *t);
  t->comm = comm;
  PMPI_Comm_size(comm, &t->P);
  PMPI_Comm_rank(comm, &t->me);
  t->tag = tag;
  t->min_interval = arcoll_late_next_interval(0, 1, min_interval);
  t->interval = t->min_interval;
  t->next_x = (uint64_t)t->min_interval;
  t->coord = t->P - 1;
  t->out_req = t->sum_req = MPI_REQUEST_NULL;
  t->sum_buf = malloc(ARCOLL_LATE_PACKED_MAX);
  t->sum_sends = malloc(sizeof(MPI_Request) * (size_t)t->P);
  t->late_any = malloc((size_t)t->P);
  t->sum = malloc(sizeof *t->sum);
  if (!t->sum_buf || !t->sum_sends || !t->late_any || !t->sum ||
      arcoll_history_init(&t->hist, t->P, alpha) != 0) {
    arcoll_late_free(t);
    return MPI_ERR_NO_MEM;
  }
  for (int i = 0; i < t->P; ++i) t->sum_sends[i] = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}

void arcoll_late_free(arcoll_late_tracker_t *t) {
  if (t->out_req != MPI_REQUEST_NULL) PMPI_Wait(&t->out_req, MPI_STATUS_IGNORE);
  if (t->sum_req != MPI_REQUEST_NULL) { /* the coordinator may never send it now */
    PMPI_Cancel(&t->sum_req);
    PMPI_Wait(&t->sum_req, MPI_STATUS_IGNORE);
  }
  if (t->sum_sends) wait_sends(t);
  if (t->round) {
    t->round->next = t->stale;
    t->stale = t->round;
    t->round = NULL;
  }
  drain_stale(t, 1);
  arcoll_history_free(&t->hist);
  free(t->sum_buf), free(t->sum_sends), free(t->late_any), free(t->sum);
  memset(t, 0, sizeof *t);
}

int arcoll_late_enter(arcoll_late_tracker_t *t, int root, double *entry, const int **order) {
  const double now = PMPI_Wtime();
  if (!t->clock_ready) { /* once, collectively: every rank is in this first call */
    int rc = arcoll_clock_offset(t->comm, t->tag + 2, &t->clock_offset);
    if (rc != MPI_SUCCESS) return rc;
    t->clock_ready = 1;
  }
  *entry = now - t->clock_offset;
  *order = arcoll_history_order(&t->hist, t->ncalls, root);
  t->last_adaptive = *order != NULL;
  return MPI_SUCCESS;
}

/* Step 1 (exit of call x - 1): send the last S records to the coordinator. */
static int exchange_start(arcoll_late_tracker_t *t) {
  int rc = MPI_SUCCESS;
  const uint64_t x = t->ncalls;
  const uint64_t since = t->exchanges ? (uint64_t)t->interval : x;
  t->nsampled = (int)(since < ARCOLL_LATE_SAMPLES ? since : ARCOLL_LATE_SAMPLES);
  t->x = x;
  t->pending = 1;
  t->out.n = t->nsampled;
  t->out.first_call = x - (uint64_t)t->nsampled;
  for (int j = 0; j < t->nsampled; ++j)
    t->out.rec[j] = t->ring[(t->out.first_call + (uint64_t)j) % ARCOLL_LATE_SAMPLES];
  if (t->me != t->coord) {
    if (t->out_req != MPI_REQUEST_NULL) PMPI_Wait(&t->out_req, MPI_STATUS_IGNORE);
    wait_sends(t); /* sum_buf: sends of a summary this rank coordinated */
    rc = PMPI_Isend(&t->out, (int)sizeof t->out, MPI_BYTE, t->coord, t->tag, t->comm, &t->out_req);
    if (rc == MPI_SUCCESS)
      rc = PMPI_Irecv(t->sum_buf, ARCOLL_LATE_PACKED_MAX, MPI_BYTE, t->coord, t->tag + 1, t->comm,
                      &t->sum_req);
    return rc;
  }
  drain_stale(t, 0);
  arcoll_late_round_t *r = calloc(1, sizeof *r);
  if (r) r->msg = malloc(sizeof(arcoll_late_msg_t) * (size_t)t->P), r->req = malloc(sizeof(MPI_Request) * (size_t)t->P);
  if (!r || !r->msg || !r->req) {
    round_free(r);
    return MPI_ERR_NO_MEM;
  }
  for (int i = 0; i < t->P && rc == MPI_SUCCESS; ++i) {
    r->req[i] = MPI_REQUEST_NULL;
    if (i == t->me) continue;
    rc = PMPI_Irecv(&r->msg[i], (int)sizeof(arcoll_late_msg_t), MPI_BYTE, i, t->tag, t->comm, &r->req[i]);
    r->outstanding += rc == MPI_SUCCESS;
  }
  t->round = r;
  t->x_time = PMPI_Wtime();
  return rc;
}

/* Step 2 (coordinator, exit of call x + G - 1): summarise and send. */
static int exchange_summarise(arcoll_late_tracker_t *t) {
  const int P = t->P, S = t->nsampled;
  arcoll_late_round_t *r = t->round;
  arcoll_late_record_t *rec = calloc((size_t)P * (S > 0 ? S : 1), sizeof *rec);
  int rc = MPI_SUCCESS;
  if (!rec) return MPI_ERR_NO_MEM;
  for (int i = 0; i < P; ++i) {
    const arcoll_late_msg_t *m = &t->out;
    if (i != t->me) {
      int done = 0;
      if (r->req[i] != MPI_REQUEST_NULL) PMPI_Test(&r->req[i], &done, MPI_STATUS_IGNORE);
      if (!done) continue; /* late: arcoll_late_caused charges it missing_s */
      --r->outstanding;
      m = &r->msg[i];
      if (m->first_call != t->out.first_call || m->n != S) continue; /* not this exchange's */
    }
    for (int j = 0; j < S; ++j) rec[(size_t)i * S + j] = m->rec[j];
  }
  if (arcoll_late_summarise(P, t->out.first_call, S, rec, PMPI_Wtime() - t->x_time, t->sum) != 0)
    rc = MPI_ERR_NO_MEM;
  wait_sends(t);
  const int bytes = rc == MPI_SUCCESS ? arcoll_late_pack(t->sum, t->sum_buf) : 0;
  for (int i = 0; i < P && rc == MPI_SUCCESS; ++i)
    if (i != t->me)
      rc = PMPI_Isend(t->sum_buf, bytes, MPI_BYTE, i, t->tag + 1, t->comm, &t->sum_sends[i]);
  t->round = NULL;
  if (r->outstanding > 0) r->next = t->stale, t->stale = r; /* late ranks' messages */
  else round_free(r);
  free(rec);
  return rc;
}

/* Step 3 (everybody, exit of call x + A - 1): fold the summary. */
static int exchange_apply(arcoll_late_tracker_t *t) {
  arcoll_late_summary_t *sum = t->sum;
  int rc = MPI_SUCCESS, changed = 0;
  if (t->me != t->coord) {
    MPI_Status st;
    int bytes = 0;
    rc = PMPI_Wait(&t->sum_req, &st);
    if (rc == MPI_SUCCESS) PMPI_Get_count(&st, MPI_BYTE, &bytes);
    if (rc != MPI_SUCCESS || arcoll_late_unpack(t->sum_buf, bytes, sum) != 0)
      memset(sum, 0, sizeof *sum); /* cannot happen between ranks of one job */
  }
  t->pending = 0;
  ++t->exchanges;
  for (int j = 0; j < sum->nsampled; ++j)
    if (sum->seq_root[j] >= 0)
      arcoll_history_push(&t->hist, sum->first_call + (uint64_t)j, sum->seq_site[j], sum->seq_root[j]);
  for (int g = 0; g < sum->ngroups; ++g) {
    int ch = 0;
    if (arcoll_history_fold(&t->hist, &sum->group[g], &ch) != 0) rc = MPI_ERR_NO_MEM;
    changed |= ch;
  }
  arcoll_history_late_any(&t->hist, t->late_any);
  t->interval = arcoll_late_next_interval(t->interval, changed, t->min_interval);
  t->next_x = t->x + (uint64_t)t->interval;
  t->coord = arcoll_late_coordinator(t->P, sum, t->late_any);
  return rc;
}

int arcoll_late_exit(arcoll_late_tracker_t *t, int root, double entry, uint64_t site,
                     const int *order, double t_level, int chain, int valid) {
  const int P = t->P;
  int pos = (t->me - root + P) % P, rc = MPI_SUCCESS;
  if (order)
    for (int i = 0; i < P; ++i)
      if (order[i] == t->me) pos = i;
  arcoll_late_record_t *r = &t->ring[t->ncalls % ARCOLL_LATE_SAMPLES];
  r->entry = entry;
  r->site = site;
  r->pos = pos;
  r->root = root;
  r->t_level = (float)t_level;
  r->flags = valid ? ARCOLL_LATE_VALID | (chain ? ARCOLL_LATE_CHAIN : 0) : 0;
  const uint64_t n = t->ncalls++; /* calls done: n + 1 */
  if (t->pending && t->me == t->coord && n + 1 == t->x + ARCOLL_LATE_GATHER_CALLS)
    rc = exchange_summarise(t);
  if (rc == MPI_SUCCESS && t->pending && n + 1 == t->x + ARCOLL_LATE_APPLY_CALLS)
    rc = exchange_apply(t);
  if (rc == MPI_SUCCESS && !t->pending && n + 1 == t->next_x) rc = exchange_start(t);
  return rc;
}
