/*
 * libarcoll: PMPI interposition of MPI_Init, MPI_Init_thread, MPI_Finalize,
 * MPI_Bcast and MPI_Bcast_c (MPI >= 4).  Adaptive binomial broadcast in which
 * ranks seen late become leaves: seed 001_6a837e3d9ad6c429.txt technique 1,
 * per call site (open problem 2).  Design and costs: adapt/README.md.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arcoll.h"
#include "bcast_tree.h"
#include "config.h"
#include "order.h"
#include "site.h"
#include "tree.h"

#define ARCOLL_EXPORT __attribute__((visibility("default")))
#define ARCOLL_BCAST_TAG 7001

/* Per-communicator state, attached to the user's communicator. */
typedef struct comm_state {
  MPI_Comm user, priv; /* priv: private copy for arcoll's own traffic */
  int P, me;
  uint64_t ncalls; /* broadcasts run on this comm (index of the next call) */
  arcoll_history_t hist;
  int K;                             /* calls per exchange */
  arcoll_lateness_record_t *batch;   /* [K] this rank's records since the last exchange */
  int *batch_root;                   /* [K] roots of those calls */
  /* Two-stage exchange (O(P) messages, see README): stage 1 MPI_Igather of
   * the K records to rank 0 of priv, started at the end of the K-th call;
   * stage 2 MPI_Ibcast from rank 0 of the compacted waits + global sites,
   * started at the start of the next call and completed K calls later. */
  arcoll_lateness_record_t *gsend;   /* [K] stage 1 send buffer */
  arcoll_lateness_record_t *grecv;   /* [P*K] stage 1 receive buffer (rank 0) */
  int *groot;                        /* [K] roots of the gathered calls */
  MPI_Request greq;
  int gpending;
  unsigned char *bbuf;               /* stage 2: K sites (uint64) + K*P waits (float) */
  int *broot;                        /* [K] roots of the broadcast calls */
  MPI_Request breq;
  int bpending;
  uint64_t bdue;                     /* call at whose start stage 2 is applied */
  double *wait;    /* [P] scratch */
  int *order;      /* [P] order of the last call */
  int last_adaptive;
  struct comm_state *next;
} comm_state_t;

static arcoll_config_t g_cfg;
static int g_configured = 0;
static int g_keyval = MPI_KEYVAL_INVALID;
static comm_state_t *g_states = NULL;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- configuration ------------------------------------------------------ */

static void configure(void) {
  char err[512];
  if (g_configured) return;
  if (arcoll_config_parse(&g_cfg, err, sizeof err) != 0) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) fprintf(stderr, "arcoll: error: %s\n", err);
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  g_configured = 1;
}

ARCOLL_EXPORT int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) configure();
  return rc;
}

ARCOLL_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) configure();
  return rc;
}

/* ---- state management ---------------------------------------------------- */

static void state_free(comm_state_t *st) {
  if (st->gpending && st->greq != MPI_REQUEST_NULL) PMPI_Wait(&st->greq, MPI_STATUS_IGNORE);
  if (st->bpending && st->breq != MPI_REQUEST_NULL) PMPI_Wait(&st->breq, MPI_STATUS_IGNORE);
  if (st->priv != MPI_COMM_NULL) PMPI_Comm_free(&st->priv);
  arcoll_history_free(&st->hist);
  free(st->batch);
  free(st->batch_root);
  free(st->gsend);
  free(st->grecv);
  free(st->groot);
  free(st->bbuf);
  free(st->broot);
  free(st->wait);
  free(st->order);
  pthread_mutex_lock(&g_lock);
  for (comm_state_t **p = &g_states; *p; p = &(*p)->next)
    if (*p == st) {
      *p = st->next;
      break;
    }
  pthread_mutex_unlock(&g_lock);
  free(st);
}

static int delete_cb(MPI_Comm comm, int keyval, void *attr, void *extra) {
  (void)comm, (void)keyval, (void)extra;
  state_free((comm_state_t *)attr);
  return MPI_SUCCESS;
}

/* Returns the state of comm, creating it (collectively: every rank reaches the
 * first broadcast on comm) on first use.  NULL on failure (then the caller
 * falls back to PMPI -- on every rank, since failures here are resource
 * failures that are the same everywhere or fatal anyway). */
