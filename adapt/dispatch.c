/*
 * Dispatch shared by libarcoll's interposed collectives (dispatch.h): the
 * configuration read at MPI_Init, MPI_Init / MPI_Init_thread / MPI_Finalize,
 * the per-communicator state (private communicator + choice cache + the
 * adaptive bcast's lateness history), the choice of the algorithm per
 * (collective, P, byte size class, op commutative), and argument checks.
 * Design: adapt/README.md.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "dispatch.h"

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
  arcoll_g_configured = 1;
}

ARCOLL_EXPORT int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) arcoll_configure();
  return rc;
}

ARCOLL_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) arcoll_configure();
  return rc;
}

static void state_free(arcoll_comm_state_t *st) {
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
    if (st->late[c]) {
      arcoll_late_free(st->late[c]);
      free(st->late[c]);
    }
  if (st->priv != MPI_COMM_NULL) PMPI_Comm_free(&st->priv);
  free(st->late_alt);
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
  return PMPI_Finalize();
}

/* ---- per-communicator state ---------------------------------------------- */

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
  rc = PMPI_Comm_get_attr(comm, g_keyval, &attr, &flag);
  if (rc != MPI_SUCCESS) return *rc_out = rc, NULL;
  if (flag) return (arcoll_comm_state_t *)attr;

  arcoll_comm_state_t *st = calloc(1, sizeof(*st));
  if (!st) return *rc_out = MPI_ERR_NO_MEM, NULL;
  st->user = comm;
  st->priv = MPI_COMM_NULL;
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
  /* unset: only the explicitly adaptive broadcast tracks lateness by default
   * (the exchange's cost in back-to-back calls: adapt/README.md "Lateness") */
  const int on = arcoll_g_cfg.late_order > 0 ||
                 (arcoll_g_cfg.late_order < 0 && arcoll_g_cfg.mode[c] == ARCOLL_MODE_ADAPTIVE);
  if (st->late[c] || !on || st->P <= 2) return st->late[c];
  arcoll_late_tracker_t *t = malloc(sizeof *t);
  if (!t || (*rc = arcoll_late_init(t, st->priv, ARCOLL_TAG_LATE(c), arcoll_g_cfg.ewma_alpha,
                                    arcoll_g_cfg.exchange_interval,
                                    c == ARCOLL_COLL_REDUCE || c == ARCOLL_COLL_GATHER)) !=
                 MPI_SUCCESS) {
    free(t);
    if (*rc == MPI_SUCCESS) *rc = MPI_ERR_NO_MEM;
    return NULL;
  }
  t->debug = arcoll_g_cfg.debug;
  return st->late[c] = t;
}

arcoll_comm_state_t *arcoll_state_peek(MPI_Comm comm) {
  int flag = 0;
  void *attr = NULL;
  if (g_keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL) return NULL;
  if (PMPI_Comm_get_attr(comm, g_keyval, &attr, &flag) != MPI_SUCCESS || !flag) return NULL;
  return (arcoll_comm_state_t *)attr;
}

/* ---- size classes and the choice ----------------------------------------- */

int arcoll_size_class(MPI_Aint bytes) {
  if (bytes <= 0) return 0;
  uint64_t b = (uint64_t)bytes;
  int e = 63 - __builtin_clzll(b);                           /* 2^e <= b < 2^(e+1) */
  int frac = e >= 2 ? (int)((b >> (e - 2)) & 3) : (e == 1 ? (int)((b & 1) << 1) : 0);
  return 1 + 4 * e + frac;
}

MPI_Aint arcoll_class_bytes(int cls) {
  if (cls <= 0) return 0;
  int e = (cls - 1) / 4, frac = (cls - 1) % 4;
  if (e < 2) return (MPI_Aint)((1u << e) + (e == 1 ? (unsigned)frac / 2 : 0u));
  /* class [2^e (4+frac)/4, 2^e (5+frac)/4): the geometric-ish midpoint */
  uint64_t lo = ((uint64_t)(4 + frac) << e) >> 2, hi = ((uint64_t)(5 + frac) << e) >> 2;
  return (MPI_Aint)(lo + (hi - lo) / 2);
}

