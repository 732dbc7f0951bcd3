/*
 * bench_nbc_persist: per-start cost of libarcoll's persistent collectives
 * (MPI-4 MPI_<Coll>_init + MPI_Start + MPI_Wait; adapt/nbc_persist.c)
 * against the blocking call, 8-byte messages (seed 002: a persistent
 * collective pays its setup once, so each start should cost no more than
 * the blocking call).  Wall clock (MPI_Wtime), MPICH, 2 ranks:
 *
 *   cmake --build B --target bench_nbc_persist
 *   mpiexec.hydra -n 2 B/bench/bench_nbc_persist [ITERS]
 *
 * For allreduce (MPI_SUM, one double) and bcast (one double, root 0): the
 * mean time per call of PMPI_<Coll> (MPICH), MPI_<Coll> (libarcoll's
 * blocking), PMPI_<Coll>_init started (MPICH's persistent) and
 * MPI_<Coll>_init started (libarcoll's schedule), in rounds of 1000 calls
 * interleaved 10 times (so drifts of a shared machine hit all four alike),
 * rank 0's figures; ratios printed, never asserted.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { ROUND = 1000 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const int rounds = argc > 1 ? atoi(argv[1]) / ROUND : 10;
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
    double t[4] = {0, 0, 0, 0};
    for (int r = 0; r < rounds + 1; ++r) /* round 0: warm-up (online selection) */
      for (int v = 0; v < 4; ++v) {
        PMPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        for (int i = 0; i < ROUND; ++i) {
          if (v == 0) coll ? PMPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD)
                           : PMPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
          else if (v == 1) coll ? MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD)
                                : MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
          else {
            MPI_Request *q = v == 2 ? &pm : &ar;
            MPI_Start(q);
            MPI_Wait(q, MPI_STATUS_IGNORE);
          }
        }
        if (r > 0) t[v] += MPI_Wtime() - t0;
      }
    MPI_Request_free(&pm);
    MPI_Request_free(&ar);
    if (me == 0) {
      const double n = (double)rounds * ROUND, us = 1e6 / n;
      printf("%-9s 8 B, 2 ranks, %d calls each: PMPI blocking %.2f us, libarcoll blocking %.2f "
             "us, MPICH persistent start+wait %.2f us, libarcoll persistent start+wait %.2f us; "
             "libarcoll persistent / libarcoll blocking = %.2f, / PMPI blocking = %.2f\n",
             coll ? "bcast" : "allreduce", rounds * ROUND, t[0] * us, t[1] * us, t[2] * us,
             t[3] * us, t[3] / t[1], t[3] / t[0]);
    }
  }
  MPI_Finalize();
  return 0;
}
