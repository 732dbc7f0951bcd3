/**
 * @file sparse_random.c
 * @brief Exchange over a random sparse graph: every rank draws -d partners
 *        uniformly among all ranks (seed -s; the graph is made symmetric,
 *        duplicates and self loops dropped), so no numbering carries
 *        locality. Every edge carries -b bytes each way per iteration:
 *        MPI_Irecv from all neighbours, MPI_Isend to all, one MPI_Waitall.
 *        Payloads are checked element by element (outside the timed region).
 *
 * Usage: sparse_random [-b BYTES (multiple of 4, default 32768)] [-i ITERS (default 10)]
 *                      [-d DRAWS per rank (default 3)] [-s SEED (default 1)]
 * Prints the WORKLOAD line of wl_common.h; exit 0 if verified, 1 on a wrong
 * element, 2 on bad arguments.
 */
#include "wl_common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long opt[4] = {32768, 10, 3, 1};
  if (!wl_parse(argc, argv, "bids", opt, NULL, NULL, "[-b BYTES] [-i ITERS] [-d DRAWS] [-s SEED]", rank) ||
      opt[0] % 4) {
    if (rank == 0 && opt[0] % 4) fprintf(stderr, "sparse_random: -b must be a multiple of 4 bytes\n");
    MPI_Finalize();
    return 2;
  }
  const long n = opt[0] / 4;
  const int iters = (int)opt[1], D = (int)opt[2];
  /* adjacency row of this rank: edge {i, j} exists when j is among i's draws or i among j's */
  char *adj = calloc(P, 1);
  int *nb = malloc(P * sizeof(int));
  if (!adj || !nb) MPI_Abort(MPI_COMM_WORLD, 3);
  for (int i = 0; i < P; ++i)
    for (int k = 0; k < D; ++k) {
      int j = (int)(wl_mix64((uint64_t)opt[3] * 0x9E3779B97F4A7C15ull ^ ((uint64_t)i << 20) ^ (uint64_t)k) % P);
      if (i == j) continue;
      if (i == rank) adj[j] = 1;
      if (j == rank) adj[i] = 1;
    }
  int nn = 0;
  for (int j = 0; j < P; ++j)
    if (adj[j]) nb[nn++] = j;
  int32_t *sbuf = malloc((nn + 1) * n * sizeof(int32_t)), *rbuf = malloc((nn + 1) * n * sizeof(int32_t));
  MPI_Request *rq = malloc(2 * (size_t)(nn + 1) * sizeof(MPI_Request));
  MPI_Status *st = malloc(2 * (size_t)(nn + 1) * sizeof(MPI_Status));
  if (!sbuf || !rbuf || !rq || !st) MPI_Abort(MPI_COMM_WORLD, 3);
  double t_comm = 0, bytes = 0;
  long errors = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int it = 0; it < iters; ++it) {
    for (int q = 0; q < nn; ++q)
      for (long e = 0; e < n; ++e) sbuf[q * n + e] = wl_value(rank, nb[q], it, e);
    double t0 = MPI_Wtime();
    for (int q = 0; q < nn; ++q) MPI_Irecv(rbuf + q * n, (int)n, MPI_INT32_T, nb[q], 0, MPI_COMM_WORLD, &rq[q]);
    for (int q = 0; q < nn; ++q) MPI_Isend(sbuf + q * n, (int)n, MPI_INT32_T, nb[q], 0, MPI_COMM_WORLD, &rq[nn + q]);
    MPI_Waitall(2 * nn, rq, st);
    t_comm += MPI_Wtime() - t0;
    bytes += (double)nn * opt[0];
    for (int q = 0; q < nn; ++q)
      for (long e = 0; e < n; ++e) errors += rbuf[q * n + e] != wl_value(nb[q], rank, it, e);
  }
  char extra[64];
  snprintf(extra, sizeof extra, "neighbours_of_rank0=%d", rank == 0 ? nn : -1);
  int rc = wl_report("sparse_random", iters, bytes, t_comm, errors, extra);
  free(adj); free(nb); free(sbuf); free(rbuf); free(rq); free(st);
  MPI_Finalize();
  return rc;
}
