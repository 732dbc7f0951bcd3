/*
 * Dispatch shared by libarcoll's interposed collectives (dispatch.h): the
 * configuration read at MPI_Init, MPI_Init / MPI_Init_thread / MPI_Finalize,
 * the per-communicator state (private communicator, choice cache, lateness
 * trackers), introspection and errors.  The choice per call: choice.c;
 * argument checks: checks.c.  Design: adapt/README.md, adapt/DISPATCH.md.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "dispatch.h"
#include "detach_state.h"
#include "late_order.h"
#include "late_outside_exchange.h"
#include "compress_decide.h"
#include "decision.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arcoll.h"

arcoll_config_t arcoll_g_cfg;
int arcoll_g_configured = 0;
static int g_keyval = MPI_KEYVAL_INVALID;
static arcoll_comm_state_t *g_states = NULL;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
ARCOLL_TLS arcoll_state_memo_t arcoll_g_memo; /* dispatch.h */
unsigned long arcoll_g_state_gen = 0;

/* ---- configuration, MPI_Init, MPI_Finalize ------------------------------ */

void arcoll_configure(void) {
  char err[1024];
  if (arcoll_g_configured) return;
  if (arcoll_config_parse(&arcoll_g_cfg, err, sizeof err) != 0) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      fprintf(stderr, "arcoll: error: %s\n", err);
      fflush(stderr);
      usleep(300000); /* let mpiexec forward the message before the abort kills the job */
    } else {
      sleep(2); /* let rank 0 print before anybody's abort tears the job down */
    }
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  /* the compressed collectives' switch (collectives/compress_decide.h) */
  arcoll_compress_configure_model((arcoll_compress_mode_t)arcoll_g_cfg.compress,
                                  &arcoll_g_cfg.model);
  arcoll_g_configured = 1;
}

/* After MPI_Init: the configuration, and MPI_COMM_WORLD's state while every
 * rank is in MPI_Init (creating a state is collective; nonblocking
 * collectives only use a state that exists, nbc_api.c, so that one started
 * first on a communicator never blocks: MPI lets ranks start nonblocking
 * collectives on different communicators in different orders). */
static void after_init(void) {
  arcoll_configure();
  int rc;
  if (arcoll_g_cfg.nonblocking) (void)arcoll_state(MPI_COMM_WORLD, &rc); /* else: at first use */
}

ARCOLL_EXPORT int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) after_init();
  return rc;
}

ARCOLL_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) after_init();
  return rc;
}

static void state_free(arcoll_comm_state_t *st) {
  __atomic_add_fetch(&arcoll_g_state_gen, 1, __ATOMIC_ACQ_REL); /* every memo misses (dispatch.h) */
  if (st->priv != MPI_COMM_NULL) arcoll_decision_settle(st); /* before the tuning note */
  arcoll_reduce_detach_free(st);
  arcoll_outside_free(st); /* a pending exchange only where priv is */
  arcoll_tuning_note_state(st);
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
    if (st->late[c]) {
      arcoll_late_free(st->late[c]);
      free(st->late[c]);
    }
  if (st->priv != MPI_COMM_NULL) PMPI_Comm_free(&st->priv);
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c) free(st->late_alt[c]);
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
    for (int k = 0; k < 2; ++k) {
      if (!st->cache[c][k]) continue;
      for (int i = 0; i < ARCOLL_NCLASS; ++i) free(st->cache[c][k][i].ex);
      free(st->cache[c][k]);
    }
  pthread_mutex_lock(&g_lock);
  for (arcoll_comm_state_t **p = &g_states; *p; p = &(*p)->next)
    if (*p == st) {
      *p = st->next;
      break;
    }
  pthread_mutex_unlock(&g_lock);
  free(st);
}

static int delete_cb(MPI_Comm comm, int keyval, void *attr, void *extra) {
  (void)comm, (void)keyval, (void)extra;
  state_free((arcoll_comm_state_t *)attr);
  return MPI_SUCCESS;
}

ARCOLL_EXPORT int MPI_Finalize(void) {
  /* Deleting the attribute runs delete_cb: completes any pending exchange and
   * frees the private communicator. */
  while (g_states) {
    arcoll_comm_state_t *st = g_states;
    if (PMPI_Comm_delete_attr(st->user, g_keyval) != MPI_SUCCESS || g_states == st)
      state_free(st); /* user comm no longer valid: free directly */
  }
  if (g_keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&g_keyval);
  arcoll_tuning_write_at_finalize();
  return PMPI_Finalize();
}

/* ---- per-communicator state ---------------------------------------------- */

/* 1 when a node holds two or more ranks of priv, agreed by all ranks (one
 * MPI_Comm_split_type and one MPI_Allreduce, right after the split that
 * made priv: the ranks are in step, no one waits for a late rank twice).
 * Why: where ranks share a node the MPI library has paths of its own
 * (shared memory) that no point-to-point algorithm reaches, and its own
 * collective is worth measuring (collectives/native.h); between nodes only,
 * its algorithms are the kinds collectives/ has, and measuring it only adds
 * calls to the exploration (SMPI flat P = 64, one rank per host, 8 B
 * reduce, one rank 1 ms late: 0.207 -> 0.577 s summed inside). */
