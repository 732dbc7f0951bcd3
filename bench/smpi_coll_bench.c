/**
 * @file smpi_coll_bench.c
 * @brief SimGrid SMPI benchmark of the collective algorithms of collectives/
 *        (issue 3, "Benchmark"): simulated time of every algorithm of one
 *        collective over a sweep of segment sizes, of the arcoll selector's
 *        choice ("auto"), and of SMPI's own MPI_Bcast/MPI_Reduce/... (whose
 *        algorithm SMPI picks with --cfg=smpi/coll-selector:mpich|ompi, so the
 *        native column needs one smpirun per selector).  Collectives: bcast,
 *        reduce, allreduce, scan, gather, scatter, alltoall, allgather,
 *        reduce_scatter_block, allgatherv, gatherv, scatterv, alltoallv,
 *        reduce_scatter (the calls: smpi_coll_bench_calls.c).
 *
 * Usage (under smpirun; tools/coll-bench.sh drives it):
 *   smpi_coll_bench --coll bcast,reduce,...,reduce_scatter --sizes 8,64,...
 *                   [--mode algos,auto,native] [--segs 0,1024,...]
 *                   [--max-segs N] [--algos name,...] [--reps N] [--op sum|noop]
 *
 * Timing (seed 003_e288917cd7e80de5.txt: a collective's time runs from the
 * first rank's start until *all* ranks have finished): every repetition is
 * preceded by arcoll's dissemination barrier (the same for every column,
 * whatever SMPI selector is configured); time = max over ranks of the end time
 * minus min over ranks of the start time (MPI_Wtime: simulated seconds under
 * SMPI).  An untimed 1-element call of the same configuration comes first
 * (SMPI's selectors pay a set-up cost on a communicator's first collective).
 * With several repetitions the minimum is reported (SMPI time is
 * deterministic: the repetitions agree).
 *
 * Data (m per collective: smpi_coll_bench.h, bench/README.md): bcast ..
 * scan MPI_DOUBLE, count = m/8; the block collectives P blocks of m / P
 * bytes of MPI_FLOAT (m raised to 8 P when smaller: the row shows the raised
 * m), irregular for the v-variants; root 0, identity rank order.  Buffers are
 * SMPI_SHARED_MALLOC'ed (run with --cfg=smpi/shared-malloc:global): every
 * rank's buffer maps the same pages, so results are garbage but the simulated
 * network time is unchanged (SMPI does not simulate memory); correctness is
 * tested in test/collectives.  --op noop (default) uses a commutative
 * user-defined op that does nothing: with --cfg=smpi/simulate-computation:no
 * the reduction costs no simulated time anyway, and noop saves the real CPU
 * time of applying MPI_SUM to gigabytes (tools/coll-bench.sh checks that both
 * ops give the same simulated times).
 *
 * Output (rank 0, stdout), one CSV line per measurement:
 *   coll,P,m,kind,algo,segment_bytes,k,time_s,predicted_s
 * kind: algo (a table entry with the given segment size; 0 = one segment),
 * auto (libarcoll's online selection: the best of the model's
 * ARCOLL_ONLINE_CANDIDATES (default 5) candidates, measured, then
 * ARCOLL_ONLINE_REFINE (default 3) segment-refinement rounds; predicted_s its
 * predicted time; a candidate the sweep of the same run measured takes the
 * sweep's time), model (the model's own choice, arcoll_select, i.e. auto
 * without the measurement), explore (algo "total", k = calls measured:
 * the summed time of the measured calls), native (SMPI's MPI_ collective;
 * algo "smpi").  predicted_s is -1 when unknown.
 * Errors (bad argument, failing MPI call) go to stderr, exit status 2.
 */
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alltoall.h" /* arcoll_barrier_dissemination */
#include "coll.h"
#include "compress_decide.h"
#include "smpi_coll_bench.h"
#ifdef ARCOLL_BENCH_HAVE_SELECT
#include "online.h"
#include "select.h"
#endif

#define MAXLIST 64

static int rank_, nprocs_;

static void die(const char *msg);

#ifdef ARCOLL_BENCH_HAVE_SELECT
/* Integer environment variable `name` in [lo, hi]; `def` when unset or
 * empty; anything else (not a whole integer, out of range) dies naming it. */
static int env_int(const char *name, int def, int lo, int hi) {
  const char *v = getenv(name);
  if (!v || !*v) return def;
  long long x;
  if (arcoll_parse_integer(v, lo, hi, &x)) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s='%s': expected an integer in %d..%d", name, v, lo, hi);
    die(msg);
  }
  return (int)x;
}