static comm_state_t *get_state(MPI_Comm comm, int *rc_out) {
  int flag = 0, rc;
  void *attr = NULL;
  *rc_out = MPI_SUCCESS;
  if (g_keyval == MPI_KEYVAL_INVALID) {
    rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &g_keyval, NULL);
    if (rc != MPI_SUCCESS) return *rc_out = rc, NULL;
  }
  rc = PMPI_Comm_get_attr(comm, g_keyval, &attr, &flag);
  if (rc != MPI_SUCCESS) return *rc_out = rc, NULL;
  if (flag) return (comm_state_t *)attr;

  comm_state_t *st = calloc(1, sizeof(*st));
  if (!st) return *rc_out = MPI_ERR_NO_MEM, NULL;
  st->user = comm;
  st->priv = MPI_COMM_NULL;
  st->greq = st->breq = MPI_REQUEST_NULL;
  PMPI_Comm_size(comm, &st->P);
  PMPI_Comm_rank(comm, &st->me);
  /* Comm_split with one colour: a private copy (same rank order) that, unlike
   * MPI_Comm_dup, does not run the user's attribute copy callbacks. */
  rc = PMPI_Comm_split(comm, 0, st->me, &st->priv);
  if (rc != MPI_SUCCESS) {
    free(st);
    return *rc_out = rc, NULL;
  }
  PMPI_Comm_set_errhandler(st->priv, MPI_ERRORS_RETURN);
  st->K = g_cfg.exchange_interval;
  const size_t P = (size_t)st->P, K = (size_t)st->K;
  st->batch = calloc(K, sizeof(*st->batch));
  st->batch_root = calloc(K, sizeof(int));
  st->gsend = calloc(K, sizeof(*st->gsend));
  st->grecv = st->me == 0 ? calloc(P * K, sizeof(*st->grecv)) : malloc(1);
  st->groot = calloc(K, sizeof(int));
  st->bbuf = calloc(K * sizeof(uint64_t) + K * P * sizeof(float), 1);
  st->broot = calloc(K, sizeof(int));
  st->wait = calloc(P, sizeof(double));
  st->order = calloc(P, sizeof(int));
  int hrc = arcoll_history_init(&st->hist, st->P, g_cfg.ewma_alpha);
  if (hrc || !st->batch || !st->batch_root || !st->gsend || !st->grecv || !st->groot || !st->bbuf ||
      !st->broot ||
      !st->wait || !st->order) {
    state_free(st);
    return *rc_out = MPI_ERR_NO_MEM, NULL;
  }
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

ARCOLL_EXPORT int MPI_Finalize(void) {
  /* Deleting the attribute runs delete_cb: completes any pending exchange and
   * frees the private communicator. */
  while (g_states) {
    comm_state_t *st = g_states;
    if (PMPI_Comm_delete_attr(st->user, g_keyval) != MPI_SUCCESS || g_states == st)
      state_free(st); /* user comm no longer valid: free directly */
  }
  if (g_keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&g_keyval);
  return PMPI_Finalize();
}

ARCOLL_EXPORT int arcoll_bcast_last_order(MPI_Comm comm, int *order, int len,
                                          long long *ncalls, int *adaptive) {
  int flag = 0;
  void *attr = NULL;
  if (g_keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL) return -1;
  if (PMPI_Comm_get_attr(comm, g_keyval, &attr, &flag) != MPI_SUCCESS || !flag) return -1;
  comm_state_t *st = attr;
  if (st->ncalls == 0) return -1;
  for (int i = 0; i < len && i < st->P; ++i) order[i] = st->order[i];
  if (ncalls) *ncalls = (long long)st->ncalls;
  if (adaptive) *adaptive = st->last_adaptive;
  return st->P;
}

/* ---- lateness exchange --------------------------------------------------- */

static size_t bbuf_bytes(const comm_state_t *st) {
  return (size_t)st->K * sizeof(uint64_t) + (size_t)st->K * (size_t)st->P * sizeof(float);
}

/* Stage 2 done: fold the K calls into the common history (same on all ranks). */
static int exchange_apply(comm_state_t *st) {
  int rc = MPI_SUCCESS;
  if (st->breq != MPI_REQUEST_NULL) rc = PMPI_Wait(&st->breq, MPI_STATUS_IGNORE);
  st->bpending = 0;
  if (rc != MPI_SUCCESS) return rc;
  const uint64_t *sites = (const uint64_t *)st->bbuf;
  const float *w = (const float *)(st->bbuf + (size_t)st->K * sizeof(uint64_t));
  for (int j = 0; j < st->K; ++j) {
    for (int r = 0; r < st->P; ++r) st->wait[r] = w[(size_t)j * st->P + r];
    if (arcoll_history_apply(&st->hist, st->broot[j], sites[j], st->wait) != 0)
      return MPI_ERR_NO_MEM;
  }
  return MPI_SUCCESS;
}

