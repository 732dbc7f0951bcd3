/*
 * bench_nbc_persist: per-start overhead of libarcoll's persistent
 * collectives (MPI-4 MPI_<Coll>_init + MPI_Start + MPI_Wait;
 * adapt/nbc_persist.c) against the blocking call's dispatch overhead, 8-byte
 * messages (seed 002: a persistent collective pays its set-up once; issue
 * target: per-start overhead <= 0.5x the blocking dispatch).  Wall clock
 * (MPI_Wtime), MPICH, 2 ranks:
 *
 *   cmake --build B --target bench_nbc_persist
 *   mpiexec.hydra -n 2 B/bench/bench_nbc_persist [ITERS]
 *
 * For allreduce (MPI_SUM, one double) and bcast (one double, root 0), five
 * variants, in rounds of 1000 calls interleaved (so drifts of a shared
 * machine hit all alike), rank 0's median over rounds of the time per call:
 *   PMPI        MPICH's blocking call
 *   blocking    libarcoll's MPI_<Coll> (dispatch, then the chosen algorithm)
 *   direct      the algorithm libarcoll's persistent schedule runs here
 *               (recursive doubling / binomial, collectives/), called
 *               directly on a private communicator: the communication alone
 *   MPICH pers. PMPI_<Coll>_init started
 *   persistent  libarcoll's MPI_<Coll>_init started (+ MPI_Wait)
 * overhead = variant - direct (microseconds per call); ratios printed,
 * never asserted.  The blocking call runs libarcoll's online choice: run
 * with ARCOLL_<COLL>_ALGORITHM=<the direct one> to compare like with like.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "allreduce.h"
#include "bcast.h"
#include "select.h"

enum { ROUND = 1000, NV = 5, MAXR = 1000 };

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int rounds = argc > 1 ? atoi(argv[1]) / ROUND : 20;
  if (rounds < 1) rounds = 1;
  if (rounds > MAXR) rounds = MAXR;
  MPI_Comm priv;
  MPI_Comm_dup(MPI_COMM_WORLD, &priv);
  const arcoll_algo_desc_t *rd = arcoll_algorithm_find(ARCOLL_COLL_ALLREDUCE, "recursive_doubling");
  const arcoll_algo_desc_t *bi = arcoll_algorithm_find(ARCOLL_COLL_BCAST, "binomial");
  if (!rd || !bi) MPI_Abort(MPI_COMM_WORLD, 2);
  const arcoll_sched_t sched = {NULL, 0, 0, 7001};
  static const char *names[NV] = {"PMPI", "blocking", "direct", "MPICH pers.", "persistent"};
  static double t[NV][MAXR];
  double x = 1.0, y = 0.0;
  for (int coll = 0; coll < 2; ++coll) {
    MPI_Request pm, ar;
    if (coll == 0) {
      PMPI_Allreduce_init(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &pm);
      MPI_Allreduce_init(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &ar);
    } else {
      PMPI_Bcast_init(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &pm);
      MPI_Bcast_init(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &ar);
    }
    for (int r = 0; r < rounds + 1; ++r) /* round 0: warm-up (online selection) */
      for (int v = 0; v < NV; ++v) {
        PMPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        for (int i = 0; i < ROUND; ++i) {
          if (v == 0) coll ? PMPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD)
                           : PMPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
          else if (v == 1) coll ? MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD)
                                : MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
          else if (v == 2) coll ? ((arcoll_bcast_fn)bi->fn)(&x, 1, MPI_DOUBLE, 0, priv, &sched)
                                : ((arcoll_allreduce_fn)rd->fn)(&x, &y, 1, MPI_DOUBLE, MPI_SUM, priv, &sched);
          else {
            MPI_Request *q = v == 3 ? &pm : &ar;
            MPI_Start(q);
            MPI_Wait(q, MPI_STATUS_IGNORE);
          }
        }
        if (r > 0) t[v][r - 1] = (MPI_Wtime() - t0) / ROUND * 1e6;
      }
    MPI_Request_free(&pm);
    MPI_Request_free(&ar);
    if (me == 0) {
      double m[NV];
      for (int v = 0; v < NV; ++v) m[v] = median(t[v], rounds);
      printf("%-9s 8 B, 2 ranks, median of %d rounds of %d calls (us per call):", coll ? "bcast" : "allreduce",
             rounds, ROUND);
      for (int v = 0; v < NV; ++v) printf(" %s %.3f;", names[v], m[v]);
      const double ob = m[1] - m[2], op = m[4] - m[2];
      printf("\n  overhead over direct: blocking %.3f us, persistent %.3f us, MPICH's persistent over "
             "PMPI %.3f us; persistent / blocking overhead = %.2f\n", ob, op, m[3] - m[0],
             ob > 0 ? op / ob : 0.0);
    }
  }
  MPI_Comm_free(&priv);
  MPI_Finalize();
  return 0;
}
