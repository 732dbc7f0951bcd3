/*
 * The progress engine of nonblocking / persistent collectives (nbc.h): the
 * list of running schedules, advancing a schedule round by round without
 * blocking, and the generalized request of a nonblocking call.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "alltoallv_prep.h"
#include "nbc.h"
#include "reduce_util.h"

int arcoll_nbc_active = 0;
int arcoll_nbc_internal = 0;
int arcoll_nbc_lazy = 0;
static nbc_sched_t *g_running = NULL;
/* the library's own schedules (nbc_start_internal): progressed with the
 * others, but invisible to the MPI_Wait* / MPI_Test* wrappers, which then
 * block on the user's requests with the MPI library's own calls when no
 * user schedule runs (seen with them visible: SMPI 3.32, 8 B linear
 * scatter, P = 4, smpi/test:0, deadlock - the root in the wrapper's
 * MPI_Waitany over its isends and the internal requests, every other rank
 * in the next call's receive) */
static nbc_sched_t *g_internal = NULL;
#ifdef ARCOLL_SMPI
/* SMPI 3.32's generalized requests are unusable here: MPI_Testany / Waitany
 * / Testall treat them as inactive, MPI_Request_get_status crashes on them,
 * MPI_Test never runs free_fn.  The SMPI build hands out a zero-byte receive
 * from self instead (as the persistent handles), completed by a zero-byte
 * send at the end of the schedule; an error inside a running schedule then
 * goes to stderr instead of the request's status. */
#define NBC_SELF_HANDLE 1
static unsigned g_self_seq = 0;
#else
#define NBC_SELF_HANDLE 0
#endif
static nbc_sched_t *g_live = NULL; /* nonblocking schedules whose request is not freed */
static int g_in_progress = 0; /* a user op calling MPI from inside a reduction */

int arcoll_nbc_enabled(void) {
  if (__builtin_expect(!arcoll_g_configured, 0)) arcoll_configure();
  return arcoll_g_cfg.nonblocking;
}

/* ---- generalized request callbacks (MPI-4 section 13.2) ---- */
#if !NBC_SELF_HANDLE

static int query_fn(void *extra, MPI_Status *status) {
  nbc_sched_t *s = extra;
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return s->err;
}

static int free_fn(void *extra) {
  nbc_sched_t *s = extra;
  for (nbc_sched_t **p = &g_live; *p; p = &(*p)->lnext)
    if (*p == s) {
      *p = s->lnext;
      break;
    }
  if (s->active) s->free_when_done = 1; /* freed by finish() */
  else nbc_free(s);
  return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete) {
  (void)extra, (void)complete; /* collectives cannot be cancelled */
  return MPI_SUCCESS;
}
#endif

/* ---- running ---- */

static void unlink_running(nbc_sched_t *s) {
  for (nbc_sched_t **p = s->internal ? &g_internal : &g_running; *p; p = &(*p)->next)
    if (*p == s) {
      *p = s->next;
      break;
    }
  s->next = NULL;
  if (s->internal) --arcoll_nbc_internal;
  else --arcoll_nbc_active;
}

/* The schedule finished (or failed): complete the user's request.  s may be
 * freed on return. */
static void finish(nbc_sched_t *s) {
  unlink_running(s);
  s->active = 0;
  if (s->internal) return; /* its owner frees it (nbc_start_internal) */
  const int fwd = s->free_when_done;
  if (s->lazy) { /* no self receive posted: done, MPI_Wait / MPI_Test report it (nbc.h) */
    if (fwd) { /* freed by the user while running: nobody will */
      s->lazy = 0;
      --arcoll_nbc_lazy;
      nbc_free(s);
    }
    return;
  }
  if (s->persistent || NBC_SELF_HANDLE) {
    /* completes the handle's zero-byte receive from self (nbc_persist.c) */
    PMPI_Send(NULL, 0, MPI_BYTE, s->me, s->self_tag, s->comm);
    if (!s->persistent && s->err)
      fprintf(stderr, "arcoll: error %d in a nonblocking collective (not reported in its "
              "status under SMPI)\n", s->err);
    if (fwd || !s->persistent) nbc_free(s);
    return;
  }
  PMPI_Grequest_complete(s->user); /* may run free_fn, which frees s */
  if (fwd) nbc_free(s);
}

