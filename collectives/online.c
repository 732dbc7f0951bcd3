/* Online selection among the model's best candidates, then segment
 * refinement around the fastest; see online.h. */
#include "online.h"
#include "online_confirm.h"
#include "online_pacing.h"
#include "online_readmit.h"
#include "online_slots.h"
#include "online_steps.h"
#include "online_twins.h"

#include "compress_decide.h"

#include <math.h>
#include <string.h>


int arcoll_explorer_init(arcoll_explorer_t *e, const arcoll_model_t *m, arcoll_coll_t c, int P,
                         MPI_Aint bytes, int commutative, int ncand, int trials, int refine) {
  memset(e, 0, sizeof *e);
  if (ncand < 1) ncand = 1;
  if (ncand > ARCOLL_ONLINE_MAX_CANDIDATES) ncand = ARCOLL_ONLINE_MAX_CANDIDATES;
  if (trials < 1) trials = 1;
  if (trials > ARCOLL_ONLINE_MAX_TRIALS) trials = ARCOLL_ONLINE_MAX_TRIALS;
  if (refine < 0) refine = 0;
  if (refine > ARCOLL_ONLINE_MAX_REFINE) refine = ARCOLL_ONLINE_MAX_REFINE;
  e->trials = e->init_trials = trials;
  e->refine = refine;
  e->model = m;
  e->coll = c;
  e->P = P;
  e->bytes = bytes;
  e->best_s = INFINITY;
  e->confirm_block = c == ARCOLL_COLL_BCAST || c == ARCOLL_COLL_REDUCE ? 0 : ARCOLL_ONLINE_CONFIRM_BLOCK;
  e->imbalance = ARCOLL_ONLINE_IMBALANCE;
  e->n = arcoll_select_candidates(m, c, P, bytes, commutative, e->cand, ncand);
  /* small messages: no far-first variant beside its near-first twin
   * (ARCOLL_ONLINE_FAR_FIRST_MIN_BYTES) */
  if (bytes < ARCOLL_ONLINE_FAR_FIRST_MIN_BYTES) {
    int near = 0; /* none: nothing was moved, all stay */
    for (int i = 0; i < e->n; ++i)
      if (!(e->cand[i].algo->flags & ARCOLL_ALGO_FAR_FIRST)) e->cand[near++] = e->cand[i];
    if (near > 0) e->n = near;
  }
  /* never measure what the model predicts more than ARCOLL_ONLINE_MAX_SLOWDOWN
   * times slower than its best (cand[0]); candidates without a prediction
   * stay, and so does a reduce's chain that streams back to back faster than
   * the best's one call, its fill within the budget (online_slots.h) */
  const double lim = ARCOLL_ONLINE_MAX_SLOWDOWN * e->cand[0].predicted_s;
  int kept = e->n > 0 ? 1 : 0;
  for (int i = 1; i < e->n; ++i)
    if (!(e->cand[0].predicted_s > 0 && e->cand[i].predicted_s > lim) ||
        arcoll_explorer_chain_streams(m, c, P, bytes, &e->cand[i], e->cand[0].predicted_s))
      e->cand[kept++] = e->cand[i];
    else e->spare[e->nspare++] = e->cand[i]; /* measured if the model is off (readmit) */
  e->n = kept;
  /* reduce from ARCOLL_STREAM_MIN_BYTES: the chain, when admitted, is
   * measured at the segment size whose segments occupy a link least per call
   * (select.h arcoll_select_stream_segment), not at the model's one-call
   * best: nothing flows from the root to the others, so back-to-back
   * reduces stream along the chain and a call costs its period, k X(m / k)
   * (SMPI flat P = 64, 1 MiB, balanced: chain / 2 KiB, the model's pick,
   * 0.113 s per call summed over ranks in round 0, / 8 KiB 0.0589 after
   * three refinement rounds; one rank 1 ms late: / 2 KiB 0.137 s lost to
   * rsag's 0.132 and rsag ran the 200 calls, 1.02x SMPI's mpich selector
   * against 0.52x balanced).  Refinement goes on from there. */
  if (c == ARCOLL_COLL_REDUCE && bytes >= ARCOLL_STREAM_MIN_BYTES) {
    const int at = arcoll_explorer_find(e, "chain");
    const MPI_Aint s = at >= 0 ? arcoll_select_stream_segment(m, c, e->cand[at].algo, P, bytes) : 0;
    if (s > 0 && s != e->cand[at].segment_bytes) {
      e->cand[at].segment_bytes = s;
      e->cand[at].predicted_s = arcoll_model_predict(m, c, e->cand[at].algo, P, bytes, s, 0);
    }
  }
  /* bcast, reduce: binomial - the tree the late-rank orders are built for -
   * is always measured (when it is a candidate at all and a slot is free),
   * whatever the model predicts: the model times one call alone, and in
   * back-to-back calls binomial's root hands its segments on and goes on
   * (SMPI flat P = 64, 32 KiB, 200 calls, sum over ranks of the time inside:
   * binomial 1.89 s vs the model's best, twotree, 2.16 s; with 0-200 us
   * noise per rank and call 0.98 vs 2.51 s; the model predicted binomial
   * over 2x slower); the same for scatter and gather, where the model
   * also misjudges binomial against linear on a platform it was not
   * calibrated on (SMPI flat P = 64, 8 B scatter, cluster256 model: binomial
   * predicted 2.5x slower than linear, measured 0.82x).  Not for reduce below
   * ARCOLL_ONLINE_SKEW_MAX_BYTES when knomial is a candidate: the same tree
   * with radix 2, and measured slower there (SMPI flat P = 64, 8 B, balanced:
   * 131 us summed inside a call against knomial's 34 us, the same period);
   * knomial alone is then no exploration at all, no MPI_Allreduce - which
   * with a late rank costs every rank the lateness once (P = 256, one rank
   * 1 ms late: 0.74 s summed inside over 200 calls against 0.54 s for SMPI's
   * ompi selector) */
  const int tree_first =
      c == ARCOLL_COLL_REDUCE && bytes < ARCOLL_ONLINE_SKEW_MAX_BYTES && arcoll_explorer_find(e, "knomial") >= 0;
  /* gather below ARCOLL_ONLINE_SKEW_MAX_BYTES: the model's best alone, no
   * exploration.  In a gather nothing flows from the root to the others, so
   * the decision's synchronisation makes every early rank wait for the
   * latest one's whole backlog: it runs after calls the early ranks finished
   * without waiting (SMPI flat P = 256, 8 B, 200 back-to-back calls, one
   * rank 1 ms late before each call: 1.243 s summed inside with the
   * exploration, 0.202 s for linear alone, 0.606 s for SMPI's mpich
   * selector; 1 ms x 4 calls x 255 ranks is the decision's share).  And it
   * measured little there: linear, the model's pick with the cluster256
   * model, beat SMPI's selectors in every scenario (P = 256 balanced
   * 0.0025 s vs 0.209 s, noise 0.0041 vs 0.318; P = 64 eight late 0.200 vs
   * 1.639), and where the exploration ran, binomial won its decision by a
   * 15 % shorter period (P = 256 balanced, 8.6 against 10.1 us) at 42x
   * linear's sum inside.  Gather's compressed
   * candidate (below) is still measured where it applies. */
  const int model_only = c == ARCOLL_COLL_GATHER && bytes < ARCOLL_ONLINE_SKEW_MAX_BYTES;
  /* reduce from ARCOLL_ONLINE_REDUCE_TREE_MAX_BYTES whose chain is
   * measured as it streams (above): binomial is not exempt from the 2x
   * rule.  Back to back the chain streams, and the late-rank order cannot
   * save binomial's own time: it moves ceil(log2 P) x m through the root
   * (1 MiB: predicted 2.8x rsag at P = 64, 3.6x at P = 256) and lost to
   * the chain in every SMPI run from 256 KiB, balanced and one rank 1 ms
   * late (online_limits.h), while its second run cost (P = 256, 1 MiB,
   * balanced) 3.46 s summed over ranks against the chain's 0.24 - its
   * non-roots run ahead of the root - and put a refill of the chain after
   * it.  Below, binomial is measured: at 32 KiB it wins where a rank is
   * late. */
  const int chain_in = c == ARCOLL_COLL_REDUCE && bytes >= ARCOLL_ONLINE_REDUCE_TREE_MAX_BYTES &&
                       arcoll_explorer_find(e, "chain") >= 0;
  if (c == ARCOLL_COLL_GATHER && !model_only) e->once_from = 1; /* online.h */
  if (model_only && e->n > 0) {
    e->n = 1;
    e->nspare = 0;
  }
  arcoll_explorer_add_exempt(e, m, c, P, bytes, commutative, ncand, tree_first || model_only || chain_in);
  /* its chain measured last and held through a deferred decision (online.h
   * stream_lag, online_limits.h ARCOLL_ONLINE_REDUCE_STREAM_LAG), and no
   * segment refinement: the chain starts at its least-occupancy segment
   * (above) and every refinement from there kept it (SMPI flat P = 64 and
   * 256, 1 MiB, balanced and one rank 1 ms late), while each round refills
   * the chain and ends in a decision the ranks ahead of a late one wait at
   * for the root (P = 64, one late: round 1 decided at call 24 cost 1.05 s
   * summed over ranks, a call 0.083) */
  const int at_chain = chain_in ? arcoll_explorer_find(e, "chain") : -1;
  if (at_chain >= 0 && e->n > 1) {
    arcoll_explorer_to_last(e, at_chain);
    e->stream_lag = 1;
    e->refine = 0;
  }
  arcoll_explorer_hold_far(e); /* measured after its near twin won (online_twins.h) */
  /* reduce below ARCOLL_ONLINE_SKEW_MAX_BYTES: a tree first - knomial when a
   * candidate, else binomial - then the imbalance check after its runs
   * (ONLINE.md) */
  if (c == ARCOLL_COLL_REDUCE && bytes < ARCOLL_ONLINE_SKEW_MAX_BYTES && e->n > 1) {
    int at = arcoll_explorer_find(e, "knomial");
    if (at < 0) at = arcoll_explorer_find(e, "binomial");
    if (at > 0) {
      const arcoll_choice_t b = e->cand[at];
      memmove(&e->cand[1], &e->cand[0], sizeof e->cand[0] * (size_t)at);
      e->cand[0] = b;
    }
    if ((!strcmp(e->cand[0].algo->name, "knomial") || !strcmp(e->cand[0].algo->name, "binomial")) &&
        e->cand[0].predicted_s > 0)
      e->check_at = e->trials;
  }
  arcoll_explorer_steps_setup(e); /* the far twin ruled out by the near one's steps (online_steps.h) */
  if (e->n < 1) e->finished = 1;
  else e->best = e->cand[0];
  return e->n;
}