/* Segment size minimising the model's prediction for a forced segmented
 * algorithm (0 = one segment, then powers of two from 1 KiB). */
static MPI_Aint best_segment(const arcoll_algo_desc_t *a, arcoll_coll_t c, int P, MPI_Aint bytes);

const arcoll_cached_t *arcoll_late_tolerant(arcoll_comm_state_t *st, arcoll_coll_t c,
                                            MPI_Aint bytes) {
  const int cls = arcoll_size_class(bytes);
  if (!st->late_alt && !(st->late_alt = calloc(ARCOLL_NCLASS, sizeof *st->late_alt))) return NULL;
  arcoll_cached_t *e = &st->late_alt[cls];
  if (!e->valid) {
    const MPI_Aint rep = arcoll_class_bytes(cls);
    e->algo = arcoll_algorithm_find(c, "binomial");
    if (e->algo) {
      e->segment_bytes = best_segment(e->algo, c, st->P, rep);
      e->predicted_s = arcoll_model_predict(&arcoll_g_cfg.model, c, e->algo, st->P, rep,
                                            e->segment_bytes, 0);
    }
    e->valid = 1;
  }
  return e->algo ? e : NULL;
}

static MPI_Aint best_segment(const arcoll_algo_desc_t *a, arcoll_coll_t c, int P, MPI_Aint bytes) {
  MPI_Aint best = 0;
  double tbest = arcoll_model_predict(&arcoll_g_cfg.model, c, a, P, bytes, 0, 0);
  for (MPI_Aint s = 1024; s < bytes; s *= 2) {
    double t = arcoll_model_predict(&arcoll_g_cfg.model, c, a, P, bytes, s, 0);
    if (t >= 0 && (tbest < 0 || t < tbest)) tbest = t, best = s;
  }
  if (tbest < 0) best = 65536; /* no formula: the adaptive bcast's default */
  return best;
}

static void compute_choice(arcoll_coll_t c, int P, int cls, int commutative, arcoll_cached_t *out) {
  const MPI_Aint bytes = arcoll_class_bytes(cls);
  const arcoll_config_t *cfg = &arcoll_g_cfg;
  out->algo = NULL;
  out->segment_bytes = 0;
  out->k = 0;
  out->predicted_s = -1.0;
  if (cfg->mode[c] == ARCOLL_MODE_ADAPTIVE) {
    out->algo = arcoll_algorithm_find(c, "binomial");
    out->segment_bytes = (MPI_Aint)cfg->segment_bytes;
    return;
  }
  if (cfg->mode[c] == ARCOLL_MODE_FORCED) {
    const arcoll_algo_desc_t *a = cfg->forced[c];
    if (commutative || !(a->flags & ARCOLL_ALGO_COMMUTATIVE_ONLY)) {
      out->algo = a;
      if (a->flags & ARCOLL_ALGO_SEGMENTED)
        out->segment_bytes = c == ARCOLL_COLL_BCAST && cfg->segment_set
                                 ? (MPI_Aint)cfg->segment_bytes
                                 : best_segment(a, c, P, bytes);
      return;
    }
    /* non-commutative op and a commutative-only algorithm: the best
     * order-preserving one (below), else PMPI */
  }
  /* auto: the model's best candidates measured on the first calls
   * (online.h); bcasts above INT_MAX bytes only run binomial: no choice */
  if (cfg->mode[c] == ARCOLL_MODE_AUTO && cfg->online_candidates > 1 && bytes <= INT_MAX) {
    arcoll_explorer_t *ex = malloc(sizeof *ex);
    if (ex && arcoll_explorer_init(ex, &cfg->model, c, P, bytes, commutative,
                                   cfg->online_candidates, cfg->online_trials,
                                   cfg->online_refine) > 1) {
      out->ex = ex;
      return; /* arcoll_choose loads the candidate of each call */
    }
    free(ex);
  }
  arcoll_choice_t ch;
  if (arcoll_select(&cfg->model, c, P, bytes, commutative, &ch) == 0 && ch.algo) {
    out->algo = ch.algo;
    out->segment_bytes = ch.segment_bytes;
    out->k = ch.k;
    out->predicted_s = ch.predicted_s;
  }
}

