/*
 * Test of libarcoll's online selection (collectives/online.h, adapt
 * dispatch): in auto mode the first ncand x trials calls of a (collective,
 * size class) run the model's best candidates, each `trials` times in a row; then the
 * candidate measured fastest, at most `refine` rounds of it at other segment
 * sizes (trials x (refine + 1) calls at most), then always the fastest.
 *
 *   online_check <reduce|allreduce|bcast|scatter> <bytes> <ncand> <trials> <extra calls> <timing 0|1> <refine> [tuned|lag=L]
 *
 * ncand / trials / refine must be the values of ARCOLL_ONLINE_CANDIDATES /
 * ARCOLL_ONLINE_TRIALS / ARCOLL_ONLINE_REFINE the run was given.  Checks, on
 * every rank:
 *  - every call's result, element by element, against a reference computed
 *    here (int sum; bcast: the root's pattern);
 *  - all ranks ran the same algorithm at every call (names compared);
 *  - the exploration: blocks of `trials` calls of one configuration each
 *    (names constant within each block), then one algorithm W on every call
 *    (the segment refinement keeps the algorithm), W one of the measured;
 *  - timing = 1 (SMPI only: simulated time is deterministic; wall-clock
 *    times are never asserted; needs extra > trials x (refine + 1)): W is
 *    among the fastest by this program's own measurement (per call the max
 *    over ranks of the local time): W's fastest measured call <= 1.1 x the
 *    fastest call of the exploration (the selection keeps, among the
 *    configurations whose period - this program's barriers and checks
 *    included - is within 5 % of the smallest, the one with the smallest
 *    sum over ranks, collectives/online.h; a few % more cover the dispatch's
 *    own bookkeeping inside the timed region), and every call after the
 *    exploration takes at most 1.1 x the fastest call measured in it.
 * The ARCOLL_ONLINE_WARMUP calls (default 1) before round 0 must run its
 * first candidate; the checks above start after them.
 * Prints "online_check <coll> P=<P>: OK" and the measured table.
 * With lag=L (a run given ARCOLL_ONLINE_LAG=L, adapt/decision.h: the
 * decision applies L calls after round 0, which meanwhile runs its first
 * candidate - bcast, scatter: the last measured configuration, online.h
 * `held`): round 0 is ncand x trials calls in blocks, then the L calls of
 * the lag, then W on every call.
 * Bcast from 8 KiB with ncand >= 3: the streaming candidate (chain) runs one
 * unmeasured call before its trials unless it is the first candidate.
 * With `tuned` (a run given ARCOLL_TUNING, adapt/tuning.h) the checks of the
 * exploration are replaced by: every call ran the same algorithm W (no
 * exploration); prints "online_check <coll> P=<P>: OK (tuned, every call W)".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"

#define MAXCALLS 96
#define NAMELEN 32

static int me, P;

static void fail(const char *msg, const char *a, int i) {
  fprintf(stderr, "online_check: rank %d: FAIL: %s (%s, %d)\n", me, msg, a ? a : "", i);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static int value(int rank, int call, int i) { return (rank * 7 + call * 13 + i) % 1000 - 500; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (argc < 8) {
    if (me == 0)
      fprintf(stderr, "usage: online_check <reduce|allreduce|bcast|scatter> <bytes> <ncand> <trials> "
                      "<extra calls> <timing 0|1> <refine>\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *coll = argv[1];
  const int count = atoi(argv[2]) / (int)sizeof(int);
  const int ncand = atoi(argv[3]), trials = atoi(argv[4]);
  const int extra = atoi(argv[5]), timing = atoi(argv[6]), refine = atoi(argv[7]);
  /* the warm-up calls (ARCOLL_ONLINE_WARMUP, default 1; collectives/online_pacing.h)
   * run the first candidate unmeasured before round 0 */
  const char *wu = getenv("ARCOLL_ONLINE_WARMUP");
  const int warm = wu && *wu ? atoi(wu) : 1;
  int ncalls = ncand * trials + extra + warm;
  const int refine_calls = refine > 0 ? trials * (refine + 1) : 0; /* at most */
  if (count < 1 || ncand < 1 || trials < 1 || refine < 0 || ncalls > MAXCALLS ||
      (timing && extra <= refine_calls))
    fail("bad arguments", argv[2], ncalls);
  last_fn last = get_last();
  if (!last) fail("libarcoll is not active (arcoll_last_algorithm missing)", NULL, 0);

  int *in = malloc(sizeof(int) * (size_t)count), *out = malloc(sizeof(int) * (size_t)count);
  static char names[MAXCALLS][NAMELEN];
  double t[MAXCALLS];
  const int root = P > 1 ? 1 : 0;
  for (int call = 0; call < ncalls; ++call) {
    for (int i = 0; i < count; ++i) in[i] = value(me, call, i), out[i] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (!strcmp(coll, "reduce")) MPI_Reduce(in, out, count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    else if (!strcmp(coll, "allreduce")) MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(coll, "bcast")) {
      if (me == root) memcpy(out, in, sizeof(int) * (size_t)count);
      MPI_Bcast(out, count, MPI_INT, root, MPI_COMM_WORLD);
    } else if (!strcmp(coll, "scatter")) { /* block r: value(root, call, r * count + i) */
      int *blocks = NULL;
      if (me == root) {
        blocks = malloc(sizeof(int) * (size_t)count * (size_t)P);
        for (int r = 0; r < P; ++r)
          for (int i = 0; i < count; ++i) blocks[(size_t)r * count + i] = value(root, call, r * count + i);
      }
      MPI_Scatter(blocks, count, MPI_INT, out, count, MPI_INT, root, MPI_COMM_WORLD);
      free(blocks);
    } else fail("unknown collective", coll, 0);
    double dt = MPI_Wtime() - t0;
    /* read at once: the MPI_Allreduce below (through libarcoll too) overwrites it */
    const char *a = last(coll);
    if (!a) fail("arcoll_last_algorithm returned NULL", coll, call);
    snprintf(names[call], NAMELEN, "%s", a);
    MPI_Allreduce(&dt, &t[call], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    /* results */
    const int check = strcmp(coll, "reduce") != 0 || me == root;
    for (int i = 0; check && i < count; ++i) {
      long long ref = 0;
      if (!strcmp(coll, "bcast")) ref = value(root, call, i);
      else if (!strcmp(coll, "scatter")) ref = value(root, call, me * count + i);
      else for (int r = 0; r < P; ++r) ref += value(r, call, i);
      if (out[i] != (int)ref) fail("wrong result", coll, i);
    }
    /* same algorithm on all ranks */
    char *all = malloc((size_t)P * NAMELEN);
    MPI_Allgather(names[call], NAMELEN, MPI_CHAR, all, NAMELEN, MPI_CHAR, MPI_COMM_WORLD);
    for (int r = 0; r < P; ++r)
      if (strcmp(all + (size_t)r * NAMELEN, names[call])) fail("ranks ran different algorithms", names[call], call);
    free(all);
  }
  if (argc > 8 && !strcmp(argv[8], "tuned")) {
    for (int call = 1; call < ncalls; ++call)
      if (strcmp(names[call], names[0])) fail("a tuned run explored (algorithms differ)", names[call], call);
    if (me == 0) printf("online_check %s P=%d: OK (tuned, every call %s)\n", coll, P, names[0]);
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
  }
  /* the warm-up: the first candidate (the call after it), then checked
   * as if round 0 began there */
  for (int call = 0; call < warm && warm < ncalls; ++call)
    if (strcmp(names[call], names[warm])) fail("a warm-up call did not run the first candidate", names[call], call);
  ncalls -= warm;
  memmove(names, names + warm, sizeof names[0] * (size_t)ncalls);
  memmove(t, t + warm, sizeof t[0] * (size_t)ncalls);
  /* the MPI library's own collective, measured where ranks share a node
   * (collectives/native.h): one more candidate, its block opened by `warm`
   * unmeasured calls of its own */
  int native = 0;
  for (int call = 0; call < ncalls && !native; ++call) {
    if (strcmp(names[call], "native")) continue;
    native = 1;
    if (call % trials) fail("the native candidate's block does not start a block", names[call], call);
    for (int j = call; j < call + warm + trials && j < ncalls; ++j)
      if (strcmp(names[j], "native")) fail("the native block is not warm-up + trials calls", names[j], j);
    ncalls -= warm;
    memmove(names + call, names + call + warm, sizeof names[0] * (size_t)(ncalls - call));
    memmove(t + call, t + call + warm, sizeof t[0] * (size_t)(ncalls - call));
  }
  /* bcast from 8 KiB (ARCOLL_STREAM_MIN_BYTES), 3 or more candidates: the
   * streaming candidate (the chain, collectives/online.c) warms up with one
   * unmeasured call of its own unless it is the first candidate */
  if (!strcmp(coll, "bcast") && (size_t)count * sizeof(int) >= 8192 && ncand >= 3) {
    int at = -1;
    for (int call = 0; call < ncalls && at < 0; ++call)
      if (!strcmp(names[call], "chain")) at = call;
    if (at > 0) {
      if (at % trials) fail("the streaming candidate's block does not start a block", names[at], at);
      for (int j = at; j <= at + trials && j < ncalls; ++j)
        if (strcmp(names[j], "chain")) fail("the streaming block is not warm-up + trials calls", names[j], j);
      ncalls -= 1;
      memmove(names + at, names + at + 1, sizeof names[0] * (size_t)(ncalls - at));
      memmove(t + at, t + at + 1, sizeof t[0] * (size_t)(ncalls - at));
    }
  }
  /* exploration: blocks of `trials` calls of one configuration each (round
   * 0's candidates, then the kept algorithm at refined segment sizes), then
   * the kept algorithm W on every call.  Two candidates may share a name
   * (segmented and unsegmented), so the blocks are checked, not counted. */
  const char *w = names[ncalls - 1];
  int end = ncalls; /* start of W's final run of calls */
  while (end > 0 && !strcmp(names[end - 1], w)) --end;
  if (me == 0) {
    for (int call = 0; call < ncalls; ++call)
      printf("  call %2d %-20s %.6e s%s\n", call, names[call], t[call], call < end ? "" : "  (kept)");
    fflush(stdout);
  }
  if (end < trials) fail("no exploration before the kept algorithm", w, end);
  const int lag = argc > 8 && !strncmp(argv[8], "lag=", 4) ? atoi(argv[8] + 4) : 0;
  if (lag > 0) { /* the deferred decision (adapt/decision.h) */
    /* bcast, scatter: the lag runs the last measured configuration
     * (collectives/online.h `held`) - when it is W, the lag is part of W's
     * final run; the others: the first candidate */
    const int rooted = !strcmp(coll, "bcast") || !strcmp(coll, "scatter");
    const char *lag_algo = rooted ? (end > 0 ? names[end - 1] : w) : names[0];
    int uniform = end >= lag + trials;
    for (int call = end - lag; uniform && call < end; ++call) uniform = !strcmp(names[call], lag_algo);
    if (!rooted && strcmp(w, names[0]) != 0) {
      if (end < lag + trials) fail("no exploration before the lag", w, end);
      if (!uniform) fail("a call of the lag did not run the first candidate", w, end);
    }
    if (uniform && strcmp(w, lag_algo) != 0 && (end - lag) % trials == 0) end -= lag; /* round 0 */
    if (end % trials) fail("round 0 is not whole blocks of trials calls", w, end);
  }
  for (int call = 0; call < end; ++call)
    if (strcmp(names[call], names[call - call % trials]))
      fail("exploration not in blocks of trials calls of one candidate", names[call], call);
  const int explore = (ncand + native) * trials + refine_calls + lag < ncalls
                          ? (ncand + native) * trials + refine_calls + lag
                          : ncalls;
  double bmin = 1e300, wbest = 1e300; /* fastest call of the exploration, and of W in it */
  for (int call = 0; call < explore; ++call) {
    if (t[call] < bmin) bmin = t[call];
    if (!strcmp(names[call], w) && t[call] < wbest) wbest = t[call];
  }
  if (wbest == 1e300) fail("the kept algorithm is not one of the measured candidates", w, end);
  if (timing && wbest > 1.1 * bmin) fail("the kept algorithm is not the fastest measured", w, end);
  /* after the refinement the steady state runs as fast as the fastest
   * configuration measured (a bcast order that changed after the
   * measurement would show here) */
  const int steady = explore;
  double tmin = 1e300;
  for (int call = 0; call < steady && call < ncalls; ++call)
    if (t[call] < tmin) tmin = t[call];
  for (int call = steady; timing && call < ncalls; ++call)
    if (t[call] > 1.1 * tmin) fail("a call after the choice is > 10 % slower than the fastest measured", w, call);
  if (me == 0) printf("online_check %s P=%d: OK (%d exploration calls in blocks of %d, kept %s)\n", coll, P, end, trials, w);
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