int arcoll_explorer_add(arcoll_explorer_t *e, const arcoll_algo_desc_t *a) {
  if (!a || e->n < 1 || e->n >= ARCOLL_ONLINE_MAX_CANDIDATES || e->done > 0 || e->round > 0)
    return e->n;
  for (int i = 0; i < e->n; ++i)
    if (e->cand[i].algo == a) return e->n;
  e->extra_at = e->n;
  arcoll_choice_t *x = &e->cand[e->n++];
  memset(x, 0, sizeof *x);
  x->algo = a;
  x->predicted_s = -1.0;
  return e->n;
}

/* Warm-up runs still due before the block of candidate `at` (> 0) starts. */
static int warm_at(const arcoll_explorer_t *e, int at, int left) {
  return left > 0 && at > 0 && e->done == at * e->trials;
}

/* The next run of round 0 is a warm-up run (online_pacing.h, "Warm-up"). */
static int warming(const arcoll_explorer_t *e) {
  if (e->round != 0) return 0;
  return (e->warmup > 0 && e->done == 0) || warm_at(e, e->extra_at, e->warmup_extra) ||
         warm_at(e, e->stream_at, e->warmup_stream);
}

const arcoll_choice_t *arcoll_explorer_next(const arcoll_explorer_t *e) {
  if (e->pending > 0) /* a deferred decision is on its way (online_pacing.h); a refinement
                        round's: the kept configuration, the same tree (online.h `held`) */
    return e->has_held && e->round == 0 && !e->readmitting ? &e->held : &e->best;
  if (e->confirming) /* the kept one's block, then the other's */
    return e->confirm_calls < e->confirm_block ? &e->best : &e->confirm_alt;
  if (e->finished || e->done >= e->n * e->trials) return NULL;
  return &e->cand[e->done / e->trials]; /* also a warm-up run's (warming()) */
}

