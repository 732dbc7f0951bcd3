/**
 * @file wavefront.c
 * @brief A pipelined wavefront sweep (Sweep3D-like) on a px x py grid of
 *        ranks numbered row by row (rank = y * px + x; px = the largest
 *        divisor of P not above sqrt(P)).
 *
 * One iteration = one sweep from the corner (0, 0) in -k blocks: for each
 * block a rank receives -b bytes from its west and south neighbours (when
 * they exist), then sends -b bytes to its east and north ones (blocking
 * MPI_Recv / MPI_Send): a diagonal front runs across the grid, and at a time
 * only the ranks of a few diagonals communicate. Payloads are checked
 * element by element (outside the timed region, per block).
 *
 * Usage: wavefront [-b BYTES (multiple of 4, default 65536)] [-i ITERS (default 8)] [-k BLOCKS (default 4)]
 * Prints the WORKLOAD line of wl_common.h; exit 0 if verified, 1 on a wrong
 * element, 2 on bad arguments.
 */
#include "wl_common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long opt[3] = {65536, 8, 4};
  if (!wl_parse(argc, argv, "bik", opt, NULL, NULL, "[-b BYTES] [-i ITERS] [-k BLOCKS]", rank) || opt[0] % 4) {
    if (rank == 0 && opt[0] % 4) fprintf(stderr, "wavefront: -b must be a multiple of 4 bytes\n");
    MPI_Finalize();
    return 2;
  }
  int px = 1;
  for (int d = 1; (long)d * d <= P; ++d)
    if (P % d == 0) px = d;
  const int py = P / px, x = rank % px, y = rank / px;
  const long n = opt[0] / 4;
  const int iters = (int)opt[1], blocks = (int)opt[2];
  /* 0 west, 1 south (receive from), 2 east, 3 north (send to); -1 = none */
  const int nb[4] = {x > 0 ? rank - 1 : -1, y > 0 ? rank - px : -1, x < px - 1 ? rank + 1 : -1,
                     y < py - 1 ? rank + px : -1};
  int32_t *sbuf = malloc(n * sizeof(int32_t)), *rbuf = malloc(2 * n * sizeof(int32_t));
  if (!sbuf || !rbuf) MPI_Abort(MPI_COMM_WORLD, 3);
  double t_comm = 0, bytes = 0;
  long errors = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int it = 0; it < iters; ++it)
    for (int k = 0; k < blocks; ++k) {
      for (long e = 0; e < n; ++e) sbuf[e] = wl_value(rank, it, k, e);
      double t0 = MPI_Wtime();
      for (int d = 0; d < 2; ++d)
        if (nb[d] >= 0) MPI_Recv(rbuf + d * n, (int)n, MPI_INT32_T, nb[d], k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int d = 2; d < 4; ++d)
        if (nb[d] >= 0) MPI_Send(sbuf, (int)n, MPI_INT32_T, nb[d], k, MPI_COMM_WORLD);
      t_comm += MPI_Wtime() - t0;
      for (int d = 2; d < 4; ++d) bytes += nb[d] >= 0 ? (double)opt[0] : 0;
      for (int d = 0; d < 2; ++d)
        if (nb[d] >= 0)
          for (long e = 0; e < n; ++e) errors += rbuf[d * n + e] != wl_value(nb[d], it, k, e);
    }
  char extra[64];
  snprintf(extra, sizeof extra, "grid=%dx%d blocks=%d", px, py, blocks);
  int rc = wl_report("wavefront", iters, bytes, t_comm, errors, extra);
  free(sbuf); free(rbuf);
  MPI_Finalize();
  return rc;
}
