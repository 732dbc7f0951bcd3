/*
 * libarcoll: MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome, MPI_Test,
 * MPI_Testall, MPI_Testany, MPI_Testsome (nbc.h).  With no schedule running
 * (arcoll_nbc_active == 0) each is one branch and the PMPI call.  Otherwise
 * waits loop: progress every schedule, test the user's requests, then block
 * in PMPI_Waitany on the union of the schedules' pending point-to-point
 * requests and the user's requests that are not arcoll's (arcoll's complete
 * only when arcoll progresses them, so blocking on them would deadlock);
 * whichever completes, the loop goes on.  Tests progress once, then test.
 *
 * Lazy persistent handles (nbc.h): MPI_Wait / MPI_Test / MPI_Request_get_status
 * answer for them while their schedule runs; the array calls post their
 * receive first (nbc_materialize) and go on as above.
 *
 * SMPI 3.32's Testany / Waitany / Testsome / Waitsome skip every request
 * without a point-to-point communication behind it (its own nonblocking
 * collectives: treated as inactive, so Testany reports "all inactive" while
 * they are pending).  The SMPI build therefore tests such arrays request by
 * request with PMPI_Test (an inactive persistent request then counts as
 * complete: a documented limit).  (arcoll's own requests are real
 * receives there, nbc.h.)
 */
#include <stdlib.h>
#include <string.h>

#include "nbc.h"

#ifdef ARCOLL_SMPI
static int testany(int n, MPI_Request r[], int *index, int *flag, MPI_Status *st) {
  int live = 0;
  for (int i = 0; i < n; ++i) {
    if (r[i] == MPI_REQUEST_NULL) continue;
    ++live;
    int f = 0, rc = PMPI_Test(&r[i], &f, st);
    if (rc != MPI_SUCCESS || f) {
      *index = i, *flag = 1;
      return rc;
    }
  }
  *index = MPI_UNDEFINED, *flag = live == 0;
  return MPI_SUCCESS;
}
static int testsome(int n, MPI_Request r[], int *outcount, int indices[], MPI_Status st[]) {
  int live = 0, k = 0, rc = MPI_SUCCESS;
  for (int i = 0; i < n && rc == MPI_SUCCESS; ++i) {
    if (r[i] == MPI_REQUEST_NULL) continue;
    ++live;
    int f = 0;
    rc = PMPI_Test(&r[i], &f, st == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &st[k]);
    if (f) indices[k++] = i;
  }
  *outcount = live ? k : MPI_UNDEFINED;
  return rc;
}
#define TESTANY testany
#define TESTSOME testsome
#define SMPI_ALWAYS 1 /* SMPI's own nonblocking requests need the loop too */
#else
#define TESTANY PMPI_Testany
#define TESTSOME PMPI_Testsome
#define SMPI_ALWAYS 0
#endif

static int is_arcoll(MPI_Request r) { return nbc_find_active(r) || nbc_find_persistent(r); }

/* Block until an internal request or one of the user's reqs[0..n) (not
 * arcoll's) completes.  Returns the index of a user request that completed
 * (its status in *st, reqs[] updated), -1 otherwise; *rc its error. */