int arcoll_explorer_record_period(arcoll_explorer_t *e, double seconds, double period, int failed) {
  if (e->confirming) { /* no common clock given: this rank's own, from its periods */
    e->confirm_clock += period;
    return arcoll_explorer_record_exit(e, e->confirm_clock, failed || !(period >= 0));
  }
  if (e->finished || e->done >= e->n * e->trials) return 1;
  if (warming(e)) { /* a warm-up run: not measured */
    if (e->done == 0 && e->warmup > 0) --e->warmup;
    else if (warm_at(e, e->extra_at, e->warmup_extra)) --e->warmup_extra;
    else --e->warmup_stream;
    ++e->runs;
    return 0;
  }
  const int bad = failed || !(seconds >= 0) || !(period >= 0);
  if (e->coll == ARCOLL_COLL_BCAST || e->coll == ARCOLL_COLL_SCATTER || e->stream_lag)
    e->held = e->cand[e->round == 0 && e->hold_at > 0 ? e->hold_at - 1 : e->done / e->trials], e->has_held = 1;
  e->t[e->done] = bad ? INFINITY : seconds;
  e->p[e->done++] = bad ? INFINITY : period;
  ++e->runs;
  if (!bad) arcoll_explorer_steps_fold(e);
  arcoll_explorer_mean_periods(e); /* a scatter whose root moved (online_pacing.h) */
  if (e->round == 0 && e->once_from > 0 && (e->done - 1) / e->trials >= e->once_from)
    while (e->done % e->trials) /* run once: its run stands for its trials */
      e->t[e->done] = e->t[e->done - 1], e->p[e->done] = e->p[e->done - 1], ++e->done;
  if (e->preset && e->round == 0 && e->done == (e->n - 1) * e->trials) { /* online_noted.h */
    e->done = e->n * e->trials;
    e->preset = 0;
  }
  if (e->round == 0 && e->check_at && e->done == e->check_at && e->done < e->n * e->trials) return 2;
  if (e->round == 0 && e->steps_at && e->done == e->steps_at && e->done < e->n * e->trials)
    return ARCOLL_ONLINE_STEPS_DUE;
  return e->done == e->n * e->trials;
}