static int node_shared(MPI_Comm priv) {
  if (arcoll_g_cfg.online_native <= 0) return 0;
  MPI_Comm node = MPI_COMM_NULL;
  int n = 1, any = 0;
  if (PMPI_Comm_split_type(priv, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS &&
      node != MPI_COMM_NULL) {
    PMPI_Comm_size(node, &n);
    PMPI_Comm_free(&node);
  }
  n = n > 1;
  if (PMPI_Allreduce(&n, &any, 1, MPI_INT, MPI_MAX, priv) != MPI_SUCCESS) return 0;
  return any;
}

arcoll_comm_state_t *arcoll_state(MPI_Comm comm, int *rc_out) {
  int flag = 0, rc;
  void *attr = NULL;
  *rc_out = MPI_SUCCESS;
  if (g_keyval == MPI_KEYVAL_INVALID) {
    pthread_mutex_lock(&g_lock);
    rc = g_keyval == MPI_KEYVAL_INVALID
             ? PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &g_keyval, NULL)
             : MPI_SUCCESS;
    pthread_mutex_unlock(&g_lock);
    if (rc != MPI_SUCCESS) return *rc_out = rc, NULL;
  }
  arcoll_comm_state_t *memo = arcoll_state_memo(comm);
  if (memo) return memo;
  const unsigned long gen = __atomic_load_n(&arcoll_g_state_gen, __ATOMIC_ACQUIRE);
  rc = PMPI_Comm_get_attr(comm, g_keyval, &attr, &flag);
  if (rc != MPI_SUCCESS) return *rc_out = rc, NULL;
  if (flag) {
    arcoll_g_memo = (arcoll_state_memo_t){comm, (arcoll_comm_state_t *)attr, gen};
    return (arcoll_comm_state_t *)attr;
  }

  arcoll_comm_state_t *st = calloc(1, sizeof(*st));
  if (!st) return *rc_out = MPI_ERR_NO_MEM, NULL;
  st->user = comm;
  st->priv = MPI_COMM_NULL;
  PMPI_Comm_size(comm, &st->P);
  PMPI_Comm_rank(comm, &st->me);
  int inter = 1;
  st->intra_multi = PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter && st->P > 1;
  /* Comm_split with one colour: a private copy (same rank order) that, unlike
   * MPI_Comm_dup, does not run the user's attribute copy callbacks. */
  rc = PMPI_Comm_split(comm, 0, st->me, &st->priv);
  if (rc != MPI_SUCCESS) {
    free(st);
    return *rc_out = rc, NULL;
  }
  PMPI_Comm_set_errhandler(st->priv, MPI_ERRORS_RETURN);
  st->node_shared = node_shared(st->priv);
  rc = PMPI_Comm_set_attr(comm, g_keyval, st);
  if (rc != MPI_SUCCESS) {
    state_free(st);
    return *rc_out = rc, NULL;
  }
  pthread_mutex_lock(&g_lock);
  st->next = g_states;
  g_states = st;
  pthread_mutex_unlock(&g_lock);
  return st;
}

arcoll_late_tracker_t *arcoll_late(arcoll_comm_state_t *st, arcoll_coll_t c, int *rc) {
  *rc = MPI_SUCCESS;
  /* which calls use it: arcoll_late_applies() (late_order.c) */
  if (st->late[c] || arcoll_g_cfg.late_order == 0 || st->P <= 2) return st->late[c];
  arcoll_late_tracker_t *t = malloc(sizeof *t);
  if (!t || (*rc = arcoll_late_init(t, st->priv, ARCOLL_TAG_LATE(c), arcoll_g_cfg.ewma_alpha,
                                    arcoll_g_cfg.exchange_interval,
                                    c == ARCOLL_COLL_REDUCE || c == ARCOLL_COLL_GATHER ||
                                        c == ARCOLL_COLL_GATHERV)) !=
                 MPI_SUCCESS) {
    free(t);
    if (*rc == MPI_SUCCESS) *rc = MPI_ERR_NO_MEM;
    return NULL;
  }
  t->debug = arcoll_g_cfg.debug;
  if ((*rc = arcoll_tuning_seed_tracker(st, c, t)) != MPI_SUCCESS) {
    arcoll_late_free(t);
    free(t);
    return NULL;
  }
  return st->late[c] = t;
}

arcoll_comm_state_t *arcoll_state_peek(MPI_Comm comm) {
  int flag = 0;
  void *attr = NULL;
  if (g_keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL) return NULL;
  if (PMPI_Comm_get_attr(comm, g_keyval, &attr, &flag) != MPI_SUCCESS || !flag) return NULL;
  return (arcoll_comm_state_t *)attr;
}

/* ---- introspection, errors ------------------------------------------------ */

static const arcoll_algo_desc_t g_pmpi_desc = {"", "pmpi", NULL, 0, "the MPI library"};
const arcoll_algo_desc_t arcoll_none_desc = {"", "none", NULL, 0, "no data to move"};
#ifdef ARCOLL_SMPI
static const arcoll_algo_desc_t *g_last[ARCOLL_COLL_COUNT]; /* privatized per rank */
#else
static __thread const arcoll_algo_desc_t *g_last[ARCOLL_COLL_COUNT];
#endif

void arcoll_note(arcoll_coll_t c, const arcoll_algo_desc_t *algo) {
  g_last[c] = algo ? algo : &g_pmpi_desc;
}

ARCOLL_EXPORT const char *arcoll_last_algorithm(const char *collective) {
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
    if (collective && !strcmp(collective, arcoll_coll_name((arcoll_coll_t)c)))
      return g_last[c] ? g_last[c]->name : NULL;
  return NULL;
}

int arcoll_finish(MPI_Comm comm, int rc) {
  if (rc != MPI_SUCCESS) PMPI_Comm_call_errhandler(comm, rc);
  return rc;
}