static int block_once(int n, MPI_Request *reqs, MPI_Status *st, int *rc) {
  enum { STACK = 64 };
  *rc = MPI_SUCCESS;
  /* one schedule running and nothing of the user's own to watch: block on
   * its whole round at once (a PMPI_Wait per request instead of one PMPI_Waitany
   * over every pending request per completion: O(n^2) per round of n
   * messages, minutes of SMPI at P = 256).  Safe: no other schedule of
   * this rank can need to advance first. */
  if (arcoll_nbc_active == 1) {
    int mine = 1;
    for (int i = 0; i < n && mine; ++i) mine = reqs[i] == MPI_REQUEST_NULL || is_arcoll(reqs[i]);
    if (mine && nbc_wait_sole_round()) return -1;
  }
  const int cap = nbc_internal_count() + n;
  MPI_Request sall[STACK], *all = sall;
  nbc_sched_t *swho[STACK], **who = swho;
  int sslot[STACK], *slot = sslot, suidx[STACK], *uidx = suidx;
  if (cap > STACK) {
    all = malloc((size_t)cap * sizeof *all);
    who = malloc((size_t)cap * sizeof *who);
    slot = malloc((size_t)cap * sizeof *slot);
    uidx = malloc((size_t)cap * sizeof *uidx);
    if (!all || !who || !slot || !uidx) {
      free(all), free(who), free(slot), free(uidx);
      return -1; /* the caller's loop polls instead */
    }
  }
  const int k = nbc_internal_requests(all, who, slot, cap);
  int m = k, idx = MPI_UNDEFINED, ret = -1;
  for (int i = 0; i < n; ++i)
    if (reqs[i] != MPI_REQUEST_NULL && !is_arcoll(reqs[i])) {
      all[m] = reqs[i];
      uidx[m++] = i;
    }
  if (m > 0) {
    int r = PMPI_Waitany(m, all, &idx, st);
    if (idx != MPI_UNDEFINED && idx < k) {
      who[idx]->reqs[slot[idx]] = all[idx];
      if (r != MPI_SUCCESS && !who[idx]->err) who[idx]->err = r;
    } else if (idx != MPI_UNDEFINED) {
      reqs[uidx[idx]] = all[idx];
      ret = uidx[idx];
      *rc = r;
    }
  }
  if (all != sall) free(all), free(who), free(slot), free(uidx);
  return ret;
}

/* The status of a completed collective: empty (MPI-4 section 6.12: source
 * and tag undefined) */
static void empty_status(MPI_Status *status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
}

/* The running persistent schedule of handle r while its handle is lazy
 * (nbc.h: MPICH would take it for complete), else NULL. */
static nbc_sched_t *lazy_of(MPI_Request r) {
  nbc_sched_t *s = arcoll_nbc_lazy ? nbc_find_persistent(r) : NULL;
  return s && s->lazy ? s : NULL;
}

/* The lazy handle of s is complete: returned to the user once. */
static int complete_lazy(nbc_sched_t *s, MPI_Status *status) {
  s->lazy = 0;
  --arcoll_nbc_lazy;
  empty_status(status);
  return s->err;
}

/* Before an array goes to MPICH: arcoll's lazy handles in it posted (nbc.h). */
static int post_lazy(int n, const MPI_Request reqs[]) {
  return arcoll_nbc_lazy ? nbc_materialize(n, reqs) : MPI_SUCCESS;
}

/* MPI_Wait on a lazy handle: run s to its end, progressing the others. */
static int wait_lazy(nbc_sched_t *s, MPI_Status *status) {
  MPI_Status tmp;
  int rc;
  for (;;) {
    if (arcoll_nbc_active) arcoll_nbc_progress();
    if (!s->active) break;
    block_once(0, NULL, &tmp, &rc);
  }
  return complete_lazy(s, status);
}

ARCOLL_EXPORT int MPI_Wait(MPI_Request *req, MPI_Status *status) {
  nbc_sched_t *lz = lazy_of(*req);
  if (lz) return wait_lazy(lz, status);
  if (!arcoll_nbc_active) return PMPI_Wait(req, status);
  MPI_Status tmp;
  for (;;) {
    int flag = 0, rc;
    arcoll_nbc_progress();
    if ((rc = PMPI_Test(req, &flag, status)) != MPI_SUCCESS || flag) return rc;
    if (!arcoll_nbc_active) return PMPI_Wait(req, status);
    if (block_once(1, req, &tmp, &rc) == 0) {
      if (status != MPI_STATUS_IGNORE) *status = tmp;
      return rc;
    }
  }
}

ARCOLL_EXPORT int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[]) {
  const int mrc = post_lazy(n, reqs);
  if (mrc != MPI_SUCCESS) return mrc;
  if (!arcoll_nbc_active && !SMPI_ALWAYS) return PMPI_Waitall(n, reqs, statuses);
  MPI_Status *saved = NULL;
  char *have = NULL;
  int rc;
  if (statuses != MPI_STATUSES_IGNORE && n > 0) {
    saved = malloc((size_t)n * sizeof *saved);
    have = calloc((size_t)n, 1);
    if (!saved || !have) {
      free(saved), free(have);
      saved = NULL, have = NULL;
    }
  }
  for (;;) {
    int flag = 0;
    arcoll_nbc_progress();
    rc = PMPI_Testall(n, reqs, &flag, statuses);
    if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) break;
    if (flag) break;
    if (!arcoll_nbc_active && !SMPI_ALWAYS) {
      rc = PMPI_Waitall(n, reqs, statuses);
      break;
    }
    MPI_Status st;
    int r2;
    const int j = block_once(n, reqs, &st, &r2);
    if (j >= 0 && saved) {
      st.MPI_ERROR = r2;
      saved[j] = st;
      have[j] = 1;
    }
  }
  if (saved) /* requests completed inside block_once: their real statuses */
    for (int i = 0; i < n; ++i)
      if (have[i]) statuses[i] = saved[i];
  free(saved), free(have);
  return rc;
}

