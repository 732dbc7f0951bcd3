/* Lateness tracking and its exchange on point-to-point messages; see late_tracker.h. */
#include "late_tracker.h"

#include "late_first.h"
#include "late_trees.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "late_ring.h"

/* The coordinator's earlier summary sends must complete before sum_buf is reused. */
static void wait_sends(arcoll_late_tracker_t *t) {
  for (int i = 0; i < t->P; ++i)
    if (t->sum_sends[i] != MPI_REQUEST_NULL) PMPI_Wait(&t->sum_sends[i], MPI_STATUS_IGNORE);
}

int arcoll_late_init(arcoll_late_tracker_t *t, MPI_Comm comm, int tag, double alpha,
                     int min_interval, int up) {
  memset(t, 0, sizeof *t);
  t->comm = comm;
  PMPI_Comm_size(comm, &t->P);
  PMPI_Comm_rank(comm, &t->me);
  t->tag = tag;
  t->min_interval = arcoll_late_next_interval(0, 1, min_interval);
  t->interval = t->min_interval;
  t->next_x = (uint64_t)(t->min_interval < ARCOLL_LATE_FIRST_EXCHANGE ? t->min_interval
                                                                      : ARCOLL_LATE_FIRST_EXCHANGE);
  t->coord = t->P - 1;
  t->out_req = t->sum_req = MPI_REQUEST_NULL;
  t->sum_buf = malloc(ARCOLL_LATE_PACKED_MAX);
  t->sum_sends = malloc(sizeof(MPI_Request) * (size_t)t->P);
  t->late_any = malloc((size_t)t->P);
  t->late_now = calloc((size_t)t->P, 1);
  t->chain_order = malloc(sizeof(int) * (size_t)t->P);
  t->sum = malloc(sizeof *t->sum);
  t->rec = malloc(sizeof *t->rec * (size_t)t->P * ARCOLL_LATE_SAMPLES);
  t->prev_rec = malloc(sizeof *t->rec * (size_t)t->P * ARCOLL_LATE_SAMPLES);
  if (!t->prev_rec || !t->sum_buf || !t->sum_sends || !t->late_any || !t->sum || !t->rec ||
      !t->late_now || !t->chain_order ||
      arcoll_history_init(&t->hist, t->P, alpha) != 0) {
    arcoll_late_free(t);
    return MPI_ERR_NO_MEM;
  }
  for (int i = 0; i < t->P; ++i) t->sum_sends[i] = MPI_REQUEST_NULL;
  if (up) arcoll_history_set_up(&t->hist);
  t->up = up;
  return MPI_SUCCESS;
}

int arcoll_late_seed(arcoll_late_tracker_t *t, const arcoll_late_group_t *g, int tree) {
  if (!t->skip && !(t->skip = malloc((size_t)t->P))) return MPI_ERR_NO_MEM;
  if (arcoll_history_seed(&t->hist, g) != 0) return MPI_ERR_NO_MEM;
  t->seeded = 1;
  if (!t->seed_tree && (tree == ARCOLL_TREES_FIRST || tree == ARCOLL_TREES_SECOND)) t->seed_tree = tree;
  return MPI_SUCCESS;
}

