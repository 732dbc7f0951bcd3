/*
 * coll_loop: an application-pattern loop of one collective with injected
 * lateness, for the benchmark of the adaptive layer (tools/adapt-bench.sh).
 * Plain MPI C: arcoll, when used, is linked in (SMPI) or LD_PRELOADed
 * (MPICH); this program does not know it.  Builds with smpicc and mpicc.mpich.
 *
 * Usage: coll_loop -c bcast|reduce|gather|allreduce|scatter|allgather|
 *                     reduce_scatter_block|alltoall|gatherv|scatterv|
 *                     allgatherv|alltoallv|reduce_scatter [-m bytes] [-n calls]
 *                  [-s scenario] [-d delay_s] [-r root] [-R] [-w work_s] [-S seed] [-L rank]
 *                  [-o sum|affine|mixed|affine_declared_commutative] [-v] [-p] [-e]
 *   -m  bytes per rank (gather, scatter, allgather, reduce_scatter_block,
 *       alltoall: the block of one rank; the v-variants: its mean, blocks of
 *       0.5, 1, 1.5 x that, coll_loop_v.h), rounded down
 *       to whole 4-byte unsigned elements (default 32768)
 *   -n  calls (default 200);  -r root (default 0);  -S seed of `noise` and `moving` (default 1)
 *   -R  the root rotates: call c has root (r + c) % P (a panel broadcast's
 *       pattern); every rank holds the root's buffers, the scenarios' late
 *       ranks are those of that call's root; not for the v-variants
 *   -o  the reduction of reduce / allreduce: sum (default, MPI_SUM of
 *       MPI_UNSIGNED), affine (a user-defined NON-commutative op on pairs of
 *       unsigned, bytes / 8 pairs per rank, coll_loop_affine.h) or mixed
 *       (affine in odd calls, sum in even ones: one call site's state serves
 *       both); affine_declared_commutative: affine created with commute = 1
 *       (false: the negative control of the check, coll_loop_affine.h)
 *   -v  every rank prints its own time inside and loop time to stderr (RANK r ...)
 *   -p  rank 0 also prints, per call c, the time inside summed over ranks
 *       (CALL c inside_sum=<s>), one MPI_Reduce of the calls' times after the
 *       loop: where a run's time goes (exploration, pipeline fills, exchanges)
 *   -e  rank 0 also prints every rank's entry and exit time of every call
 *       (ENTRY / EXIT lines, coll_loop_times.h)
 *   -d  delay of the late ranks in seconds (default 1e-3; seed001: 3e-3 unless given;
 *       noise: the largest delay, default 200e-6)
 *   -w  computation every rank does before every call, seconds (default 0)
 *   -s  scenario, the delay is injected before every call on:
 *       balanced   nobody
 *       one_late   rank 3P/8 (24 at P=64, 96 at P=256: an inner node of the
 *                  binomial tree from root 0, subtree P/8; not P/2), or the
 *                  rank -L names (any rank; the root: a late root): the steady
 *                  state of one window of `moving` (tools/adapt-recovery.sh)
 *       eight_late ranks (i*P/8 + P/16) % P, i = 0..7 (inner nodes with
 *                  children from root 0), the root left out
 *       moving     rank ((call/10)*37 + 11) % P with -S 1, else a rank drawn per
 *                  window of 10 calls (splitmix64 of (seed, call/10)); the next
 *                  rank if that is the root
 *       noise      every rank, 0..200 us (-d: 0..d in 201 steps), splitmix64 of
 *                  (seed, rank, call)
 *       late_root  the root
 *       seed001    rank P/2 (seed 001: rank 128 of 256 loaded, 3 ms)
 *       settled    moving for the first half of the calls, then nobody: what
 *                  the lateness seen early costs once it is gone
 * Delays and work: under SMPI smpi_execute_flops(seconds x host speed)
 * (simulated time, exact); on real MPI a busy-wait on MPI_Wtime.
 * Pattern: MPI_Barrier; the calls back to back; MPI_Barrier.  Per rank:
 * time inside the collective (t_exit - t_entry around the MPI call only,
 * summed over calls) and loop time (after the first barrier to before the
 * last one).  Output on rank 0, one line, seconds:
 *   RESULT coll=C scenario=S ranks=P bytes=M calls=N inside_sum=<sum over
 *          ranks and calls> loop=<max over ranks> errors=E
 * Checks (every call, against values each rank computes itself): element i
 * of rank r at call c is v(c, r, i) = a(c, i) + r b(c, i) (mod 2^32).  bcast:
 * v(c, root, i) everywhere; reduce/allreduce: MPI_SUM of v over ranks =
 * P a + b P(P-1)/2 (reduce: the root checks); gather: the root checks, per
 * call, every element i = c (mod S) of every block (all of them over S
 * calls; S = 1 while P x count <= max(count, 65536)), so its check costs
 * O(m + P); scatter: the root rewrites, per call, the elements i = c (mod S)
 * of its send buffer (an element holds v of the last call that wrote it) and
 * every rank checks its whole block; allgather: every rank checks, per call,
 * the elements i = c (mod S) of every block; reduce_scatter_block, alltoall:
 * every rank rewrites, per call, the elements i = c (mod S) of each of its P
 * send blocks (block q element i holds v(last call, me, q count + i)) and
 * checks its received block (reduce_scatter_block: whole, the sum over ranks
 * of the last writes) or blocks (alltoall: the elements i = c (mod S)).
 * The v-variants' blocks and checks: coll_loop_v.h; -o affine's: coll_loop_affine.h;
 * -e's times: coll_loop_times.h.
 * E = wrong elements over all ranks;
 * exit status 1 when E > 0.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(SMPI_SAMPLE_FLOPS) /* SimGrid's smpi.h (included by its mpi.h) */