ARCOLL_EXPORT int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status) {
  const int mrc = post_lazy(n, reqs);
  if (mrc != MPI_SUCCESS) return mrc;
  if (!arcoll_nbc_active && !SMPI_ALWAYS) return PMPI_Waitany(n, reqs, index, status);
  MPI_Status tmp;
  for (;;) {
    int flag = 0, rc;
    arcoll_nbc_progress();
    if ((rc = TESTANY(n, reqs, index, &flag, status)) != MPI_SUCCESS || flag) return rc;
    if (!arcoll_nbc_active && !SMPI_ALWAYS) return PMPI_Waitany(n, reqs, index, status);
    const int j = block_once(n, reqs, &tmp, &rc);
    if (j >= 0) {
      *index = j;
      if (status != MPI_STATUS_IGNORE) *status = tmp;
      return rc;
    }
  }
}

ARCOLL_EXPORT int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                               MPI_Status statuses[]) {
  const int mrc = post_lazy(n, reqs);
  if (mrc != MPI_SUCCESS) return mrc;
  if (!arcoll_nbc_active && !SMPI_ALWAYS)
    return PMPI_Waitsome(n, reqs, outcount, indices, statuses);
  MPI_Status tmp;
  for (;;) {
    int rc;
    arcoll_nbc_progress();
    rc = TESTSOME(n, reqs, outcount, indices, statuses);
    if ((rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) || *outcount != 0) return rc;
    if (!arcoll_nbc_active && !SMPI_ALWAYS)
      return PMPI_Waitsome(n, reqs, outcount, indices, statuses);
    const int j = block_once(n, reqs, &tmp, &rc);
    if (j >= 0) {
      *outcount = 1;
      indices[0] = j;
      if (statuses != MPI_STATUSES_IGNORE) statuses[0] = tmp;
      return rc;
    }
  }
}

ARCOLL_EXPORT int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
  if (arcoll_nbc_active) arcoll_nbc_progress();
  nbc_sched_t *lz = lazy_of(*req);
  if (lz) {
    *flag = !lz->active;
    return *flag ? complete_lazy(lz, status) : MPI_SUCCESS;
  }
  return PMPI_Test(req, flag, status);
}

ARCOLL_EXPORT int MPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status) {
  if (arcoll_nbc_active) arcoll_nbc_progress();
  nbc_sched_t *lz = lazy_of(req);
  if (lz) { /* the request stays as it is (no completion returned) */
    *flag = !lz->active;
    if (*flag) empty_status(status);
    return *flag ? lz->err : MPI_SUCCESS;
  }
  return PMPI_Request_get_status(req, flag, status);
}

ARCOLL_EXPORT int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[]) {
  const int mrc = post_lazy(n, reqs);
  if (mrc != MPI_SUCCESS) return mrc;
  if (arcoll_nbc_active) arcoll_nbc_progress();
  return PMPI_Testall(n, reqs, flag, statuses);
}

ARCOLL_EXPORT int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag,
                              MPI_Status *status) {
  const int mrc = post_lazy(n, reqs);
  if (mrc != MPI_SUCCESS) return mrc;
  if (arcoll_nbc_active) arcoll_nbc_progress();
  return TESTANY(n, reqs, index, flag, status);
}

ARCOLL_EXPORT int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[],
                               MPI_Status statuses[]) {
  const int mrc = post_lazy(n, reqs);
  if (mrc != MPI_SUCCESS) return mrc;
  if (arcoll_nbc_active) arcoll_nbc_progress();
  return TESTSOME(n, reqs, outcount, indices, statuses);
}