void arcoll_late_free(arcoll_late_tracker_t *t) {
  if (t->debug && (t->me == 0 || t->me == t->P - 1 || t->me == t->P / 2))
    fprintf(stderr, "arcoll: rank %d: %llu calls, %llu lateness exchanges, %.6f s in them\n", t->me,
            (unsigned long long)t->ncalls, (unsigned long long)t->exchanges, t->exchange_s);
  if (t->out_req != MPI_REQUEST_NULL) PMPI_Wait(&t->out_req, MPI_STATUS_IGNORE);
  if (t->sum_req != MPI_REQUEST_NULL) { /* the coordinator may never send it now */
    PMPI_Cancel(&t->sum_req);
    PMPI_Wait(&t->sum_req, MPI_STATUS_IGNORE);
  }
  if (t->sum_sends) wait_sends(t);
  arcoll_late_ring_close(t);
  arcoll_history_free(&t->hist);
  free(t->sum_buf), free(t->sum_sends), free(t->late_any), free(t->sum), free(t->rec), free(t->prev_rec);
  free(t->skip), free(t->late_now), free(t->chain_order);
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

/* Step 1 (exit of call x - 1, whose root is the coordinator): send the last
 * S records to the coordinator. */
static int exchange_start(arcoll_late_tracker_t *t, int root) {
  int rc = MPI_SUCCESS;
  const uint64_t x = t->ncalls;
  t->coord = root;
  t->nrecv = 0;
  const uint64_t since = t->exchanges ? (uint64_t)t->interval : x;
  t->nsampled = (int)(since < ARCOLL_LATE_SAMPLES ? since : ARCOLL_LATE_SAMPLES);
  t->x = x;
  t->pending = 1;
  /* who waits for every record, and when the summary is made and applied:
   * the same on every rank (the calls' algorithm is) */
  double unused;
  t->gather = arcoll_late_gather_calls(t->up, &t->apply, &unused);
  const int chain = x > 0 && (t->ring[(x - 1) % ARCOLL_LATE_SAMPLES].flags & ARCOLL_LATE_CHAIN) != 0;
  t->wait_all = t->up || (t->exchanges == 0 && !chain);
  t->wait_trial = 0;
  if (!t->up && t->wait_all) /* the first exchange of a bcast / scatter: at once (lateness.h) */
    t->gather = t->apply = ARCOLL_LATE_FIRST_GATHER_CALLS;
  t->out.n = t->nsampled;
  t->out.first_call = x - (uint64_t)t->nsampled;
  for (int j = 0; j < t->nsampled; ++j)
    t->out.rec[j] = t->ring[(t->out.first_call + (uint64_t)j) % ARCOLL_LATE_SAMPLES];
  if (!t->wait_all && !t->trials.trees)
    t->wait_trial = arcoll_late_trial_wait(t->P, t->coord, t->late_any, t->out.rec, t->nsampled);
  if (t->me != t->coord) {
    if (t->out_req != MPI_REQUEST_NULL) PMPI_Wait(&t->out_req, MPI_STATUS_IGNORE);
    wait_sends(t); /* sum_buf: sends of a summary this rank coordinated */
    const int bytes = arcoll_late_msg_pack(&t->out, t->out_buf);
    rc = bytes < 0 ? MPI_ERR_INTERN
                   : PMPI_Isend(t->out_buf, bytes, MPI_BYTE, t->coord, t->tag, t->comm, &t->out_req);
    if (rc == MPI_SUCCESS)
      rc = PMPI_Irecv(t->sum_buf, ARCOLL_LATE_PACKED_MAX, MPI_BYTE, t->coord, t->tag + 1, t->comm,
                      &t->sum_req);
    return rc;
  }
  t->x_time = PMPI_Wtime();
  return arcoll_late_ring_open(t); /* records then move while this rank is in calls x .. x + G - 1 */
}

/* A record message that arrived at the coordinator: this exchange's goes
 * into t->rec; the previous exchange's (a rank that was missing then) into
 * t->prev_rec, to be charged now; older ones are dropped. */
static void use_msg(const arcoll_late_msg_t *m, int src, void *ctx) {
  arcoll_late_tracker_t *t = ctx;
  if (src < 0 || src >= t->P || src == t->me) return; /* its own message: a token */
  if (m->first_call == t->out.first_call && m->n == t->nsampled) {
    for (int j = 0; j < m->n; ++j) t->rec[(size_t)src * m->n + j] = m->rec[j];
    if (!(t->skipping && t->skip[src])) ++t->nrecv;
  } else if (t->prev_n > 0 && m->first_call == t->prev_first && m->n == t->prev_n) {
    for (int j = 0; j < m->n; ++j) t->prev_rec[(size_t)src * m->n + j] = m->rec[j];
    t->late_any[src] = 2; /* arrived late: charge it from its own records */
  }
}

/* Ranks whose previous-exchange records arrived only now (late_any[r] == 2):
 * their caused lateness from those records (the others' records of that
 * exchange are complete then) is merged into the current summary's group
 * of the same (site, root): the larger value, listed latest first. */
static void merge_late_arrivals(arcoll_late_tracker_t *t, double missing_s) {
  int any = 0;
  for (int r = 0; r < t->P; ++r) any |= t->late_any[r] == 2;
  arcoll_late_summary_t *old = any ? malloc(sizeof *old) : NULL;
  if (!old || arcoll_late_summarise(t->P, t->prev_first, t->prev_n, t->prev_rec, missing_s, old)) {
    free(old);
    return;
  }
  arcoll_late_summary_t *cur = t->sum;
  for (int g = 0; g < old->ngroups; ++g) {
    arcoll_late_group_t *G = NULL;
    for (int h = 0; h < cur->ngroups && !G; ++h)
      if (cur->group[h].site == old->group[g].site && cur->group[h].root == old->group[g].root)
        G = &cur->group[h];
    if (!G) continue; /* that call site is not in the current samples */
    if (old->group[g].noise > G->noise) G->noise = old->group[g].noise; /* the current may have no gaps */
    for (int i = 0; i < old->group[g].n; ++i)
      if (t->late_any[old->group[g].late[i].rank] == 2) arcoll_late_group_put(G, old->group[g].late[i]);
  }
  free(old);
}

/* Down: late ranks whose records are missing stay late (order.h,
 * arcoll_history_hold_missing); present = a record of this exchange, or of
 * the previous one merged now. */
static void hold_missing(arcoll_late_tracker_t *t) {
  unsigned char *present = t->nsampled > 0 ? malloc((size_t)t->P) : NULL;
  if (!present) return; /* the summary is still valid, only less sticky */
  for (int r = 0; r < t->P; ++r)
    present[r] = t->late_any[r] == 2 || r == t->me ||
                 t->rec[(size_t)r * (size_t)t->nsampled].flags != 0;
  for (int g = 0; g < t->sum->ngroups; ++g) arcoll_history_hold_missing(&t->hist, present, &t->sum->group[g]);
  /* the ranks not late so far that did not report (late_chain.h: no chain on such a summary) */
  arcoll_history_late_any(&t->hist, t->late_any);
  for (int r = 0; r < t->P; ++r) t->sum->unreported += !present[r] && !t->late_any[r];
  free(present);
}

/* Step 2 (coordinator, exit of call x + G - 1): summarise and send.  Down:
 * the records that have arrived (arcoll_late_drain); up: every rank's (sent
 * before this root could finish call x: waiting is short). */
static int exchange_summarise(arcoll_late_tracker_t *t) {
  const int P = t->P, S = t->nsampled;
  memset(t->rec, 0, sizeof *t->rec * (size_t)P * (size_t)S); /* flags 0: missing */
  for (int j = 0; j < S; ++j) t->rec[(size_t)t->me * S + j] = t->out.rec[j];
  memset(t->late_any, 0, (size_t)P);
  double missing_s;
  int apply;
  arcoll_late_gather_calls(t->up, &apply, &missing_s);
  /* up: every record (sent before this root could finish call x).  Down
   * (bcast, scatter): the records that have arrived - the root of a
   * streaming bcast runs arbitrarily far ahead (its segments queue at its
   * link), and waiting for the median rank stalled the stream: SMPI flat
   * P = 64, 32 KiB, 200 calls summed inside, balanced chain 0.93 -> 0.80 s
   * (1.3-2.6 ms per exchange, +0.043 s each time), a late rank moving
   * every 10 calls 1.68 -> 1.20 s (binary tolerant tree; one late 1.01 -> 1.00, eight
   * late 2.07 -> 2.06, seed 001 1.05 -> 1.04); a rank whose records came
   * too late is charged from them at the next exchange
   * (merge_late_arrivals).  The first exchange (nothing known yet) waits
   * for all, once: without it the exploration that follows runs with late
   * ranks unknown (one late 1.01 -> 2.78 s, seed 001 1.04 -> 6.13) - unless
   * the calls are a chain, which streams from its first call (an earlier
   * run's choice, ARCOLL_TUNING: the wait took 0.104 s summed inside, 0.54 s
   * in 200 calls against 0.43 without). */
  /* the first exchange of a seeded bcast / scatter does not wait for the
   * seeded late ranks' records (arcoll_late_seed): missing, they are held */
  int nskip = 0;
  t->skipping = !t->up && t->wait_all && t->seeded && t->exchanges == 0 && t->skip;
  if (t->skipping) {
    arcoll_history_late_any(&t->hist, t->skip);
    t->skip[t->me] = 0;
    for (int r = 0; r < P; ++r) nskip += t->skip[r];
  }
  const int need = t->wait_all ? P - 1 - nskip : t->wait_trial;
  /* the first exchange of a bcast / scatter: every record but a few, then
   * at most a patience for those; the missing ones charged (late_first.h) */
  const int spare = !t->up && t->wait_all ? arcoll_late_first_spare(P) : 0;
  int rc, trial_void = 0;
  if (t->wait_trial > 0) { /* a trial: at most a budget of the others' wait (late_trees.h) */
    int complete = 1;
    rc = arcoll_late_drain_trial(t, need, use_msg, &complete);
    trial_void = !complete;
    if (t->debug)
      fprintf(stderr, "arcoll: tolerant tree trial: %d of %d records after %.3g s%s\n", t->nrecv,
              need, PMPI_Wtime() - t->x_time, trial_void ? ", void" : "");
  } else {
    rc = arcoll_late_drain(t, need - spare, use_msg);
  }
  if (rc == MPI_SUCCESS && spare > 0 && t->nrecv < need) {
    const double floor_s = S > 0 ? arcoll_late_missing_charge(P, t->out.rec[S - 1].t_level, 0.0) : 0.0;
    const double patience = arcoll_late_first_patience(PMPI_Wtime() - t->x_time, floor_s);
    rc = arcoll_late_drain_until(t, need, t->x_time + patience, use_msg);
    if (t->nrecv < need) {
      missing_s = 0.0; /* charged: the time waited, below */
      if (t->debug)
        fprintf(stderr, "arcoll: first lateness exchange: %d record(s) missing after %.3g s, charged\n",
                need - t->nrecv, PMPI_Wtime() - t->x_time);
    }
  }
  t->skipping = 0;
  if (missing_s >= 0) missing_s = PMPI_Wtime() - t->x_time;
  if (rc == MPI_SUCCESS && arcoll_late_summarise(P, t->out.first_call, S, t->rec, missing_s, t->sum) != 0)
    rc = MPI_ERR_NO_MEM;
  if (rc == MPI_SUCCESS && !t->trials.trees) {
    double mean[2];
    const uint64_t first = t->out.first_call;
    const int d = trial_void ? ARCOLL_TREES_VOID : arcoll_late_trees_compare(P, S, t->rec, mean);
    t->sum->trees = d;
    if (t->debug && d && !trial_void)
      fprintf(stderr, "arcoll: tolerant tree trial (calls from %llu): first %.4g s, second %.4g s per call summed\n",
              (unsigned long long)first, mean[0], mean[1]);
  }
  if (rc == MPI_SUCCESS && t->prev_n > 0) merge_late_arrivals(t, missing_s);
  if (rc == MPI_SUCCESS && !t->up) hold_missing(t);
  /* keep this exchange's records for the ranks that are still missing */
  arcoll_late_record_t *x = t->prev_rec;
  t->prev_rec = t->rec, t->rec = x;
  t->prev_first = t->out.first_call, t->prev_n = S;
  wait_sends(t);
  const int bytes = rc == MPI_SUCCESS ? arcoll_late_pack(t->sum, t->sum_buf) : 0;
  for (int i = 0; i < P && rc == MPI_SUCCESS; ++i)
    if (i != t->me)
      rc = PMPI_Isend(t->sum_buf, bytes, MPI_BYTE, i, t->tag + 1, t->comm, &t->sum_sends[i]);
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
  const int nlate_now = arcoll_history_late_any(&t->hist, t->late_any);
  if (nlate_now > 0) t->late_seen = 1;
  t->nlate = nlate_now;
  /* a seed's tolerant tree holds only for the late set it was chosen with */
  if (t->exchanges == 1 && t->seed_tree && !changed && !t->trials.trees) t->trials.trees = t->seed_tree;
  arcoll_late_trees_fold(&t->trials, sum->trees, changed);
  /* the chain with late leaves' condition (late_chain.h) */
  const int seen = t->steady > 0 || sum->unreported <= t->P / 16;
  t->steady = nlate_now > 0 && !changed && seen ? t->steady + 1 : 0;
  memcpy(t->late_now, t->late_any, (size_t)t->P);
  /* a seed dropped by this run's first summary is no change of this run's
   * arrivals: the exchanges keep the schedule of a run without the seed
   * (SMPI two-level tree, P = 64, 32 KiB bcast, 0-200 us noise, seed 001's
   * late set: 16 calls to the next exchange instead of 32 moved a rooted
   * decision onto a summary that listed noise, 3.13 s summed inside
   * against 2.94 without the file) */
  if (t->exchanges == 1 && t->seeded && nlate_now == 0) changed = 0;
  t->interval = arcoll_late_next_interval(t->interval, changed, t->min_interval);
  /* the interval counts from the call due (x + A); applied later (apply_due), the next
   * exchange and its tolerant-tree window (late_trees.h) move as many calls */
  t->next_x = t->ncalls - (uint64_t)t->apply + (uint64_t)t->interval;
  const int max_x = arcoll_late_exchanges_max(t->up);
  if (max_x > 0 && t->exchanges >= (uint64_t)max_x) t->next_x = UINT64_MAX; /* no further exchange */
  if (t->debug && t->me == 0) {
    fprintf(stderr, "arcoll: lateness exchange %llu (calls %llu..%llu) applied after call %llu:",
            (unsigned long long)t->exchanges, (unsigned long long)sum->first_call,
            (unsigned long long)(sum->first_call + (uint64_t)sum->nsampled - 1),
            (unsigned long long)t->ncalls - 1);
    for (int g = 0; g < sum->ngroups; ++g) {
      const arcoll_late_group_t *G = &sum->group[g];
      fprintf(stderr, " [root %d t_level %.3g noise %.3g:", G->root, G->t_level, G->noise);
      for (int i = 0; i < G->n && i < 4; ++i) fprintf(stderr, " %d=%.3g", G->late[i].rank, G->late[i].lateness);
      fprintf(stderr, "%s]", G->n > 4 ? " ..." : "");
    }
    static const char *trees[] = {"", "first", "second", "void"};
    if (sum->trees) fprintf(stderr, " tolerant tree %s;", trees[sum->trees]);
    int nl = 0;
    for (int r = 0; r < t->P; ++r) nl += t->late_any[r];
    /* toward the root: how many late ranks would send to the root directly (order.h
     * arcoll_history_detached; taken with ARCOLL_LATE_DETACH=on) */
    const unsigned char *det = t->up ? arcoll_history_detached(&t->hist, arcoll_history_order(&t->hist, t->ncalls, t->coord)) : NULL;
    int nd = 0;
    for (int p = 0; det && p < t->P; ++p) nd += det[p];
    if (t->next_x == UINT64_MAX)
      fprintf(stderr, " -> %d late, %s, no further exchange (data toward the root), coordinator was %d; %d %s\n",
              nl, changed ? "changed" : "unchanged", t->coord, nd,
              t->detach ? "detached" : "detachable (ARCOLL_LATE_DETACH=off)");
    else
      fprintf(stderr, " -> %d late, %s, %d unreported, steady %d, next interval %d, coordinator was %d\n",
              nl, changed ? "changed" : "unchanged", sum->unreported, t->steady, t->interval, t->coord);
  }
  return rc;
}

/* Whether the pending exchange's summary applies at the exit of a call
 * with root `root` after which `done` calls are done: at x + A
 * (ARCOLL_LATE_APPLY_CALLS_*) where the coordinator is that call's root,
 * the exchange is up or it is summarised and applied at once (a down
 * tracker's first, ARCOLL_LATE_FIRST_GATHER_CALLS); else at the first call from
 * there whose root is the coordinator, at the latest
 * ARCOLL_LATE_APPLY_MOVED_CALLS(P) later, ARCOLL_LATE_APPLY_MOVED_LATE_CALLS
 * where the last summary left a rank late (lateness.h).  The same on every
 * rank: the roots are collective arguments. */
static int apply_due(const arcoll_late_tracker_t *t, uint64_t done, int root) {
  const uint64_t due = t->x + (uint64_t)t->apply;
  if (done < due) return 0;
  if (t->up || t->gather == t->apply) return done == due;
  const int bound = t->nlate > 0 && ARCOLL_LATE_APPLY_MOVED_LATE_CALLS < t->P
                        ? ARCOLL_LATE_APPLY_MOVED_LATE_CALLS
                        : ARCOLL_LATE_APPLY_MOVED_CALLS(t->P);
  return root == t->coord || done >= due + (uint64_t)bound;
}

int arcoll_late_exit(arcoll_late_tracker_t *t, int root, double entry, uint64_t site,
                     const int *order, double t_level, int shape, int valid) {
  const int P = t->P;
  int pos = (t->me - root + P) % P, rc = MPI_SUCCESS;
  if (order)
    for (int i = 0; i < P; ++i)
      if (order[i] == t->me) pos = i;
  arcoll_late_record_t *r = &t->ring[t->ncalls % ARCOLL_LATE_SAMPLES];
  r->entry = entry;
  r->gap = t->ncalls > 0 ? entry - t->last_exit : 0.0;
  r->exit = t->last_exit = PMPI_Wtime() - t->clock_offset;
  r->site = site;
  r->pos = pos;
  r->root = root;
  r->t_level = (float)t_level;
  /* an unmeasured call (OTHER without VALID) is skipped by the summary on
   * every rank's records alike; flags 0 would read as a missing record */
  r->flags = !valid ? ARCOLL_LATE_OTHER : ARCOLL_LATE_VALID | shape | (t->up ? ARCOLL_LATE_UP : 0);
  const uint64_t n = t->ncalls++; /* calls done: n + 1 */
  const double t_ex0 = PMPI_Wtime();
  if (t->pending && t->me == t->coord && n + 1 == t->x + (uint64_t)t->gather)
    rc = exchange_summarise(t);
  if (rc == MPI_SUCCESS && t->pending && apply_due(t, n + 1, root)) rc = exchange_apply(t);
  if (rc == MPI_SUCCESS && !t->pending && n + 1 == t->next_x) rc = exchange_start(t, root);
  t->exchange_s += PMPI_Wtime() - t_ex0;
  return rc;
}