#define CL_SIMULATED 1
#include <simgrid/host.h>
#endif

enum { C_BCAST, C_REDUCE, C_GATHER, C_ALLREDUCE, C_SCATTER, C_ALLGATHER, C_RSB, C_ALLTOALL,
       C_GATHERV, C_SCATTERV, C_ALLGATHERV, C_ALLTOALLV, C_RS };
static const char *coll_names[] = {"bcast",     "reduce",  "gather",
                                   "allreduce", "scatter", "allgather",
                                   "reduce_scatter_block", "alltoall", "gatherv", "scatterv",
                                   "allgatherv", "alltoallv", "reduce_scatter", NULL};
enum { S_BALANCED, S_ONE_LATE, S_EIGHT_LATE, S_MOVING, S_NOISE, S_LATE_ROOT, S_SEED001, S_SETTLED };
static const char *scen_names[] = {"balanced", "one_late", "eight_late", "moving", "noise",
                                   "late_root", "seed001", "settled", NULL};

static void spend(double seconds) { /* simulated or busy-waited time */
  if (seconds <= 0) return;
#ifdef CL_SIMULATED
  smpi_execute_flops(seconds * sg_host_get_speed(sg_host_self()));
#else
  double t0 = MPI_Wtime();
  while (MPI_Wtime() - t0 < seconds) {
  }
#endif
}

static uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* v(c, r, i) = a(c, i) + r b(c, i), unsigned arithmetic (mod 2^32) */
static inline unsigned va(int c, long i) { return ((unsigned)c * 2654435761u) ^ ((unsigned)i * 40503u + 17u); }
static inline unsigned vb(int c, long i) { return ((unsigned)c * 0x9E3779B9u + (unsigned)i * 2246822519u) | 1u; }
static inline unsigned v(int c, int r, long i) { return va(c, i) + (unsigned)r * vb(c, i); }

/* last call <= c that wrote element i of a stride-S stamped buffer, -1: the initial fill */
static inline int last_call(int c, long i, long S) {
  long p = i % S, back = ((c - p) % S + S) % S;
  long l = c - back;
  return l < 0 ? -1 : (int)l;
}

#include "coll_loop_v.h"
#include "coll_loop_affine.h"
#include "coll_loop_times.h"

static int lookup(const char **names, const char *s) {
  for (int i = 0; names[i]; ++i)
    if (strcmp(names[i], s) == 0) return i;
  return -1;
}

