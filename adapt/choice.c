/*
 * The algorithm of each call (dispatch.h, adapt/DISPATCH.md "Dispatch"):
 * byte size classes, the cached choice per (collective, op commutative,
 * class), the online measurement's bookkeeping, and the binomial choice
 * used while ranks are late.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "decision.h"
#include "dispatch.h"
#include "late_order.h"
#include "native.h"
#include "online_confirm.h"
#include "online_pacing.h"

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
                                            MPI_Aint bytes, const char *name) {
  const int cls = arcoll_size_class(bytes);
  if (!st->late_alt[c] && !(st->late_alt[c] = calloc(3 * ARCOLL_NCLASS, sizeof *st->late_alt[c])))
    return NULL;
  const int slot = !strcmp(name, "binomial") ? 1 : !strcmp(name, "chain") ? 2 : 0;
  arcoll_cached_t *e = &st->late_alt[c][slot * ARCOLL_NCLASS + cls];
  if (!e->valid) {
    const MPI_Aint rep = arcoll_class_bytes(cls);
    e->algo = arcoll_algorithm_find(c, name);
    if (e->algo) {
      /* behind late ranks calls run back to back: the least link occupancy */
      e->segment_bytes = arcoll_select_stream_segment(&arcoll_g_cfg.model, c, e->algo, st->P, rep);
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

/* The MPI library's own collective is measured too (native.h): bcast,
 * reduce, allreduce below ARCOLL_ONLINE_NATIVE bytes, commutative ops (SMPI's
 * own reductions are not trusted with others: its MPI_Scan was seen wrong),
 * where no late-rank order would be built (the native call takes none),
 * on communicators with ranks sharing a node (arcoll_comm_state_t.node_shared). */
static int native_applies(arcoll_coll_t c, MPI_Aint bytes, int commutative, int node_shared) {
  return node_shared && arcoll_native_algorithm(c) && commutative && bytes < arcoll_g_cfg.online_native &&
         !arcoll_late_applies(c, bytes);
}