/* Stage 1 -> stage 2: rank 0 completes the gather and compacts it (global
 * site of call j = the root's site key); everybody starts the Ibcast. */
static int exchange_stage2(comm_state_t *st, uint64_t call) {
  int rc = MPI_SUCCESS;
  if (st->greq != MPI_REQUEST_NULL) rc = PMPI_Wait(&st->greq, MPI_STATUS_IGNORE);
  st->gpending = 0;
  if (rc != MPI_SUCCESS) return rc;
  if (st->me == 0) {
    uint64_t *sites = (uint64_t *)st->bbuf;
    float *w = (float *)(st->bbuf + (size_t)st->K * sizeof(uint64_t));
    for (int j = 0; j < st->K; ++j) {
      sites[j] = st->grecv[(size_t)st->groot[j] * st->K + j].site;
      for (int r = 0; r < st->P; ++r)
        w[(size_t)j * st->P + r] = (float)st->grecv[(size_t)r * st->K + j].wait;
    }
  }
  memcpy(st->broot, st->groot, sizeof(int) * (size_t)st->K);
  rc = PMPI_Ibcast(st->bbuf, (int)bbuf_bytes(st), MPI_BYTE, 0, st->priv, &st->breq);
  if (rc != MPI_SUCCESS) return rc;
  st->bpending = 1;
  st->bdue = call + (uint64_t)st->K;
  return MPI_SUCCESS;
}

static int exchange_stage1(comm_state_t *st) {
  memcpy(st->gsend, st->batch, sizeof(*st->gsend) * (size_t)st->K);
  memcpy(st->groot, st->batch_root, sizeof(int) * (size_t)st->K);
  int n = (int)(sizeof(*st->gsend) * (size_t)st->K);
  int rc = PMPI_Igather(st->gsend, n, MPI_BYTE, st->grecv, n, MPI_BYTE, 0, st->priv, &st->greq);
  if (rc != MPI_SUCCESS) return rc;
  st->gpending = 1;
  return MPI_SUCCESS;
}

/* ---- the broadcast ------------------------------------------------------- */

static int is_contiguous(MPI_Datatype dt, int type_size, MPI_Aint *true_lb) {
  MPI_Aint lb, extent, tlb, textent;
  PMPI_Type_get_extent(dt, &lb, &extent);
  PMPI_Type_get_true_extent(dt, &tlb, &textent);
  *true_lb = tlb;
  return (MPI_Aint)type_size == extent && extent == textent;
}

static void debug_print(const comm_state_t *st, int root, uint64_t call, int adaptive) {
  if (!g_cfg.debug || st->me != root) return;
  int wrank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  char line[4096];
  int n = snprintf(line, sizeof line, "arcoll: bcast call %llu root %d (world rank %d) %s order:",
                   (unsigned long long)call, root, wrank, adaptive ? "adaptive" : "binomial");
  for (int i = 0; i < st->P && n < (int)sizeof line - 16; ++i)
    n += snprintf(line + n, sizeof line - (size_t)n, " %d", st->order[i]);
  fprintf(stderr, "%s\n", line);
}

/* Returns 1 if the arguments are ones arcoll handles; 0 means "let PMPI do
 * it" (invalid arguments: MPICH reports its own error; intercommunicators;
 * one-rank communicators; algorithm pmpi). */
static int arcoll_handles(void *buf, MPI_Aint count, MPI_Datatype dt, int root, MPI_Comm comm) {
  int flag = 0, size = 0, tsize = 0;
  if (!g_configured) configure();
  if (g_cfg.bcast_algorithm == ARCOLL_BCAST_PMPI) return 0;
  if (comm == MPI_COMM_NULL || dt == MPI_DATATYPE_NULL || count < 0) return 0;
  if (PMPI_Comm_test_inter(comm, &flag) != MPI_SUCCESS || flag) return 0;
  if (PMPI_Comm_size(comm, &size) != MPI_SUCCESS || size <= 1) return 0;
  if (root < 0 || root >= size) return 0;
  if (PMPI_Type_size(dt, &tsize) != MPI_SUCCESS) return 0;
  if (count > 0 && tsize > 0 && buf == NULL) return 0; /* MPI_ERR_BUFFER from MPICH */
  return 1;
}

