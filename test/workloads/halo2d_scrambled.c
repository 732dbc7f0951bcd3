/**
 * @file halo2d_scrambled.c
 * @brief A periodic 2-D halo exchange (5-point stencil) whose rank numbering
 *        is scrambled: grid position k = (x, y), k = y * px + x, is played by
 *        MPI rank perm[k] (wl_scramble, seed -s). px = the largest divisor of
 *        P not above sqrt(P), py = P / px.
 *
 * One iteration: every rank posts MPI_Irecv from its 4 neighbours (west,
 * east, south, north; periodic), MPI_Isend of -b bytes to each, one
 * MPI_Waitall. Payloads are checked element by element (outside the timed
 * region).
 *
 * Usage: halo2d_scrambled [-b BYTES per face (multiple of 4, default 65536)] [-i ITERS (default 20)]
 *                         [-s SEED (default 1)]
 * Prints the WORKLOAD line of wl_common.h; exit 0 if verified, 1 on a wrong
 * element, 2 on bad arguments.
 */
#include "wl_common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long opt[3] = {65536, 20, 1};
  if (!wl_parse(argc, argv, "bis", opt, NULL, NULL, "[-b BYTES] [-i ITERS] [-s SEED]", rank) || opt[0] % 4) {
    if (rank == 0 && opt[0] % 4) fprintf(stderr, "halo2d_scrambled: -b must be a multiple of 4 bytes\n");
    MPI_Finalize();
    return 2;
  }
  const int px = wl_grid_extent(P, 2), py = P / px;
  const long n = opt[0] / 4;
  const int iters = (int)opt[1];
  int *perm = malloc(P * sizeof(int)), *inv = malloc(P * sizeof(int));
  int32_t *sbuf = malloc(4 * n * sizeof(int32_t)), *rbuf = malloc(4 * n * sizeof(int32_t));
  if (!perm || !inv || !sbuf || !rbuf) MPI_Abort(MPI_COMM_WORLD, 3);
  wl_scramble(P, (uint64_t)opt[2], perm, inv);
  const int k = inv[rank], x = k % px, y = k / px;
  /* direction d: 0 west, 1 east, 2 south, 3 north; the message sent towards d arrives from direction d ^ 1 */
  const int nb[4] = {perm[y * px + (x + px - 1) % px], perm[y * px + (x + 1) % px],
                     perm[((y + py - 1) % py) * px + x], perm[((y + 1) % py) * px + x]};
  double t_comm = 0, bytes = 0;
  long errors = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int it = 0; it < iters; ++it) {
    errors += wl_halo_exchange(rank, nb, 4, n, it, sbuf, rbuf, &t_comm);
    bytes += 4.0 * opt[0];
  }
  char extra[64];
  snprintf(extra, sizeof extra, "grid=%dx%d scramble_seed=%ld", px, py, opt[2]);
  int rc = wl_report("halo2d_scrambled", iters, bytes, t_comm, errors, extra);
  free(perm); free(inv); free(sbuf); free(rbuf);
  MPI_Finalize();
  return rc;
}