static void compute_choice(const arcoll_comm_state_t *st, arcoll_coll_t c, int cls,
                           int commutative, arcoll_cached_t *out) {
  const int P = st->P;
  const MPI_Aint bytes = arcoll_class_bytes(cls);
  const arcoll_config_t *cfg = &arcoll_g_cfg;
  out->algo = NULL;
  out->segment_bytes = 0;
  out->k = 0;
  out->predicted_s = -1.0;
  out->source = NULL;
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
  /* auto: an earlier run's choice (ARCOLL_TUNING, tuning.h) from the first call */
  const arcoll_tuning_entry_t *tu = cfg->mode[c] == ARCOLL_MODE_AUTO
                                        ? arcoll_tuning_find(&cfg->tuning, c, P, commutative, cls)
                                        : NULL;
  if (tu) {
    out->algo = tu->algo;
    out->segment_bytes = tu->segment_bytes;
    out->k = tu->k;
    out->source = "tuning";
    return;
  }
  /* else the model's best candidates measured on the first calls
   * (online.h); bcasts above INT_MAX bytes only run binomial: no choice */
  arcoll_choice_t ch;
  int have = 0; /* ch holds the explorer's single candidate */
  if (cfg->mode[c] == ARCOLL_MODE_AUTO && cfg->online_candidates > 1 && bytes <= INT_MAX) {
    arcoll_explorer_t *ex = malloc(sizeof *ex);
    int n = ex ? arcoll_explorer_init(ex, &cfg->model, c, P, bytes, commutative,
                                            cfg->online_candidates, cfg->online_trials,
                                            cfg->online_refine)
                     : 0;
    if (n >= 1 && native_applies(c, bytes, commutative, st->node_shared))
      n = arcoll_explorer_add(ex, arcoll_native_algorithm(c));
    if (n > 1) {
      ex->imbalance = cfg->online_skew;
      const int warm_set = cfg->online_warmup >= 0; /* else per collective */
      ex->warmup = warm_set ? cfg->online_warmup : arcoll_explorer_default_warmup(c, bytes);
      if (!warm_set) ex->warmup = arcoll_late_tree_warmup(st, c, bytes, commutative, ex); /* after the order */
      /* the native candidate's */
      ex->warmup_extra = ex->extra_at == 0 ? 0 : warm_set ? cfg->online_warmup : ARCOLL_ONLINE_DEFAULT_WARMUP;
      if (ex->confirm_block) ex->confirm_block = cfg->online_confirm; /* 0 for bcast, reduce */
      if (cfg->online_skew == 0) ex->check_at = 0;
      out->ex = ex;
      out->source = "measured";
      return; /* arcoll_choose loads the candidate of each call */
    }
    if (n == 1) { /* one candidate (online.h): run it, no measurement */
      ch = ex->cand[0];
      have = 1;
    }
    free(ex);
  }
  if ((have || arcoll_select(&cfg->model, c, P, bytes, commutative, &ch) == 0) && ch.algo) {
    out->algo = ch.algo;
    out->segment_bytes = ch.segment_bytes;
    out->k = ch.k;
    out->predicted_s = ch.predicted_s;
    out->source = "model";
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
    compute_choice(st, c, cls, commutative, e);
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

void arcoll_online_keep(arcoll_cached_t *e) {
  arcoll_explorer_t *ex = e->ex;
  e->algo = ex->best.algo;
  e->segment_bytes = ex->best.segment_bytes;
  e->k = ex->best.k;
  e->predicted_s = ex->best.predicted_s;
  if (ex->finished) {
    free(ex);
    e->ex = NULL;
  }
}

/* A round's decision was taken (drc: its error, if any): the confirmation's
 * clock, the debug print (cand / n / round: the round's, saved before),
 * the entry runs the new best. */
static int decided(arcoll_comm_state_t *st, arcoll_cached_t *e, int round, int n,
                   const arcoll_choice_t *cand, int drc, int rc) {
  arcoll_explorer_t *ex = e->ex;
  /* the confirmation's exits need one clock: offsets once per communicator,
   * collectively (every rank took the same decision at this same call) */
  if (drc == MPI_SUCCESS && ex->confirming && !st->clock_ready) {
    drc = arcoll_clock_offset(st->priv, ARCOLL_TAG_CLOCK, &st->clock_offset);
    st->clock_ready = drc == MPI_SUCCESS;
  }
  /* after a transient the kept block starts synchronised too: a rooted decision
   * does not synchronise, and the ranks' leads from round 0 last through it
   * (online_confirm.h arcoll_explorer_transient) */
  if (drc == MPI_SUCCESS && ex->confirming && ex->confirm_transient)
    drc = arcoll_explorer_confirm_sync(ex, st->priv);
  if (arcoll_g_cfg.debug && st->me == 0) {
    fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld round %d measured", ex->best.algo->collective,
            st->P, (long long)ex->bytes, round);
    for (int i = 0; i < n; ++i)
      fprintf(stderr, " %s/%lld=%.3gs,period %.3gs(min %.3gs, model %.3gs)", cand[i].algo->name,
              (long long)cand[i].segment_bytes, ex->measured_s[i], ex->measured_max_s[i],
              ex->measured_min_s[i], cand[i].predicted_s);
    fprintf(stderr, " -> %s/%lld%s%s\n", ex->best.algo->name, (long long)ex->best.segment_bytes,
            ex->finished     ? ""
            : ex->confirming ? ", confirming it in the steady state against "
                             : ", refining its segment size",
            ex->confirming ? ex->confirm_alt.algo->name : "");
  }
  arcoll_online_keep(e);
  return rc == MPI_SUCCESS ? drc : rc;
}

/* The root of the call just recorded, for a rooted decision (bcast; scatter: st->scatter_root,
 * set by adapt/blocks.c). */
static int call_root(const arcoll_comm_state_t *st, arcoll_coll_t c) {
  return c == ARCOLL_COLL_BCAST ? st->last_root : st->scatter_root;
}

int arcoll_online_record(arcoll_comm_state_t *st, const arcoll_cached_t *ch, double t0, int rc) {
  arcoll_cached_t *e = (arcoll_cached_t *)ch; /* an entry of st's cache, being measured */
  arcoll_explorer_t *ex = e->ex;
  const double now = PMPI_Wtime();
  const int debug = arcoll_g_cfg.debug && st->me == 0;
  if (ex->confirming) { /* the steady-state confirmation (online_confirm.h): exits on one clock */
    const arcoll_choice_t kept = ex->best, alt = ex->confirm_alt;
    const int due = arcoll_explorer_record_exit(ex, now - st->clock_offset, rc != MPI_SUCCESS);
    if (due == 2) { /* the blocks start synchronised (online_confirm.h) */
      const int src = arcoll_explorer_confirm_sync(ex, st->priv);
      return rc == MPI_SUCCESS ? src : rc;
    }
    if (!due) return rc;
    const int drc = arcoll_explorer_decide(ex, st->priv);
    if (debug)
      fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld confirmation, last rank out: %s/%lld "
              "span %.3gs, %s/%lld span %.3gs -> %s/%lld\n", kept.algo->collective, st->P,
              (long long)ex->bytes, kept.algo->name, (long long)kept.segment_bytes,
              ex->confirm_span[0], alt.algo->name, (long long)alt.segment_bytes,
              ex->confirm_span[1], ex->best.algo->name, (long long)ex->best.segment_bytes);
    arcoll_online_keep(e);
    return rc == MPI_SUCCESS ? drc : rc;
  }
  const double period = ex->last_exit > 0 ? now - ex->last_exit : now - t0;
  ex->last_exit = now;
  const int round = ex->round, n = ex->n;
  arcoll_choice_t cand[ARCOLL_ONLINE_MAX_CANDIDATES];
  if (debug) memcpy(cand, ex->cand, sizeof cand); /* for the print: the next round overwrites them */
  if (e->decision) { /* a deferred decision pending (decision.h): this call ran best, unmeasured */
    int drc;
    if (!arcoll_decision_step(st, e, call_root(st, ex->coll), &drc)) return rc;
    return decided(st, e, round, n, cand, drc, rc);
  }
  const int due = arcoll_explorer_record_period(ex, now - t0, period, rc != MPI_SUCCESS);
  if (!due) return rc;
  if (due == ARCOLL_ONLINE_STEPS_DUE) { /* the near twin's halving steps (online_steps.h) */
    const char *far = ex->has_far ? ex->far.algo->name : ex->n > 1 ? ex->cand[1].algo->name : "";
    int dropped;
    double ratio;
    const int src = arcoll_explorer_steps_exchange(ex, st->priv, &dropped, &ratio);
    if (debug && src == MPI_SUCCESS)
      fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld: %s's halving steps bound %s at >= %.3gx "
              "its time: %s\n", ex->cand[0].algo->collective, st->P, (long long)ex->bytes,
              ex->cand[0].algo->name, far, ratio, dropped ? "not measured" : "measured");
    if (ex->finished) arcoll_online_keep(e);
    return rc == MPI_SUCCESS ? src : rc;
  }
  if (due == 2) { /* imbalance check (online.h) */
    const int crc = arcoll_explorer_check(ex, st->priv);
    if (!ex->finished) return rc == MPI_SUCCESS ? crc : rc;
    if (debug)
      fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld: arrival skew dominates %s's time "
              "(ARCOLL_ONLINE_SKEW %g): kept, nothing else measured\n", ex->best.algo->collective,
              st->P, (long long)ex->bytes, ex->best.algo->name, ex->imbalance);
    arcoll_online_keep(e);
    return rc == MPI_SUCCESS ? crc : rc;
  }
  /* bcast, scatter: the root decides (decision.h; ARCOLL_ONLINE_LAG=0: the blocking way) */
  if ((ex->coll == ARCOLL_COLL_BCAST || ex->coll == ARCOLL_COLL_SCATTER) &&
      arcoll_g_cfg.online_lag != 0 && !arcoll_decision_rooted_pending(st, ex->coll)) {
    const int lag = arcoll_g_cfg.online_lag > 0 ? arcoll_g_cfg.online_lag : ARCOLL_ONLINE_ROOTED_LAG;
    const int probe = arcoll_g_cfg.online_lag <= 0 && ex->coll == ARCOLL_COLL_BCAST &&
                              ex->bytes >= ARCOLL_STREAM_MIN_BYTES
                          ? ARCOLL_ONLINE_STREAM_LAG - ARCOLL_ONLINE_ROOTED_LAG
                          : 0;
    const int drc = arcoll_decision_start_rooted(st, e, call_root(st, ex->coll), lag, probe);
    if (e->decision) return rc == MPI_SUCCESS ? drc : rc;
    return decided(st, e, round, n, cand, drc, rc); /* it fell back to the blocking way */
  }
  const int lag = arcoll_decision_lag(ex, st->P);
  if (lag > 0) { /* deferred: decided `lag` calls from now (decision.h) */
    const int drc = arcoll_decision_start(st, e, lag);
    if (e->decision) {
      const arcoll_choice_t *run = debug ? arcoll_explorer_next(ex) : NULL;
      if (run)
        fprintf(stderr, "arcoll: online: %s P=%d bytes=%lld: round %d's decision deferred %d calls, "
                "%s/%lld running meanwhile\n", run->algo->collective, st->P, (long long)ex->bytes,
                round, lag, run->algo->name, (long long)run->segment_bytes);
      return rc == MPI_SUCCESS ? drc : rc;
    }
    return decided(st, e, round, n, cand, drc, rc); /* it fell back to the blocking way */
  }
  return decided(st, e, round, n, cand, arcoll_explorer_decide(ex, st->priv), rc);
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

