/* The coordinator's posted receives of lateness records; see late_ring.h. */
#include "late_ring.h"
#include "late_trees.h"
#include "poll_pause.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The coordinator's receives of records: P receives (MPI_ANY_SOURCE, the
 * records' tag) kept posted in a ring, so records that other ranks send
 * while the coordinator is inside calls are transferred then, side by side,
 * and not one after the other when it asks for them (SMPI charges a posted-
 * late receive its full message latency: 255 blocking MPI_Recv took 1.25 ms
 * of the root's time per exchange at P = 256, flat 10 Gb/s, 32 KiB bcast;
 * MPICH matches the unexpected queue, but still one by one).  Allocated
 * and posted the first time this rank coordinates; slots are matched in
 * posting order, so rhead is the oldest.  Known cost, not measured: a
 * library that keeps wildcard receives in a list (MPICH over UCX) scans
 * these P for every message the rank receives on arcoll's communicator.
 * Not closed between exchanges: cancelling a receive whose record is in
 * flight aborts SMPI 3.32 (NetworkFailureException, seen with one late rank
 * at P = 256); arcoll_late_free completes them with tokens (arcoll_late_ring_close). */
static int ring_post(arcoll_late_tracker_t *t, int i) {
  return PMPI_Irecv(t->rbox[i], (int)sizeof *t->rbox, MPI_BYTE, MPI_ANY_SOURCE, t->tag, t->comm,
                    &t->rreq[i]);
}

int arcoll_late_ring_open(arcoll_late_tracker_t *t) {
  if (t->rreq) return MPI_SUCCESS;
  t->rreq = malloc(sizeof *t->rreq * (size_t)t->P);
  t->rbox = malloc(sizeof *t->rbox * (size_t)t->P);
  if (!t->rreq || !t->rbox) {
    free(t->rreq), free(t->rbox), t->rreq = NULL, t->rbox = NULL;
    return MPI_ERR_NO_MEM;
  }
  t->rhead = 0;
  int rc = MPI_SUCCESS;
  for (int i = 0; i < t->P; ++i) t->rreq[i] = MPI_REQUEST_NULL;
  for (int i = 0; i < t->P && rc == MPI_SUCCESS; ++i) rc = ring_post(t, i);
  return rc;
}

/* Complete the posted receives without MPI_Cancel: P self-sent empty
 * tokens match those no record matched (the earliest posted first), a
 * record already matched finishes its transfer; then the tokens that found
 * no receive (one per slot a record took) are received. */
void arcoll_late_ring_close(arcoll_late_tracker_t *t) {
  if (!t->rreq) return;
  MPI_Request *tok = malloc(sizeof *tok * (size_t)t->P);
  int n = 0, records = 0;
  for (int i = 0; i < t->P; ++i) n += t->rreq[i] != MPI_REQUEST_NULL;
  for (int k = 0; tok && k < n; ++k)
    if (PMPI_Isend(NULL, 0, MPI_BYTE, t->me, t->tag, t->comm, &tok[k]) != MPI_SUCCESS)
      tok[k] = MPI_REQUEST_NULL;
  for (int i = 0; tok && i < t->P; ++i) {
    if (t->rreq[i] == MPI_REQUEST_NULL) continue;
    MPI_Status st;
    if (PMPI_Wait(&t->rreq[i], &st) == MPI_SUCCESS && st.MPI_SOURCE != t->me) ++records;
  }
  for (int k = 0; k < records; ++k)
    PMPI_Recv(NULL, 0, MPI_BYTE, t->me, t->tag, t->comm, MPI_STATUS_IGNORE);
  for (int k = 0; tok && k < n; ++k)
    if (tok[k] != MPI_REQUEST_NULL) PMPI_Wait(&tok[k], MPI_STATUS_IGNORE);
  for (int i = 0; !tok && i < t->P; ++i) /* no memory for tokens: cancel, as a last resort */
    if (t->rreq[i] != MPI_REQUEST_NULL) {
      PMPI_Cancel(&t->rreq[i]);
      PMPI_Wait(&t->rreq[i], MPI_STATUS_IGNORE);
    }
  free(tok);
  free(t->rreq), free(t->rbox), t->rreq = NULL, t->rbox = NULL;
}

/* The head slot completed with status st: hand its record to use (a token,
 * from this rank, sets *token; token may be NULL where none was sent), post
 * it again, advance the head. */
static int take_head(arcoll_late_tracker_t *t, const MPI_Status *st, int *token,
                     void (*use)(const arcoll_late_msg_t *, int, void *)) {
  const int i = t->rhead;
  if (st->MPI_SOURCE == t->me) {
    if (token) *token = 1;
  } else {
    arcoll_late_msg_t m;
    int bytes = 0;
    PMPI_Get_count(st, MPI_BYTE, &bytes);
    if (arcoll_late_msg_unpack(t->rbox[i], bytes, &m) == 0) use(&m, st->MPI_SOURCE, t);
  }
  t->rhead = (i + 1) % t->P;
  return ring_post(t, i);
}

