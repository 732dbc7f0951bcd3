/*
 * libarcoll: persistent collective handles (MPI-4 section 6.13; nbc.h).
 * The handle the user holds is a zero-byte PMPI_Recv_init from the rank
 * itself on the private communicator, with a tag of its own: MPICH keeps
 * its MPI-4 state (inactive after completion; MPI_Wait / MPI_Test on an
 * inactive request return at once with an empty status).  MPI_Start /
 * MPI_Startall re-run the schedule built at init and leave the handle
 * unposted ("lazy", nbc.h): the wrappers of MPI_Wait / MPI_Test drive the
 * schedule and report its end; nbc_materialize() posts the handle's
 * receive before MPICH sees a running one, and the schedule's end then
 * sends the zero-byte message that completes it.
 * MPI_Request_free frees the schedule with the handle.  Requests that are
 * not arcoll's pass through.  Only when mpi.h is MPI 4 (SMPI 3.32 declares
 * MPI 3 and no persistent collectives).
 */
#include <stdlib.h>

#include "nbc.h"

#if MPI_VERSION >= 4

/* Registered schedules live in a list of their own so that ->next stays
 * the running list's link. */
typedef struct preg {
  nbc_sched_t *s;
  MPI_Request handle;
  struct preg *next;
} preg_t;
static preg_t *g_reg = NULL;

nbc_sched_t *nbc_find_persistent(MPI_Request r) {
  if (r == MPI_REQUEST_NULL) return NULL;
  for (preg_t *p = g_reg; p; p = p->next)
    if (p->handle == r) return p->s;
  return NULL;
}

int nbc_persist_register(nbc_sched_t *s, MPI_Request *req) {
  nbc_round(s);
  int rc = s->err;
  preg_t *p = rc ? NULL : malloc(sizeof *p);
  if (!rc && !p) rc = MPI_ERR_NO_MEM;
  if (!rc) rc = PMPI_Recv_init(NULL, 0, MPI_BYTE, s->me, s->self_tag, s->comm, &s->user);
  if (rc != MPI_SUCCESS) {
    free(p);
    nbc_free(s);
    return rc;
  }
  p->s = s;
  p->handle = s->user;
  p->next = g_reg;
  g_reg = p;
  *req = s->user;
  return MPI_SUCCESS;
}

static int start_one(nbc_sched_t *s) {
  /* starting an active request (running, or done and not yet completed by
   * a wait or test) is erroneous */
  if (s->active || s->lazy) return MPI_ERR_REQUEST;
  s->lazy = 1; /* the handle's receive is posted only if MPICH must see it (nbc.h) */
  ++arcoll_nbc_lazy;
  return nbc_start_persistent(s);
}

int nbc_materialize(int n, const MPI_Request reqs[]) {
  int rc = MPI_SUCCESS;
  for (int i = 0; i < n && arcoll_nbc_lazy > 0; ++i) {
    nbc_sched_t *s = nbc_find_persistent(reqs[i]);
    if (!s || !s->lazy) continue;
    MPI_Request h = s->user;
    /* the zero-byte receive from self; its message: finish() sends it, or
     * now when the schedule is done (MPICH then reports it as complete) */
    int r = PMPI_Start(&h);
    if (r == MPI_SUCCESS && !s->active) r = PMPI_Send(NULL, 0, MPI_BYTE, s->me, s->self_tag, s->comm);
    if (r != MPI_SUCCESS) {
      if (rc == MPI_SUCCESS) rc = r;
      continue;
    }
    s->lazy = 0;
    --arcoll_nbc_lazy;
  }
  return rc;
}

ARCOLL_EXPORT int MPI_Start(MPI_Request *req) {
  if (arcoll_nbc_active) arcoll_nbc_progress();
  nbc_sched_t *s = g_reg ? nbc_find_persistent(*req) : NULL;
  if (!s) return PMPI_Start(req);
  return start_one(s);
}

ARCOLL_EXPORT int MPI_Startall(int n, MPI_Request reqs[]) {
  if (arcoll_nbc_active) arcoll_nbc_progress();
  if (!g_reg) return PMPI_Startall(n, reqs);
  for (int i = 0; i < n; ++i) {
    nbc_sched_t *s = nbc_find_persistent(reqs[i]);
    int rc = s ? start_one(s) : PMPI_Start(&reqs[i]);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

ARCOLL_EXPORT int MPI_Request_free(MPI_Request *req) {
  if (arcoll_nbc_active) arcoll_nbc_progress();
  if (g_reg && *req != MPI_REQUEST_NULL) {
    for (preg_t **pp = &g_reg; *pp; pp = &(*pp)->next) {
      preg_t *p = *pp;
      if (p->handle != *req) continue;
      *pp = p->next;
      nbc_sched_t *s = p->s;
      free(p);
      if (s->active) s->free_when_done = 1; /* MPICH frees the handle once it completes */
      else {
        if (s->lazy) { /* done, never completed by a wait or test */
          s->lazy = 0;
          --arcoll_nbc_lazy;
        }
        nbc_free(s);
      }
      return PMPI_Request_free(req);
    }
  }
  return PMPI_Request_free(req);
}

#else /* MPI < 4: no persistent collectives */

nbc_sched_t *nbc_find_persistent(MPI_Request r) {
  (void)r;
  return NULL;
}

int nbc_persist_register(nbc_sched_t *s, MPI_Request *req) {
  (void)req;
  nbc_free(s);
  return MPI_ERR_INTERN;
}

int nbc_materialize(int n, const MPI_Request reqs[]) {
  (void)n, (void)reqs;
  return MPI_SUCCESS;
}

#endif