const arcoll_cached_t *arcoll_choose(arcoll_comm_state_t *st, arcoll_coll_t c, MPI_Aint bytes,
                                     int commutative) {
  const int cls = arcoll_size_class(bytes);
  commutative = commutative != 0;
  arcoll_cached_t *tab = st->cache[c][commutative];
  if (__builtin_expect(tab != NULL && tab[cls].valid && !tab[cls].ex, 1)) return &tab[cls];
  if (!tab) {
    tab = calloc(ARCOLL_NCLASS, sizeof *tab);
    if (!tab) return NULL; /* same on every rank only if memory fails everywhere; fatal anyway */
    st->cache[c][commutative] = tab;
  }
  arcoll_cached_t *e = &tab[cls];
  if (!e->valid) {
    compute_choice(c, st->P, cls, commutative, e);
    e->valid = 1;
    if (!e->ex) arcoll_debug_choice(st, c, bytes, commutative, e);
  }
  if (e->ex) { /* measuring online: this call runs the next candidate */
    const arcoll_choice_t *next = arcoll_explorer_next(e->ex);
    e->algo = next->algo;
    e->segment_bytes = next->segment_bytes;
    e->k = next->k;
    e->predicted_s = next->predicted_s;
  }
  if (e->algo && e->predicted_s < 0 && !e->ex) /* forced / adaptive: the model's time */
    e->predicted_s = arcoll_model_predict(&arcoll_g_cfg.model, c, e->algo, st->P,
                                          arcoll_class_bytes(cls), e->segment_bytes, e->k);
  return e;
}

int arcoll_online_record(arcoll_comm_state_t *st, const arcoll_cached_t *ch, double t0, int rc) {
  arcoll_cached_t *e = (arcoll_cached_t *)ch; /* an entry of st's cache, being measured */
  arcoll_explorer_t *ex = e->ex;
  if (!arcoll_explorer_record(ex, PMPI_Wtime() - t0, rc != MPI_SUCCESS)) return rc;
  const int round = ex->round, n = ex->n, debug = arcoll_g_cfg.debug && st->me == 0;
  arcoll_choice_t cand[ARCOLL_ONLINE_MAX_CANDIDATES];
  if (debug) memcpy(cand, ex->cand, sizeof cand); /* for the print: the next round overwrites them */
  const int drc = arcoll_explorer_decide(ex, st->priv);
  const arcoll_choice_t *w = &ex->best;
  e->algo = w->algo;
  e->segment_bytes = w->segment_bytes;
  e->k = w->k;
  e->predicted_s = w->predicted_s;
  if (debug) {
    fprintf(stderr, "arcoll: online: %s P=%d round %d measured", e->algo->collective, st->P,
            round);
    for (int i = 0; i < n; ++i)
      fprintf(stderr, " %s/%lld=%.3gs(model %.3gs)", cand[i].algo->name,
              (long long)cand[i].segment_bytes, ex->measured_s[i], cand[i].predicted_s);
    fprintf(stderr, " -> %s/%lld%s\n", e->algo->name, (long long)e->segment_bytes,
            ex->finished ? "" : ", refining its segment size");
  }
  if (ex->finished) {
    free(ex);
    e->ex = NULL;
  }
  return rc == MPI_SUCCESS ? drc : rc;
}

void arcoll_debug_choice(const arcoll_comm_state_t *st, arcoll_coll_t c, MPI_Aint bytes,
                         int commutative, const arcoll_cached_t *ch) {
  if (!arcoll_g_cfg.debug || st->me != 0) return;
  fprintf(stderr, "arcoll: %s P=%d bytes=%lld (class %d, ~%lld)%s -> %s segment %lld k %d\n",
          arcoll_coll_name(c), st->P, (long long)bytes, arcoll_size_class(bytes),
          (long long)arcoll_class_bytes(arcoll_size_class(bytes)),
          commutative ? "" : " non-commutative op", ch->algo ? ch->algo->name : "pmpi",
          (long long)ch->segment_bytes, ch->k);
}

