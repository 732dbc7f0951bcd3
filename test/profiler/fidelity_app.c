/* Fidelity test program of the profiler's cause analysis: injects the known
 * delays of fidelity_plan.h (simulated computation under SMPI) before three
 * call sites, FID_ITERS iterations.
 * Usage: fidelity_app [SEED [ITERS]]   (defaults 17, 30)
 * The first MPI call after MPI_Init is a barrier of its own (reported apart
 * by the analysis). Checks the collectives' results; exit 1 on a mismatch. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "fidelity_plan.h"

/* Simulated hosts compute 1 Gflop/s (run_fidelity.sh's platform); smpi_execute()
 * would scale by smpi/host-speed instead. */
static void compute(double seconds) {
#if defined(SMPI_SAMPLE_FLOPS) /* SimGrid's smpi.h */
  smpi_execute_flops(seconds * 1e9);
#else
  double t = MPI_Wtime();
  while (MPI_Wtime() - t < seconds) {
  }
#endif
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 17;
  int iters = argc > 2 ? atoi(argv[2]) : 30;
  fid_plan plan;
  fid_make_plan(size, seed, &plan);
  int *all = malloc(sizeof(int) * (size_t)size);
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < iters; i++) {
    for (int site = 0; site < FID_SITES; site++) {
      compute(FID_BASE + fid_jitter(rank, site, i) + fid_delay(&plan, rank, site, i));
      if (site == 0) {
        long v = rank + i, sum = 0;
        MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        errors += sum != (long)size * (size - 1) / 2 + (long)size * i;
      } else if (site == 1) {
        int v = rank * 7 + i;
        MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
        for (int r = 0; r < size; r++) errors += all[r] != r * 7 + i;
      } else {
        MPI_Barrier(MPI_COMM_WORLD);
      }
    }
  }
  free(all);
  if (errors) fprintf(stderr, "fidelity_app: rank %d: %d wrong values\n", rank, errors);
  MPI_Finalize();
  return errors ? 1 : 0;
}