static int run_local(const nbc_op_t *o, MPI_Comm comm) {
  int rc = MPI_SUCCESS, pos = 0, tsize = 0;
  arcoll_red_typeinfo_t ti;
  switch (o->kind) {
  case NBC_REDUCE:
    return PMPI_Reduce_local(o->src, o->buf, (int)o->count, o->dt, o->op);
  case NBC_COPY:
    if ((rc = arcoll_red_typeinfo(o->dt, &ti)) != MPI_SUCCESS) return rc;
    return arcoll_red_copy(o->src, o->buf, o->count, o->dt, &ti);
  case NBC_PACK:
    PMPI_Type_size(o->dt, &tsize);
    return PMPI_Pack(o->src, (int)o->count, o->dt, o->buf, (int)(o->count * tsize), &pos, comm);
  case NBC_UNPACK:
    PMPI_Type_size(o->dt, &tsize);
    return PMPI_Unpack(o->src, (int)(o->count * tsize), &pos, o->buf, (int)o->count, o->dt,
                       comm);
  default:
    return MPI_SUCCESS;
  }
}

/* Cancel and complete the posted requests of the current round (after an error). */
static void drain(nbc_sched_t *s) {
  for (int i = 0; i < s->nreq; ++i)
    if (s->reqs[i] != MPI_REQUEST_NULL) {
      PMPI_Cancel(&s->reqs[i]);
      PMPI_Wait(&s->reqs[i], MPI_STATUS_IGNORE);
    }
  s->nreq = 0;
}

/* Post the send or receive o of s.  Above INT_MAX elements (alltoallv's _c
 * form) the block moves as one element of a struct type with the same type
 * signature (alltoallv_prep.h), freed at once (MPI keeps it for the pending
 * operation). */
static int post(const nbc_op_t *o, const nbc_sched_t *s, MPI_Request *req) {
  MPI_Datatype t = o->dt;
  int n = (int)o->count, rc = MPI_SUCCESS;
  if (o->count > INT_MAX && (rc = arcoll_a2av_msgtype(o->count, o->dt, &n, &t)) != MPI_SUCCESS)
    return rc;
  if (o->kind == NBC_SEND) rc = PMPI_Isend(o->src, n, t, o->peer, s->tag, s->comm, req);
  else rc = PMPI_Irecv(o->buf, n, t, o->peer, s->tag, s->comm, req);
  arcoll_a2av_msgtype_free(o->dt, &t);
  return rc;
}

/* Advance s as far as it goes; returns 1 if it finished (s may be freed). */
static int advance(nbc_sched_t *s) {
  int rc = MPI_SUCCESS;
  while (s->round < s->nrounds && !s->err) {
    const int first = s->round ? s->round_end[s->round - 1] : 0, end = s->round_end[s->round];
    if (!s->posted) {
      s->nreq = 0;
      for (int i = first; i < end && rc == MPI_SUCCESS; ++i)
        if (s->ops[i].kind == NBC_SEND || s->ops[i].kind == NBC_RECV)
          rc = post(&s->ops[i], s, &s->reqs[s->nreq++]);
      s->posted = 1;
      if (rc != MPI_SUCCESS) {
        --s->nreq; /* the failed one holds no request */
        s->err = rc;
        drain(s);
        break;
      }
    }
    if (s->nreq) {
      int flag = 0;
      rc = PMPI_Testall(s->nreq, s->reqs, &flag, MPI_STATUSES_IGNORE);
      if (rc != MPI_SUCCESS) {
        s->err = rc;
        drain(s);
        break;
      }
      if (!flag) return 0;
    }
    for (int i = first; i < end && rc == MPI_SUCCESS; ++i)
      if (s->ops[i].kind != NBC_SEND && s->ops[i].kind != NBC_RECV)
        rc = run_local(&s->ops[i], s->comm);
    if (rc != MPI_SUCCESS) s->err = rc;
    s->nreq = 0;
    s->posted = 0;
    ++s->round;
  }
  finish(s);
  return 1;
}

void arcoll_nbc_progress(void) {
  if (g_in_progress) return;
  g_in_progress = 1;
  for (nbc_sched_t *s = g_running, *next; s; s = next) {
    next = s->next; /* advance may unlink and free s */
    advance(s);
  }
  for (nbc_sched_t *s = g_internal, *next; s; s = next) {
    next = s->next;
    advance(s);
  }
  g_in_progress = 0;
}