int arcoll_explorer_check_times(arcoll_explorer_t *e, double max_inside_s, double max_period_s,
                                double min_period_s) {
  e->check_at = 0;
  /* a failed run (+inf) says nothing about skew: go on measuring */
  if (!isfinite(max_inside_s) || !isfinite(max_period_s) || !isfinite(min_period_s)) return 0;
  const double pred = e->cand[0].predicted_s;
  const int skew_inside = max_inside_s > e->imbalance * pred;
  const int skew_outside = max_period_s > e->imbalance * fmax(fmax(min_period_s, max_inside_s), pred);
  if (!skew_inside && !skew_outside) {
    /* the 2x rule against binomial as measured (the larger of its max
     * inside and max period): the others, predicted for one call alone,
     * are not run where they would be more than ARCOLL_ONLINE_MAX_SLOWDOWN
     * times slower (header: SMPI flat P = 64, 8 B back-to-back reduce,
     * binomial's period 4.2 us, rsag predicted and measured 48.6 us) */
    const double meas = fmax(max_inside_s, max_period_s);
    if (!(meas > 0)) return 0;
    int kept = 1;
    for (int i = 1; i < e->n; ++i)
      if (!(e->cand[i].predicted_s > ARCOLL_ONLINE_MAX_SLOWDOWN * meas)) e->cand[kept++] = e->cand[i];
    e->n = kept;
    if (kept > 1) return 0;
  }
  e->best = e->cand[0];
  e->finished = 1;
  return 1;
}