/* The records that have arrived, without MPI_Test / MPI_Testsome /
 * MPI_Waitsome (SimGrid charges every request they test 0.1 ms of simulated
 * time, more when repeated: measured, P = 64, 32 KiB back-to-back bcast, 47
 * ms of the root's 54 ms loop went into four exchanges; 0 with
 * --cfg=smpi/test:0): the coordinator sends itself a token on the records'
 * tag and completes the ring's receives in posting order until the token's:
 * the messages matched before it are the ones that arrived first; later ones
 * stay for the next exchange; then until `need` ranks' records of the
 * pending exchange are in (t->nrecv >= need).  Every completed slot is
 * posted again at the ring's end. */
int arcoll_late_drain(arcoll_late_tracker_t *t, int need,
                      void (*use)(const arcoll_late_msg_t *, int, void *)) {
  MPI_Request self = MPI_REQUEST_NULL;
  int rc = arcoll_late_ring_open(t);
  if (rc == MPI_SUCCESS)
    rc = PMPI_Isend(NULL, 0, MPI_BYTE, t->me, t->tag, t->comm, &self);
  int token = 0;
  while (rc == MPI_SUCCESS && (!token || t->nrecv < need)) {
    MPI_Status st;
    rc = PMPI_Wait(&t->rreq[t->rhead], &st);
    if (rc == MPI_SUCCESS) rc = take_head(t, &st, &token, use);
  }
  if (self != MPI_REQUEST_NULL) PMPI_Wait(&self, MPI_STATUS_IGNORE);
  return rc;
}

int arcoll_late_drain_until(arcoll_late_tracker_t *t, int need, double deadline,
                            void (*use)(const arcoll_late_msg_t *, int, void *)) {
  int rc = arcoll_late_ring_open(t);
  while (rc == MPI_SUCCESS && t->nrecv < need) {
    MPI_Status st;
    int done = 0;
    rc = PMPI_Test(&t->rreq[t->rhead], &done, &st);
    if (rc != MPI_SUCCESS) break;
    if (done) rc = take_head(t, &st, NULL, use); /* no token posted here */
    else if (PMPI_Wtime() >= deadline) break;
    else ARCOLL_POLL_PAUSE();
  }
  return rc;
}

int arcoll_late_drain_trial(arcoll_late_tracker_t *t, int need,
                            void (*use)(const arcoll_late_msg_t *, int, void *), int *complete) {
  const int P = t->P, S = t->nsampled;
  /* ready[0..n): the arrived ranks' projections, each taken once; scratch: them and the
   * coordinator's now, sorted by arcoll_late_trial_deadline */
  double *ready = S > 0 ? malloc(sizeof *ready * (size_t)(2 * P + 1)) : NULL;
  unsigned char *taken = ready ? calloc((size_t)P, 1) : NULL;
  double *scratch = ready + P, inside = 0.0;
  int rc = arcoll_late_drain(t, taken ? 0 : need, use); /* no memory: every record, as before */
  int n = 0, nin = 0;
  while (taken && rc == MPI_SUCCESS && t->nrecv < need) {
    for (int r = 0; r < P; ++r) {
      const arcoll_late_record_t *x = &t->rec[(size_t)r * (size_t)S];
      /* missing, or taken; the coordinator's own left out: a streaming root's calls
       * cost it nothing, not the others' */
      if (taken[r] || !x[S - 1].flags || r == t->me) continue;
      taken[r] = 1;
      ready[n++] = arcoll_late_ready_at(x, S, t->gather);
      for (int j = 0; j < S; ++j) inside += x[j].exit - x[j].entry, ++nin;
    }
    if (nin == 0) { /* nothing to weigh the wait with yet: the first record */
      rc = arcoll_late_drain_until(t, t->nrecv + 1, INFINITY, use);
      continue;
    }
    memcpy(scratch, ready, sizeof *ready * (size_t)n);
    scratch[n] = PMPI_Wtime() - t->clock_offset; /* the coordinator waits from now */
    const double budget = ARCOLL_TREES_WAIT_CALLS * P * inside / nin;
    const double deadline = arcoll_late_trial_deadline(scratch, n + 1, budget) + t->clock_offset;
    const int before = t->nrecv;
    rc = arcoll_late_drain_until(t, before + 1, deadline, use);
    if (t->nrecv == before) break; /* the deadline passed */
  }
  *complete = t->nrecv >= need;
  free(ready), free(taken);
  return rc;
}