static void launch(nbc_sched_t *s) {
  s->round = 0, s->posted = 0, s->nreq = 0, s->err = 0, s->active = 1;
  if (s->internal) {
    s->next = g_internal;
    g_internal = s;
    ++arcoll_nbc_internal;
  } else {
    s->next = g_running;
    g_running = s;
    ++arcoll_nbc_active;
  }
  if (!g_in_progress) {
    g_in_progress = 1;
    advance(s); /* posts the first round */
    g_in_progress = 0;
  }
}

int nbc_start_nonblocking(nbc_sched_t *s, MPI_Request *req) {
  nbc_round(s);
  int rc = s->err;
#if NBC_SELF_HANDLE
  s->self_tag = ARCOLL_NBC_SELF_TAG_BASE + (int)(g_self_seq++ % ARCOLL_NBC_TAGS);
  if (rc == MPI_SUCCESS)
    rc = PMPI_Irecv(NULL, 0, MPI_BYTE, s->me, s->self_tag, s->comm, &s->user);
#else
  if (rc == MPI_SUCCESS)
    rc = PMPI_Grequest_start(query_fn, free_fn, cancel_fn, s, &s->user);
#endif
  if (rc != MPI_SUCCESS) {
    nbc_free(s);
    return rc;
  }
  *req = s->user;
  if (!NBC_SELF_HANDLE) {
    s->lnext = g_live;
    g_live = s;
  }
  launch(s);
  return MPI_SUCCESS;
}

/* Block until the posted requests of s's current round complete (errors go
 * to s).  One PMPI_Wait per request: SMPI 3.32's Waitall is a Waitany per
 * request, O(n^2) for a round of n messages. */
static void wait_round(nbc_sched_t *s) {
  int rc = MPI_SUCCESS;
  for (int i = 0; i < s->nreq && rc == MPI_SUCCESS; ++i)
    if (s->reqs[i] != MPI_REQUEST_NULL) rc = PMPI_Wait(&s->reqs[i], MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) {
    if (!s->err) s->err = rc;
    drain(s);
  }
}

int nbc_start_internal(nbc_sched_t *s) {
  nbc_round(s);
  const int rc = s->err;
  if (rc != MPI_SUCCESS) {
    nbc_free(s);
    return rc;
  }
  s->internal = 1;
  launch(s);
  return MPI_SUCCESS;
}

int nbc_wait_internal(nbc_sched_t *s) {
  for (;;) {
    arcoll_nbc_progress();
    if (!s->active) return s->err;
    /* block on s's current round.  Deadlock-free: every rank waits for its
     * internal schedules in the same order (the order of the calls that
     * started them, decision.c), and a partner's messages of this round
     * were posted when it progressed s to it */
    wait_round(s);
  }
}

int nbc_is_grequest(MPI_Request r) {
  for (nbc_sched_t *s = g_live; s; s = s->lnext)
    if (s->user == r) return 1;
  return 0;
}

int nbc_start_persistent(nbc_sched_t *s) {
  launch(s);
  return MPI_SUCCESS;
}

int nbc_wait_sole_round(void) {
  nbc_sched_t *s = g_running;
  if (!s || s->next || !s->posted || !s->nreq) return 0;
  wait_round(s);
  return 1;
}

nbc_sched_t *nbc_find_active(MPI_Request r) {
  if (r == MPI_REQUEST_NULL) return NULL;
  for (nbc_sched_t *s = g_running; s; s = s->next)
    if (s->user == r) return s;
  return NULL;
}

int nbc_internal_count(void) {
  int n = 0;
  for (nbc_sched_t *s = g_running; s; s = s->next) n += s->nreq;
  return n;
}

int nbc_internal_requests(MPI_Request *out, nbc_sched_t **who, int *slot, int cap) {
  int n = 0;
  for (nbc_sched_t *s = g_running; s; s = s->next)
    for (int i = 0; i < s->nreq && n < cap; ++i)
      if (s->reqs[i] != MPI_REQUEST_NULL) {
        out[n] = s->reqs[i];
        who[n] = s;
        slot[n++] = i;
      }
  return n;
}