static int bcast_impl(void *buf, MPI_Aint count, MPI_Datatype dt, int root, MPI_Comm comm,
                      uint64_t site) {
  const double t_entry = PMPI_Wtime();
  int rc, tsize;
  PMPI_Type_size(dt, &tsize);
  const MPI_Aint bytes = count * (MPI_Aint)tsize; /* identical on all ranks */
  if (bytes == 0) return MPI_SUCCESS;            /* nothing moves anywhere */

  comm_state_t *st = get_state(comm, &rc);
  if (!st) return rc;
  const uint64_t call = st->ncalls++;
  const int adaptive_algo = g_cfg.bcast_algorithm == ARCOLL_BCAST_ADAPTIVE;

  if (st->bpending) {
    if (call >= st->bdue) {
      if ((rc = exchange_apply(st)) != MPI_SUCCESS) goto out;
    } else if (st->breq != MPI_REQUEST_NULL) {
      int done = 0; /* drive progress; applied only at the due call */
      PMPI_Test(&st->breq, &done, MPI_STATUS_IGNORE);
    }
  }
  if (st->gpending && !st->bpending)
    if ((rc = exchange_stage2(st, call)) != MPI_SUCCESS) goto out;

  int used = arcoll_history_order(&st->hist, call, root, adaptive_algo, st->order);
  st->last_adaptive = used == 1;
  debug_print(st, root, call, st->last_adaptive);
  arcoll_tree_t tree;
  if ((rc = arcoll_tree_binomial(st->order, st->P, st->me, &tree)) != MPI_SUCCESS) goto out;

  /* Move bytes so that segment boundaries agree on all ranks whatever
   * (count, datatype) pair each rank passed. */
  MPI_Aint true_lb = 0;
  if (buf != MPI_BOTTOM && is_contiguous(dt, tsize, &true_lb)) {
    rc = arcoll_bcast_tree((char *)buf + true_lb, bytes, MPI_BYTE, &tree, g_cfg.segment_bytes,
                           ARCOLL_BCAST_TAG, st->priv);
  } else {
    char *tmp = malloc((size_t)bytes);
    if (!tmp) {
      rc = MPI_ERR_NO_MEM;
    } else {
#if MPI_VERSION >= 4
      MPI_Count pos = 0;
#else
      MPI_Aint pos = 0;
#endif
      if (st->me == root) {
#if MPI_VERSION >= 4
        rc = PMPI_Pack_c(buf, count, dt, tmp, bytes, &pos, st->priv);
#else
        int ipos = 0;
        rc = PMPI_Pack(buf, (int)count, dt, tmp, (int)bytes, &ipos, st->priv);
        pos = ipos;
#endif
        if (rc == MPI_SUCCESS && pos != bytes) rc = MPI_ERR_INTERN; /* heterogeneous packing */
      }
      if (rc == MPI_SUCCESS)
        rc = arcoll_bcast_tree(tmp, bytes, MPI_BYTE, &tree, g_cfg.segment_bytes,
                               ARCOLL_BCAST_TAG, st->priv);
      if (rc == MPI_SUCCESS && st->me != root) {
#if MPI_VERSION >= 4
        rc = PMPI_Unpack_c(tmp, bytes, &pos, buf, count, dt, st->priv);
#else
        int ipos = 0;
        rc = PMPI_Unpack(tmp, (int)bytes, &ipos, buf, (int)count, dt, st->priv);
#endif
      }
      free(tmp);
    }
  }
  arcoll_tree_free(&tree);
  if (rc != MPI_SUCCESS) goto out;

  if (adaptive_algo) {
    int slot = (int)(call % (uint64_t)st->K);
    st->batch[slot].wait = PMPI_Wtime() - t_entry;
    st->batch[slot].site = site;
    st->batch_root[slot] = root;
    if (slot == st->K - 1) rc = exchange_stage1(st);
  }
out:
  if (rc != MPI_SUCCESS) return PMPI_Comm_call_errhandler(comm, rc), rc;
  return MPI_SUCCESS;
}

ARCOLL_EXPORT int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm) {
  if (!arcoll_handles(buf, count, dt, root, comm)) return PMPI_Bcast(buf, count, dt, root, comm);
  return bcast_impl(buf, count, dt, root, comm,
                    arcoll_site_key(__builtin_return_address(0)));
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root,
                              MPI_Comm comm) {
  if (!arcoll_handles(buf, (MPI_Aint)count, dt, root, comm))
    return PMPI_Bcast_c(buf, count, dt, root, comm);
  return bcast_impl(buf, (MPI_Aint)count, dt, root, comm,
                    arcoll_site_key(__builtin_return_address(0)));
}
#endif