int arcoll_explorer_record(arcoll_explorer_t *e, double seconds, int failed) {
  return arcoll_explorer_record_period(e, seconds, seconds, failed);
}

/* Segment size s is allowed for a refinement round (ONLINE.md, bounds). */
static int segment_ok(const arcoll_explorer_t *e, MPI_Aint s) {
  return s >= ARCOLL_ONLINE_MIN_SEGMENT && s < e->bytes &&
         (e->bytes + s - 1) / s <= ARCOLL_ONLINE_MAX_SEGMENTS;
}

/* Append best at segment size s to the next round's candidates if allowed. */
static void add_segment(arcoll_explorer_t *e, MPI_Aint s) {
  if (!segment_ok(e, s)) return;
  arcoll_choice_t v = e->best;
  v.segment_bytes = s;
  v.predicted_s = arcoll_model_predict(e->model, e->coll, v.algo, e->P, e->bytes, s, v.k);
  e->cand[e->n++] = v;
}

/* What the refinement round in e->cand[0 .. n) costs beyond best_s where
 * the best streams (seconds, summed over ranks): each new segment size's
 * first run and the best's first run after the round start a pipeline
 * afresh, about P / 2 x its one-call prediction summed over ranks (a rank
 * waits half a call on average); for a configuration whose calls do not
 * overlap that is about best_s, and nothing is added.  Why: a reduce's
 * chain at P = 256 streams at 0.33 s per call summed over ranks (1 MiB,
 * 8 KiB segments, one rank 1 ms late, SMPI flat cluster) and its one call
 * takes 16 ms: the round at 4 and 16 KiB cost 7.4 s beyond it, 22 calls of
 * the best, and kept 8 KiB (bench/notes/adaptive-layer-2026-12-06.md). */
static double refill_cost(const arcoll_explorer_t *e) {
  double cost = fmax(0.0, 0.5 * e->P * e->best.predicted_s - e->best_s);
  for (int i = 0; i < e->n; ++i) cost += fmax(0.0, 0.5 * e->P * e->cand[i].predicted_s - e->best_s);
  return cost;
}

int arcoll_explorer_decide_times(arcoll_explorer_t *e, const double *all, const double *max) {
  return arcoll_explorer_decide_periods(e, all, max, NULL, 0.0);
}

/* The band's base: outside_s (the smallest time a rank spent outside the
 * collective before any of the round's runs, seconds) at most M; 0 when
 * unknown.  It is in every candidate's period alike (the application's
 * computation between calls), so the band is taken on the periods less it. */
static double common_outside(double outside_s, double M) {
  return outside_s > 0 && isfinite(outside_s) && isfinite(M) ? fmin(outside_s, M) : 0.0;
}