static void usage(int me, const char *prog) {
  if (me == 0)
    fprintf(stderr, "usage: %s -c bcast|reduce|gather|allreduce|scatter|allgather|"
                    "reduce_scatter_block|alltoall|gatherv|scatterv|allgatherv|alltoallv|"
                    "reduce_scatter [-m bytes] [-n calls] "
                    "[-s balanced|one_late|eight_late|moving|noise|late_root|seed001|settled] [-d delay_s] "
                    "[-r root] [-R] [-w work_s] [-S seed] [-L rank] "
                    "[-o sum|affine|mixed|affine_declared_commutative] [-v] [-p] [-e]\n", prog);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

/* delay of rank me before call c */
/* late1: one_late's rank (-L), -1: 3P/8 */
static double delay_of(int scen, int me, int P, int root, int c, int n, double d, uint64_t seed,
                       int late1) {
  if (scen == S_SETTLED) scen = c < n / 2 ? S_MOVING : S_BALANCED;
  switch (scen) {
    case S_ONE_LATE:
      if (late1 >= 0) return me == late1 ? d : 0;
      return P > 2 && me == 3 * P / 8 ? d : 0;
    case S_EIGHT_LATE:
      for (int i = 0; i < 8; ++i) {
        int r = (int)(((long)i * P / 8 + P / 16) % P);
        if (r != root && r == me) return d;
      }
      return 0;
    case S_MOVING: {
      const long w = c / 10; /* -S 1: the table's sequence; another seed: a random rank per window */
      int r = seed == 1 ? (int)((w * 37 + 11) % P)
                        : (int)(splitmix64(splitmix64(seed) ^ (uint64_t)w) % (uint64_t)P);
      if (r == root) r = (r + 1) % P;
      return me == r ? d : 0;
    }
    case S_NOISE: {
      uint64_t h = splitmix64(splitmix64(splitmix64(seed) ^ (uint64_t)me) ^ (uint64_t)c);
      return (double)(h % 201) * (d / 200.0);
    }
    case S_LATE_ROOT: return me == root ? d : 0;
    case S_SEED001: return me == P / 2 ? d : 0;
    default: return 0;
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int P, me;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int coll = -1, scen = S_BALANCED, calls = 200, root0 = 0, delay_given = 0, rotate = 0;
  int late1 = -1; /* -L */
  int opmode = OP_SUM; /* -o */
  long bytes = 32768;
  double delay = 1e-3, work = 0;
  uint64_t seed = 1;
  int opt, verbose = 0, per_call = 0, times = 0;
  while ((opt = getopt(argc, argv, "c:m:n:s:d:r:Rw:S:L:o:vpeh")) != -1) {
    switch (opt) {
      case 'c': coll = lookup(coll_names, optarg); if (coll < 0) usage(me, argv[0]); break;
      case 'm': bytes = atol(optarg); break;
      case 'n': calls = atoi(optarg); break;
      case 's': scen = lookup(scen_names, optarg); if (scen < 0) usage(me, argv[0]); break;
      case 'd': delay = atof(optarg); delay_given = 1; break;
      case 'r': root0 = atoi(optarg); break;
      case 'R': rotate = 1; break;
      case 'w': work = atof(optarg); break;
      case 'S': seed = strtoull(optarg, NULL, 10); break;
      case 'L': {
        char *end;
        long r = strtol(optarg, &end, 10);
        late1 = end == optarg || *end || r < 0 || r >= P ? P : (int)r; /* P: invalid */
        break;
      }
      case 'o': opmode = lookup(op_names, optarg); if (opmode < 0) usage(me, argv[0]); break;
      case 'v': verbose = 1; break;
      case 'p': per_call = 1; break;
      case 'e': times = 1; break;
      default: usage(me, argv[0]);
    }
  }
  if (coll < 0 || calls < 1 || bytes < 0 || root0 < 0 || root0 >= P || delay < 0 || work < 0 ||
      (rotate && coll >= C_GATHERV) || late1 >= P || (late1 >= 0 && scen != S_ONE_LATE) ||
      (opmode != OP_SUM && coll != C_REDUCE && coll != C_ALLREDUCE)) {
    if (me == 0)
      fprintf(stderr, "coll_loop: invalid arguments: need -c, calls >= 1, bytes >= 0, "
                      "0 <= root < %d, delay >= 0, work >= 0; -R not with the v-variants; "
                      "-L 0..P-1 only with -s one_late; -o only with reduce, allreduce\n", P);
    usage(me, argv[0]);
  }
  if (scen == S_SEED001 && !delay_given) delay = 3e-3;
  if (scen == S_NOISE && !delay_given) delay = 200e-6;

  long count = bytes / (long)sizeof(unsigned);
  size_t n1 = (size_t)(count > 0 ? count : 1), nP = n1 * (size_t)P;
  int root = root0, is_root = me == root;
  const int holds = rotate || is_root; /* holds the root's buffers */
  /* stride of the root's partial check (gather) / partial rewrite (scatter;
   * a rotating root rewrites its whole buffer: S = 1) */
  long budget = count > 65536 ? count : 65536;
  long S = ((long)P * count + budget - 1) / budget;
  if (S < 1 || (rotate && coll == C_SCATTER)) S = 1;
  unsigned *sbuf = NULL, *rbuf = NULL;
  switch (coll) {
    case C_BCAST: sbuf = malloc(sizeof(unsigned) * n1); break;
    case C_REDUCE:
    case C_ALLREDUCE:
      sbuf = malloc(sizeof(unsigned) * n1);
      if (coll == C_ALLREDUCE || holds) rbuf = malloc(sizeof(unsigned) * n1);
      break;
    case C_GATHER:
      sbuf = malloc(sizeof(unsigned) * n1);
      if (holds) rbuf = malloc(sizeof(unsigned) * nP);
      break;
    case C_ALLGATHER:
      sbuf = malloc(sizeof(unsigned) * n1);
      rbuf = malloc(sizeof(unsigned) * nP);
      break;
    case C_RSB:
    case C_ALLTOALL:
      sbuf = malloc(sizeof(unsigned) * nP);
      rbuf = malloc(sizeof(unsigned) * (coll == C_RSB ? n1 : nP));
      if (sbuf)
        for (int q = 0; q < P; ++q)
          for (long i = 0; i < count; ++i) sbuf[(size_t)q * count + i] = v(-1, me, q * count + i);
      break;
    case C_SCATTER:
      rbuf = malloc(sizeof(unsigned) * n1);
      if (holds) {
        sbuf = malloc(sizeof(unsigned) * nP);
        for (int r = 0; r < P; ++r)
          for (long i = 0; i < count; ++i) sbuf[(size_t)r * count + i] = v(-1, r, i);
      }
      break;
  }
  cl_v_t vx = {coll, P, me, root, count, S, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0};
  if (coll >= C_GATHERV && cl_v_setup(&vx)) MPI_Abort(MPI_COMM_WORLD, 3);
  if (coll < C_GATHERV && (coll != C_SCATTER || holds) && !sbuf) MPI_Abort(MPI_COMM_WORLD, 3);
  unsigned Pu = (unsigned)P, tri = (unsigned)((unsigned long long)P * (P - 1) / 2);
  long errors = 0;
  double inside = 0;
  double *call_inside = per_call ? calloc((size_t)calls, sizeof(double)) : NULL;
  if (per_call && !call_inside) MPI_Abort(MPI_COMM_WORLD, 3);
  cl_times_t tx = {NULL, 0};
  if (times) cl_times_setup(&tx, calls);
  const int cnt = (int)count;
  cl_affine_t ax;
  memset(&ax, 0, sizeof ax);
  if (opmode != OP_SUM) cl_affine_setup(&ax, count, P, opmode == OP_AFFINE_COMMUTE);

  MPI_Barrier(MPI_COMM_WORLD);
  double t_loop0 = MPI_Wtime();
  for (int c = 0; c < calls; ++c) {
    if (rotate) root = (root0 + c) % P, is_root = me == root;
    spend(work);
    spend(delay_of(scen, me, P, root, c, calls, delay, seed, late1));
    /* this call's op: affine unless -o sum, or -o mixed in an even call */
    const int affine = opmode != OP_SUM && (opmode != OP_MIXED || (c & 1));
    /* the send data of this call */
    if (coll == C_BCAST && is_root)
      for (long i = 0; i < count; ++i) sbuf[i] = v(c, root, i);
    else if (affine)
      cl_affine_fill(&ax, sbuf, c, me);
    else if (coll == C_REDUCE || coll == C_ALLREDUCE || coll == C_GATHER || coll == C_ALLGATHER)
      for (long i = 0; i < count; ++i) sbuf[i] = v(c, me, i);
    else if (coll == C_SCATTER && is_root)
      for (int r = 0; r < P; ++r)
        for (long i = c % S; i < count; i += S) sbuf[(size_t)r * count + i] = v(c, r, i);
    else if (coll == C_RSB || coll == C_ALLTOALL)
      for (int q = 0; q < P; ++q)
        for (long i = c % S; i < count; i += S) sbuf[(size_t)q * count + i] = v(c, me, q * count + i);
    if (coll >= C_GATHERV) cl_v_fill(&vx, c);
    double t0 = MPI_Wtime();
    if (coll >= C_GATHERV) cl_v_call(&vx);
    /* one call site for both ops (-o mixed): the reduction's count, type and op */
    const int rn = affine ? (int)ax.pairs : cnt;
    const MPI_Datatype rdt = affine ? ax.pair : MPI_UNSIGNED;
    const MPI_Op rop = affine ? ax.op : MPI_SUM;
    switch (coll) {
      case C_BCAST: MPI_Bcast(sbuf, cnt, MPI_UNSIGNED, root, MPI_COMM_WORLD); break;
      case C_REDUCE: MPI_Reduce(sbuf, rbuf, rn, rdt, rop, root, MPI_COMM_WORLD); break;
      case C_ALLREDUCE: MPI_Allreduce(sbuf, rbuf, rn, rdt, rop, MPI_COMM_WORLD); break;
      case C_GATHER: MPI_Gather(sbuf, cnt, MPI_UNSIGNED, rbuf, cnt, MPI_UNSIGNED, root, MPI_COMM_WORLD); break;
      case C_SCATTER: MPI_Scatter(sbuf, cnt, MPI_UNSIGNED, rbuf, cnt, MPI_UNSIGNED, root, MPI_COMM_WORLD); break;
      case C_ALLGATHER: MPI_Allgather(sbuf, cnt, MPI_UNSIGNED, rbuf, cnt, MPI_UNSIGNED, MPI_COMM_WORLD); break;
      case C_RSB: MPI_Reduce_scatter_block(sbuf, rbuf, cnt, MPI_UNSIGNED, MPI_SUM, MPI_COMM_WORLD); break;
      case C_ALLTOALL: MPI_Alltoall(sbuf, cnt, MPI_UNSIGNED, rbuf, cnt, MPI_UNSIGNED, MPI_COMM_WORLD); break;
    }
    const double dt = MPI_Wtime() - t0;
    inside += dt;
    if (call_inside) call_inside[c] = dt;
    cl_times_note(&tx, c, t0, t0 + dt);
    /* check */
    long bad = coll >= C_GATHERV ? cl_v_check(&vx, c) : 0;
    switch (coll) {
      case C_BCAST:
        if (!is_root)
          for (long i = 0; i < count; ++i) bad += sbuf[i] != v(c, root, i);
        break;
      case C_REDUCE:
      case C_ALLREDUCE:
        if (coll == C_REDUCE && !is_root) break;
        if (affine)
          bad += cl_affine_check(&ax, rbuf, c, P, me);
        else
          for (long i = 0; i < count; ++i) bad += rbuf[i] != Pu * va(c, i) + tri * vb(c, i);
        break;
      case C_GATHER:
        if (is_root)
          for (int r = 0; r < P; ++r)
            for (long i = c % S; i < count; i += S) bad += rbuf[(size_t)r * count + i] != v(c, r, i);
        break;
      case C_SCATTER:
        for (long i = 0; i < count; ++i) bad += rbuf[i] != v(last_call(c, i, S), me, i);
        break;
      case C_ALLGATHER:
        for (int r = 0; r < P; ++r)
          for (long i = c % S; i < count; i += S) bad += rbuf[(size_t)r * count + i] != v(c, r, i);
        break;
      case C_RSB:
        for (long i = 0; i < count; ++i) {
          const int l = last_call(c, i, S);
          const long j = me * count + i;
          bad += rbuf[i] != Pu * va(l, j) + tri * vb(l, j);
        }
        break;
      case C_ALLTOALL:
        for (int q = 0; q < P; ++q)
          for (long i = c % S; i < count; i += S)
            bad += rbuf[(size_t)q * count + i] != v(c, q, me * count + i);
        break;
    }
    if (bad && errors == 0) /* the first bad call of this rank */
      fprintf(stderr, "coll_loop: rank %d call %d: %ld wrong elements (%s%s, %ld bytes, root %d)\n",
              me, c, bad, coll_names[coll], affine ? " with the affine op" : "",
              count * (long)sizeof(unsigned), root);
    errors += bad;
  }
  double t_loop1 = MPI_Wtime();
  MPI_Barrier(MPI_COMM_WORLD);

  double loop = t_loop1 - t_loop0, inside_sum = 0, loop_max = 0;
  long total_errors = 0;
  if (verbose) fprintf(stderr, "RANK %d inside=%.9g loop=%.9g\n", me, inside, loop);
  MPI_Reduce(&inside, &inside_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&loop, &loop_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&errors, &total_errors, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) {
    printf("RESULT coll=%s scenario=%s ranks=%d bytes=%ld calls=%d inside_sum=%.9g loop=%.9g "
           "errors=%ld\n", coll_names[coll], scen_names[scen], P, count * (long)sizeof(unsigned),
           calls, inside_sum, loop_max, total_errors);
    fflush(stdout);
  }
  if (call_inside) {
    double *sum = me == 0 ? calloc((size_t)calls, sizeof(double)) : NULL;
    if (me == 0 && !sum) MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Reduce(call_inside, sum, calls, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
      for (int c = 0; c < calls; ++c) printf("CALL %d inside_sum=%.9g\n", c, sum[c]);
    free(sum);
    free(call_inside);
  }
  cl_times_print(&tx, me, P);
  free(sbuf);
  free(rbuf);
  if (coll >= C_GATHERV) cl_v_free(&vx);
  if (opmode != OP_SUM) cl_affine_free(&ax);
  MPI_Finalize();
  return total_errors > 0 ? 1 : 0;
}