/* ---- checks ---------------------------------------------------------------- */

int arcoll_intra(arcoll_coll_t c, MPI_Comm comm, int *P) {
  int flag = 0;
  if (__builtin_expect(!arcoll_g_configured, 0)) arcoll_configure();
  if (arcoll_g_cfg.mode[c] == ARCOLL_MODE_PMPI || comm == MPI_COMM_NULL) return 0;
  if (PMPI_Comm_test_inter(comm, &flag) != MPI_SUCCESS || flag) return 0;
  if (PMPI_Comm_size(comm, P) != MPI_SUCCESS || *P <= 1) return 0;
  return 1;
}

int arcoll_type_ok(MPI_Datatype dt, int *size) {
  if (dt == MPI_DATATYPE_NULL) return 0;
  return PMPI_Type_size(dt, size) == MPI_SUCCESS && *size >= 0;
}

int arcoll_buf_ok(const void *buf, MPI_Aint count, int type_size, MPI_Datatype dt) {
  if (buf != NULL || count == 0 || type_size == 0) return 1;
  int ni, na, nd, comb;
  if (PMPI_Type_get_envelope(dt, &ni, &na, &nd, &comb) != MPI_SUCCESS) return 0;
  return comb != MPI_COMBINER_NAMED; /* MPI_BOTTOM + absolute addresses */
}

static int in_list(MPI_Datatype t, const MPI_Datatype *l, int n) {
  for (int i = 0; i < n; ++i)
    if (l[i] == t) return 1;
  return 0;
}

/* Predefined op x predefined type, the MPI standard's groups (C types only; a
 * Fortran or multi-language type goes to PMPI, which is always correct).
 * Derived types never get here: MPICH 4.0 rejects predefined ops on them even
 * in MPI_Reduce_local, which the algorithms use (MPI_ERR_OP). */
static int predefined_pair_ok(MPI_Op op, MPI_Datatype b) {
  static const MPI_Datatype cint[] = {
      MPI_INT, MPI_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG,
      MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR,
      MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T,
      MPI_UINT32_T, MPI_UINT64_T};
  static const MPI_Datatype fp[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE};
  static const MPI_Datatype cplx[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
                                      MPI_C_LONG_DOUBLE_COMPLEX};
  static const MPI_Datatype pairs[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT,
                                       MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT};
  const int ci = in_list(b, cint, (int)(sizeof cint / sizeof *cint));
  const int fl = in_list(b, fp, 3);
  if (op == MPI_MAX || op == MPI_MIN) return ci || fl;
  if (op == MPI_SUM || op == MPI_PROD) return ci || fl || in_list(b, cplx, 3);
  if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return ci || b == MPI_C_BOOL;
  if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) return ci || b == MPI_BYTE;
  if (op == MPI_MAXLOC || op == MPI_MINLOC) return in_list(b, pairs, 6);
  return 0;
}

int arcoll_op_ok(MPI_Op op, MPI_Datatype dt, int *commutative) {
  if (op == MPI_OP_NULL || op == MPI_REPLACE || op == MPI_NO_OP) return 0;
  const int predefined = op == MPI_MAX || op == MPI_MIN || op == MPI_SUM || op == MPI_PROD ||
                         op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR || op == MPI_BAND ||
                         op == MPI_BOR || op == MPI_BXOR || op == MPI_MAXLOC || op == MPI_MINLOC;
  if (predefined) {
    int ni, na, nd, comb;
    if (PMPI_Type_get_envelope(dt, &ni, &na, &nd, &comb) != MPI_SUCCESS ||
        comb != MPI_COMBINER_NAMED || !predefined_pair_ok(op, dt))
      return 0;
    *commutative = 1;
    return 1;
  }
  if (PMPI_Op_commutative(op, commutative) != MPI_SUCCESS) return 0;
  return 1;
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