/* the selector's collective of each coll_t */
static const arcoll_coll_t sel_coll[C_NCOLL] = {
    ARCOLL_COLL_BCAST,     ARCOLL_COLL_REDUCE,     ARCOLL_COLL_ALLREDUCE,
    ARCOLL_COLL_SCAN,      ARCOLL_COLL_GATHER,     ARCOLL_COLL_SCATTER,
    ARCOLL_COLL_ALLTOALL,  ARCOLL_COLL_ALLGATHER,  ARCOLL_COLL_REDUCE_SCATTER_BLOCK,
    ARCOLL_COLL_ALLGATHERV, ARCOLL_COLL_GATHERV,   ARCOLL_COLL_SCATTERV,
    ARCOLL_COLL_ALLTOALLV, ARCOLL_COLL_REDUCE_SCATTER};
#endif

static void die(const char *msg) {
  fprintf(stderr, "smpi_coll_bench: rank %d: %s\n", rank_, msg);
  MPI_Abort(MPI_COMM_WORLD, 2);
  exit(2);
}

static int parse_list(const char *s, long long *out, int max) {
  int n = 0;
  char *copy = strdup(s), *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *end;
    long long v = strtoll(tok, &end, 10);
    if (*end == 'K' || *end == 'k') v <<= 10, end++;
    else if (*end == 'M' || *end == 'm') v <<= 20, end++;
    if (*end != '\0' || v < 0 || n >= max) {
      free(copy);
      return -1;
    }
    out[n++] = v;
  }
  free(copy);
  return n;
}

static void noop_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)in, (void)inout, (void)len, (void)dt;
}

/* Time (seconds, simulated) of `reps` synchronised calls *x of table entry
 * a (NULL: SMPI's collective); minimum over reps.  *warm: the smallest call
 * of the same collective. */