int arcoll_explorer_decide_periods(arcoll_explorer_t *e, const double *all, const double *max,
                                   const double *min, double outside_s) {
  e->pending = 0;
  const MPI_Aint kept = e->best.segment_bytes; /* before this round */
  int won = -1; /* this round's candidate that became best, if any */
  double round_s = 0.0, mx[ARCOLL_ONLINE_MAX_CANDIDATES];
  if (!max) max = all;
  for (int r = 0; r < e->n * e->trials; ++r) round_s += all[r];
  /* the critical path first: the fastest max over ranks among the kept
   * configuration and this round's (M); then, among those within
   * ARCOLL_ONLINE_MAX_TOLERANCE of M less the time every rank spent
   * outside (common_outside), the smallest sum over ranks */
  double M = isfinite(e->best_s) ? e->best_max_s : INFINITY;
  for (int i = 0; i < e->n; ++i) {
    double b = INFINITY, x = INFINITY, y = INFINITY;
    for (int r = 0; r < e->trials; ++r) {
      b = fmin(b, all[i * e->trials + r]);
      x = fmin(x, max[i * e->trials + r]);
      if (min) y = fmin(y, min[i * e->trials + r]);
    }
    e->measured_s[i] = b;
    e->measured_max_s[i] = mx[i] = x;
    e->measured_min_s[i] = y;
    if (isfinite(b) && x < M) M = x;
    if (isfinite(b)) arcoll_explorer_note_rival(e, &e->cand[i], x);
  }
  const double lim = M + ARCOLL_ONLINE_MAX_TOLERANCE * (M - common_outside(outside_s, M));
  if (isfinite(e->best_s) && !(e->best_max_s <= lim)) e->best_s = INFINITY; /* no longer eligible */
  for (int i = 0; i < e->n; ++i) {
    /* more than ARCOLL_ONLINE_SUM_TOLERANCE smaller: closer ones are ties,
     * which keep the earlier (better predicted / already kept); nothing
     * finite measured: best stays init's cand[0] */
    if (mx[i] <= lim && e->measured_s[i] < (1.0 - ARCOLL_ONLINE_SUM_TOLERANCE) * e->best_s) {
      e->best_s = e->measured_s[i];
      e->best_max_s = mx[i];
      e->best = e->cand[i];
      won = i;
    }
  }
  /* cost of the exploration so far: what its calls took beyond the best */
  e->excess_s += round_s - e->n * e->trials * e->best_s;
  e->trials = e->init_trials; /* after a one-run pass (init_trials, online.h) */
  /* round 0 (the only one that readmits, online_readmit.h): best is one of its
   * candidates, or none was finite */
  if (e->round == 0 && arcoll_explorer_readmit(e, won >= 0 ? e->measured_min_s[won] : INFINITY)) return 0;
  if (arcoll_explorer_far_round(e)) return 0; /* after round 0: the far twin (online_twins.h) */
  const MPI_Aint s = e->best.segment_bytes;
  const int segmented = e->best.algo && (e->best.algo->flags & ARCOLL_ALGO_SEGMENTED) && s > 0;
  if (e->round > 0) {
    if (won < 0) { /* no faster size this way: done */
      return arcoll_explorer_confirm_start(e);
    }
    e->dir = s > kept ? 1 : -1; /* keep going the way that was faster */
  }
  if (!segmented || e->round >= e->refine || !isfinite(e->best_s)) {
    return arcoll_explorer_confirm_start(e);
  }
  e->n = 0; /* round 1: both neighbours; later: one step further */
  if (e->dir <= 0) add_segment(e, s / 2);
  if (e->dir >= 0) add_segment(e, s * 2);
  /* a refinement round costs about 2 x trials calls near best_s, plus its
   * refills where the best streams; stop when the exploration's budget
   * does not pay for it */
  if (e->n == 0 || !(e->excess_s + refill_cost(e) < ARCOLL_ONLINE_BUDGET_CALLS * e->best_s)) {
    return arcoll_explorer_confirm_start(e);
  }
  e->done = 0;
  ++e->round;
  return 0;
}

double arcoll_explorer_outside(double period_s, double inside_s) {
  const double o = period_s - inside_s;
  return isfinite(o) && o > 0 ? o : 0.0;
}

int arcoll_explorer_period_extremes(const arcoll_explorer_t *e, double *pm) {
  const int k = e->n * e->trials;
  double outside = INFINITY;
  for (int r = 0; r < k; ++r) {
    pm[r] = e->p[r], pm[k + r] = -e->p[r];
    outside = fmin(outside, arcoll_explorer_outside(e->p[r], e->t[r]));
  }
  pm[2 * k] = -outside;
  return 2 * k + 1 + arcoll_explorer_steps_pack(e, pm + 2 * k + 1);
}

int arcoll_explorer_decide_extremes(arcoll_explorer_t *e, const double *all, const double *ext) {
  const int k = e->n * e->trials;
  double min[ARCOLL_ONLINE_MAX_CANDIDATES * ARCOLL_ONLINE_MAX_TRIALS];
  for (int r = 0; r < k; ++r) min[r] = -ext[k + r];
  arcoll_explorer_steps_unpack(e, ext + 2 * k + 1); /* before the far round is set up */
  return arcoll_explorer_decide_periods(e, all, ext, min, -ext[2 * k]);
}
