/**
 * @file ring_scrambled.c
 * @brief A ring exchange whose rank numbering is scrambled: logical position
 *        k of the ring is played by MPI rank perm[k] (wl_scramble, seed -s),
 *        so in-order placement puts ring neighbours on random hosts while a
 *        mapping that follows the ring needs one message per link direction.
 *
 * One iteration: every rank posts MPI_Irecv from both ring neighbours,
 * MPI_Isend of -b bytes to both, one MPI_Waitall. Payloads are checked
 * element by element (outside the timed region).
 *
 * Usage: ring_scrambled [-b BYTES (multiple of 4, default 131072)] [-i ITERS (default 40)] [-s SEED (default 1)]
 * Prints the WORKLOAD line of wl_common.h; exit 0 if verified, 1 on a wrong
 * element, 2 on bad arguments.
 */
#include "wl_common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long opt[3] = {131072, 40, 1};
  if (!wl_parse(argc, argv, "bis", opt, NULL, NULL, "[-b BYTES] [-i ITERS] [-s SEED]", rank) || opt[0] % 4) {
    if (rank == 0 && opt[0] % 4) fprintf(stderr, "ring_scrambled: -b must be a multiple of 4 bytes\n");
    MPI_Finalize();
    return 2;
  }
  const long n = opt[0] / 4;
  const int iters = (int)opt[1];
  int *perm = malloc(P * sizeof(int)), *inv = malloc(P * sizeof(int));
  int32_t *sbuf = malloc(2 * n * sizeof(int32_t)), *rbuf = malloc(2 * n * sizeof(int32_t));
  if (!perm || !inv || !sbuf || !rbuf) MPI_Abort(MPI_COMM_WORLD, 3);
  wl_scramble(P, (uint64_t)opt[2], perm, inv);
  const int k = inv[rank], nb[2] = {perm[(k + P - 1) % P], perm[(k + 1) % P]};
  double t_comm = 0, bytes = 0;
  long errors = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int it = 0; it < iters; ++it) {
    for (int d = 0; d < 2; ++d)
      for (long e = 0; e < n; ++e) sbuf[d * n + e] = wl_value(rank, nb[d], it, e);
    MPI_Request rq[4];
    MPI_Status st[4]; /* (not MPI_STATUSES_IGNORE: GCC's -Wstringop-overflow misfires on it) */
    double t0 = MPI_Wtime();
    for (int d = 0; d < 2; ++d) MPI_Irecv(rbuf + d * n, (int)n, MPI_INT32_T, nb[d], d, MPI_COMM_WORLD, &rq[d]);
    /* to the left neighbour with tag 1 (it receives it from its right), to the right with tag 0 */
    for (int d = 0; d < 2; ++d) MPI_Isend(sbuf + d * n, (int)n, MPI_INT32_T, nb[d], 1 - d, MPI_COMM_WORLD, &rq[2 + d]);
    MPI_Waitall(4, rq, st);
    t_comm += MPI_Wtime() - t0;
    bytes += 2.0 * opt[0];
    for (int d = 0; d < 2; ++d)
      for (long e = 0; e < n; ++e) errors += rbuf[d * n + e] != wl_value(nb[d], rank, it, e);
  }
  char extra[64];
  snprintf(extra, sizeof extra, "scramble_seed=%ld", opt[2]);
  int rc = wl_report("ring_scrambled", iters, bytes, t_comm, errors, extra);
  free(perm); free(inv); free(sbuf); free(rbuf);
  MPI_Finalize();
  return rc;
}