static double measure(const bench_call_t *x, const bench_call_t *warm,
                      const arcoll_algo_desc_t *a, const arcoll_sched_t *s, int reps) {
  double best = -1;
  arcoll_sched_t bar = {NULL, 0, 0, 32000, NULL};
  /* Warm-up: one untimed smallest call of the same configuration, so that
   * first-call costs (SMPI's selectors build the node map of the
   * communicator on first use: an internal allgather, ~0.1 ms simulated)
   * are not charged to the measured call. */
  int wrc = bench_run_one(warm, a, s);
  if (wrc != MPI_SUCCESS) {
    char msg[200];
    snprintf(msg, sizeof msg, "warm-up call of %s %s failed with MPI error %d",
             bench_coll_names[warm->c], a ? a->name : "native", wrc);
    die(msg);
  }
  for (int r = 0; r < reps; r++) {
    if (arcoll_barrier_dissemination(MPI_COMM_WORLD, &bar) != MPI_SUCCESS) die("barrier failed");
    double t0 = MPI_Wtime();
    int rc = bench_run_one(x, a, s);
    double t1 = MPI_Wtime();
    if (rc != MPI_SUCCESS) {
      char msg[256];
      snprintf(msg, sizeof msg, "%s %s count %lld failed with MPI error %d",
               bench_coll_names[x->c], a ? a->name : "native", (long long)x->count, rc);
      die(msg);
    }
    double t0min, t1max;
    MPI_Allreduce(&t0, &t0min, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&t1, &t1max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double t = t1max - t0min;
    if (best < 0 || t < best) best = t;
  }
  return best;
}

static void emit(coll_t c, long long m, const char *kind, const char *algo, long long seg, int k,
                 double t, double pred) {
  if (rank_ == 0) {
    printf("%s,%d,%lld,%s,%s,%lld,%d,%.9e,%.9e\n", bench_coll_names[c], nprocs_, m, kind, algo,
           seg, k, t, pred);
    fflush(stdout);
  }
}

/* The sweep's measurements of the current point: auto's candidates that the
 * sweep ran in this process take its time instead of running again (the same
 * simulated call; halves the cost of the tree P = 256 points). */
#define MAXSWEPT 512
typedef struct {
  const arcoll_algo_desc_t *algo;
  long long seg; /* 0: one segment */
  double t;
} swept_t;

#ifdef ARCOLL_BENCH_HAVE_SELECT
/* The sweep's time of configuration *ch (default k only), or -1. */
static double sweep_time(const swept_t *sw, int n, const arcoll_choice_t *ch) {
  const long long seg = ch->segment_bytes > 0 ? (long long)ch->segment_bytes : 0;
  if (ch->k != 0) return -1;
  for (int i = 0; i < n; i++)
    if (sw[i].algo == ch->algo && sw[i].seg == seg) return sw[i].t;
  return -1;
}
#endif

static int in_list(const char *name, const char *list) {
  if (!list) return 1;
  size_t n = strlen(name);
  for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
    if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs_);

  const char *coll_s = NULL, *sizes_s = NULL, *mode = "algos", *algos = NULL, *op_s = "noop";
  const char *segs_s = "0,4K,16K,64K,256K,1M";
  long long max_segs = 1024;
  int reps = 1;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (strcmp(argv[i], name) == 0 && v && ++i)
    if (OPT("--coll")) coll_s = v;
    else if (OPT("--sizes")) sizes_s = v;
    else if (OPT("--mode")) mode = v;
    else if (OPT("--segs")) segs_s = v;
    else if (OPT("--max-segs")) max_segs = atoll(v);
    else if (OPT("--algos")) algos = v;
    else if (OPT("--reps")) reps = atoi(v);
    else if (OPT("--op")) op_s = v;
    else {
      char msg[300];
      snprintf(msg, sizeof msg,
               "unknown or incomplete argument '%s' (usage: --coll bcast,reduce,... "
               "--sizes 8,64,... [--mode algos,auto,native] [--segs 0,1K,...] [--max-segs N] "
               "[--algos a,b] [--reps N] [--op sum|noop])",
               argv[i]);
      die(msg);
    }
#undef OPT
  }
  if (!coll_s || !sizes_s) die("--coll and --sizes are required");
  int want[C_NCOLL] = {0}, nwant = 0;
  for (int i = 0; i < C_NCOLL; i++)
    if (in_list(bench_coll_names[i], coll_s)) want[i] = 1, nwant++;
  if (nwant == 0)
    die("--coll must list some of bcast, reduce, allreduce, scan, gather, scatter, alltoall, "
        "allgather, reduce_scatter_block, allgatherv, gatherv, scatterv, alltoallv, "
        "reduce_scatter (comma-separated)");
  long long sizes[MAXLIST], segs[MAXLIST];
  int nsizes = parse_list(sizes_s, sizes, MAXLIST);
  int nsegs = parse_list(segs_s, segs, MAXLIST);
  if (nsizes <= 0) die("--sizes: expected a comma-separated list of byte counts (suffix K/M allowed)");
  if (nsegs <= 0) die("--segs: expected a comma-separated list of byte counts (suffix K/M allowed)");
  if (reps < 1) die("--reps must be >= 1");
  MPI_Op op;
  if (strcmp(op_s, "sum") == 0) op = MPI_SUM;
  else if (strcmp(op_s, "noop") == 0) MPI_Op_create(noop_op, 1, &op);
  else die("--op must be sum or noop");
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0); /* zeros: header */

  long long maxb = 64;
  for (int i = 0; i < nsizes; i++) {
    if (sizes[i] % 8 != 0 || sizes[i] == 0) die("--sizes: every size must be a positive multiple of 8 bytes");
    for (int c = 0; c < C_NCOLL; c++) {
      if (!want[c]) continue;
      const long long m = bench_effective_m((coll_t)c, sizes[i], nprocs_);
      if (bench_is_block((coll_t)c) && m % (4LL * nprocs_) != 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "--sizes: %s at P = %d needs m a multiple of 4 P = %d bytes, got %lld",
                 bench_coll_names[c], nprocs_, 4 * nprocs_, m);
        die(msg);
      }
      const long long b = bench_buffer_bytes((coll_t)c, m, nprocs_);
      if (b > maxb) maxb = b;
    }
  }
  char *sbuf = SMPI_SHARED_MALLOC((size_t)maxb);
  char *rbuf = SMPI_SHARED_MALLOC((size_t)maxb);
  if (!sbuf || !rbuf) die("out of memory for the buffers");
  memset(sbuf, 0, (size_t)maxb);
  memset(rbuf, 0, (size_t)maxb);
  bench_call_t x = {0}, warm = {0};
  if (bench_call_alloc(&x, nprocs_, rank_) || bench_call_alloc(&warm, nprocs_, rank_))
    die("out of memory for the count arrays");
  x.sbuf = warm.sbuf = sbuf, x.rbuf = warm.rbuf = rbuf, x.op = warm.op = op;
  int tag = 100;
#ifdef ARCOLL_BENCH_HAVE_SELECT
  arcoll_model_t model;
  arcoll_model_default(&model);
  const char *mpath = getenv("ARCOLL_MODEL");
  if (mpath && *mpath) {
    char err[512];
    if (arcoll_model_load(mpath, &model, err, sizeof err) != 0) die(err);
  }
  /* the same variables and bounds as libarcoll (adapt/config.c) */
  const int ncand = env_int("ARCOLL_ONLINE_CANDIDATES", ARCOLL_ONLINE_DEFAULT_CANDIDATES, 1, INT_MAX);
  const int refine = env_int("ARCOLL_ONLINE_REFINE", ARCOLL_ONLINE_DEFAULT_REFINE, 0,
                             ARCOLL_ONLINE_MAX_REFINE);
