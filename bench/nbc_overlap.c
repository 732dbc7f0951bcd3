/*
 * nbc_overlap: overlap of a nonblocking collective with computation under
 * SimGrid SMPI (issue 19; driven by tools/nbc-overlap.sh, not a test).
 *
 * Usage (SMPI, linked with libarcoll): nbc_overlap COLL BYTES REPS
 *   COLL  iallreduce (MPI_SUM of doubles) or ibcast (root 0)
 * Measures, simulated seconds, each the mean over REPS of the max over ranks
 * (every repetition starts after a barrier):
 *   block_lib   the blocking MPI_Allreduce / MPI_Bcast (libarcoll's when
 *               linked), after 12 warm-up calls (online selection), each
 *               followed by a barrier
 *   block_smpi  PMPI_Allreduce / PMPI_Bcast: SMPI's own blocking collective
 *   nb          start; computation C in K chunks (smpi_execute_benched, simulated
 *               time only) with MPI_Test after each chunk (K = 16), or in
 *               one chunk without MPI_Test (K = 1, "notest"); MPI_Wait
 * for C = 0.5, 1 and 2 x block_lib.  One line per (C, K):
 *   RESULT coll=.. bytes=.. P=.. f=.. comp=.. chunks=.. test=0|1 nb=.. block_lib=..
 *          block_smpi=.. ratio_lib=nb/max(C, block_lib) ratio_smpi=nb/max(C, block_smpi)
 * Whether the nonblocking call ran in libarcoll or in SMPI is set by the
 * environment (ARCOLL_NONBLOCKING=off: SMPI's).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int P, me, ibcast;
static double *buf, *out;
static int n;

static double max_over_ranks(double t) {
  double m = 0;
  PMPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

static void blocking(int pmpi) {
  if (ibcast) (pmpi ? PMPI_Bcast : MPI_Bcast)(buf, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  else (pmpi ? PMPI_Allreduce : MPI_Allreduce)(buf, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static double time_blocking(int pmpi, int reps) {
  double sum = 0;
  for (int r = 0; r < reps; ++r) {
    PMPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    blocking(pmpi);
    sum += max_over_ranks(MPI_Wtime() - t0);
  }
  return sum / reps;
}

static double time_nb(double comp, int chunks, int test, int reps) {
  double sum = 0;
  for (int r = 0; r < reps; ++r) {
    MPI_Request req;
    PMPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (ibcast) MPI_Ibcast(buf, n, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req);
    else MPI_Iallreduce(buf, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    for (int c = 0; c < chunks; ++c) {
      smpi_execute_benched(comp / chunks); /* (smpi_execute advances nothing in SMPI 3.32) */
      if (test) {
        int flag;
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
      }
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    sum += max_over_ranks(MPI_Wtime() - t0);
  }
  return sum / reps;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: nbc_overlap iallreduce|ibcast BYTES REPS\n");
    return 2;
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  ibcast = !strcmp(argv[1], "ibcast");
  const long bytes = atol(argv[2]);
  const int reps = atoi(argv[3]);
  n = (int)(bytes / (long)sizeof(double));
  buf = calloc((size_t)n + 1, sizeof *buf), out = calloc((size_t)n + 1, sizeof *out);
  /* online selection of the blocking call; a barrier after each call: the
   * root of a pipelined bcast leaves each call early, and 12 bcasts of 1 MiB
   * in flight at once over 256 ranks did not finish in 20 minutes of
   * simulation (SimGrid's sharing solver with every flow of them at once) */
  for (int i = 0; i < 12; ++i) {
    blocking(0);
    PMPI_Barrier(MPI_COMM_WORLD);
  }
  const double bl = time_blocking(0, reps), bs = time_blocking(1, reps);
  const double factors[] = {0.5, 1.0, 2.0};
  for (int f = 0; f < 3; ++f)
    for (int v = 0; v < 2; ++v) {
      const double comp = factors[f] * bl;
      const int chunks = v ? 1 : 16, test = !v;
      const double nb = time_nb(comp, chunks, test, reps);
      if (me == 0)
        printf("RESULT coll=%s bytes=%ld P=%d f=%.1f comp=%.6f chunks=%d test=%d nb=%.6f "
               "block_lib=%.6f block_smpi=%.6f ratio_lib=%.3f ratio_smpi=%.3f\n",
               argv[1], bytes, P, factors[f], comp, chunks, test, nb, bl, bs,
               nb / (comp > bl ? comp : bl), nb / (comp > bs ? comp : bs));
    }
  free(buf), free(out);
  MPI_Finalize();
  return 0;
}