#endif
  for (int c = 0; c < C_NCOLL; c++) {
  if (!want[c]) continue;
  int ntable = 0;
  const arcoll_algo_desc_t *table = bench_table((coll_t)c, &ntable);
  bench_call_set(&warm, (coll_t)c, -1);
  long long done[MAXLIST];
  int ndone = 0;
  for (int si = 0; si < nsizes; si++) {
    const long long m = bench_effective_m((coll_t)c, sizes[si], nprocs_);
    int seen = 0; /* sizes raised to the same m run once */
    for (int d = 0; d < ndone; d++) seen |= done[d] == m;
    if (seen) continue;
    done[ndone++] = m;
    bench_call_set(&x, (coll_t)c, m);
    swept_t swept[MAXSWEPT];
    int nswept = 0;
    if (in_list("algos", mode)) {
      for (int ai = 0; ai < ntable; ai++) {
        const arcoll_algo_desc_t *a = &table[ai];
        if (!in_list(a->name, algos) || !strcmp(a->name, "compressed")) continue;
        for (int gi = 0; gi < nsegs; gi++) {
          long long seg = segs[gi];
          if (!(a->flags & ARCOLL_ALGO_SEGMENTED) && seg != 0) continue;
          if (seg != 0 && (seg >= m || (m + seg - 1) / seg > max_segs)) continue;
          arcoll_sched_t s = {NULL, (MPI_Aint)seg, 0, tag, NULL};
          double t = measure(&x, &warm, a, &s, reps);
          emit((coll_t)c, m, "algo", a->name, seg, 0, t, -1);
          if (nswept < MAXSWEPT) swept[nswept++] = (swept_t){a, seg, t};
        }
      }
    }
    if (in_list("auto", mode)) {
#ifdef ARCOLL_BENCH_HAVE_SELECT
      /* libarcoll's auto (adapt/DISPATCH.md): the model's best candidates for
       * the size libarcoll's dispatcher chooses for (bench_choice_bytes),
       * measured, the fastest kept (collectives/online.h).  One trial each:
       * simulated time is deterministic (libarcoll's default of 2 trials is
       * for real machines' noise), so the kept candidate's steady-state
       * time is its measured time. */
      arcoll_explorer_t ex;
      if (arcoll_explorer_init(&ex, &model, sel_coll[c], nprocs_, bench_choice_bytes(&x), 1,
                               ncand, 1, refine) < 1)
        die("arcoll_select_candidates found no eligible algorithm");
      ex.confirm_block = 0; /* isolated calls: no steady state to confirm (online_confirm.h) */
      const arcoll_choice_t *ch;
      double explore_s = 0;
      while ((ch = arcoll_explorer_next(&ex)) != NULL) { /* every round */
        arcoll_sched_t s = {NULL, ch->segment_bytes, ch->k, tag, NULL};
        double t = sweep_time(swept, nswept, ch);
        if (t < 0) t = measure(&x, &warm, ch->algo, &s, reps);
        explore_s += t;
        if (ex.round == 0 && ch == &ex.cand[0]) /* the model's own choice (arcoll_select) */
          emit((coll_t)c, m, "model", ch->algo->name, (long long)ch->segment_bytes, ch->k, t,
               ch->predicted_s);
        /* as libarcoll (adapt/choice.c): 2 = the imbalance check is due
         * (reduce below 8 KiB, after binomial), 1 = the round's decision */
        const int due = arcoll_explorer_record(&ex, t, 0);
        if ((due == 2 && arcoll_explorer_check(&ex, MPI_COMM_WORLD) != MPI_SUCCESS) ||
            (due == 1 && arcoll_explorer_decide(&ex, MPI_COMM_WORLD) != MPI_SUCCESS))
          die("online decision failed");
      }
      /* every rank recorded the same time t, so the decision's sum over
       * ranks is P t and its max t: auto's time is best_max_s */
      const arcoll_choice_t *w = &ex.best;
      double best_t = ex.best_max_s;
      if (!isfinite(ex.best_s)) { /* no decision (the imbalance check ended it): run it */
        arcoll_sched_t s = {NULL, w->segment_bytes, w->k, tag, NULL};
        best_t = measure(&x, &warm, w->algo, &s, reps);
      }
      emit((coll_t)c, m, "auto", w->algo->name, (long long)w->segment_bytes, w->k, best_t,
           w->predicted_s);
      emit((coll_t)c, m, "explore", "total", 0, ex.runs, explore_s, -1);
#else
      die("--mode auto: this build has no selector (collectives/select.c); rebuild when it exists");
#endif
    }
    if (in_list("native", mode)) {
      double t = measure(&x, &warm, NULL, NULL, reps);
      emit((coll_t)c, m, "native", "smpi", 0, 0, t, -1);
    }
  }
  } /* collectives */
  bench_call_free(&x);
  bench_call_free(&warm);
  SMPI_SHARED_FREE(sbuf);
  SMPI_SHARED_FREE(rbuf);
  if (op != MPI_SUM) MPI_Op_free(&op);
  MPI_Finalize();
  return 0;
}
