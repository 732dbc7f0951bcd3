/**
 * @file halo3d_scrambled.c
 * @brief A periodic 3-D halo exchange (7-point stencil) whose rank numbering
 *        is scrambled: grid position k = (x, y, z), k = (z * py + y) * px + x,
 *        is played by MPI rank perm[k] (wl_scramble, seed -s). pz = the
 *        largest divisor of P not above P^(1/3); px = the largest divisor of
 *        P / pz not above its square root; py = P / (pz * px). 32 ranks:
 *        4 x 4 x 2; 64: 4 x 4 x 4; 1024: 8 x 16 x 8.
 *
 * One iteration: every rank posts MPI_Irecv from its 6 neighbours (west,
 * east, south, north, down, up; periodic), MPI_Isend of -b bytes to each,
 * one MPI_Waitall (wl_halo_exchange). Payloads are checked element by
 * element (outside the timed region).
 *
 * Usage: halo3d_scrambled [-b BYTES per face (multiple of 4, default 65536)] [-i ITERS (default 20)]
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
    if (rank == 0 && opt[0] % 4) fprintf(stderr, "halo3d_scrambled: -b must be a multiple of 4 bytes\n");
    MPI_Finalize();
    return 2;
  }
  const int pz = wl_grid_extent(P, 3), px = wl_grid_extent(P / pz, 2), py = P / (pz * px);
  const long n = opt[0] / 4;
  const int iters = (int)opt[1];
  int *perm = malloc(P * sizeof(int)), *inv = malloc(P * sizeof(int));
  int32_t *sbuf = malloc(6 * n * sizeof(int32_t)), *rbuf = malloc(6 * n * sizeof(int32_t));
  if (!perm || !inv || !sbuf || !rbuf) MPI_Abort(MPI_COMM_WORLD, 3);
  wl_scramble(P, (uint64_t)opt[2], perm, inv);
  const int k = inv[rank], x = k % px, y = (k / px) % py, z = k / (px * py);
#define POS(X, Y, Z) perm[((((Z) + pz) % pz) * py + (((Y) + py) % py)) * px + (((X) + px) % px)]
  /* direction d: 0 west, 1 east, 2 south, 3 north, 4 down, 5 up */
  const int nb[6] = {POS(x - 1, y, z), POS(x + 1, y, z), POS(x, y - 1, z),
                     POS(x, y + 1, z), POS(x, y, z - 1), POS(x, y, z + 1)};
#undef POS
  double t_comm = 0, bytes = 0;
  long errors = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int it = 0; it < iters; ++it) {
    errors += wl_halo_exchange(rank, nb, 6, n, it, sbuf, rbuf, &t_comm);
    bytes += 6.0 * opt[0];
  }
  char extra[80];
  snprintf(extra, sizeof extra, "grid=%dx%dx%d scramble_seed=%ld", px, py, pz, opt[2]);
  int rc = wl_report("halo3d_scrambled", iters, bytes, t_comm, errors, extra);
  free(perm); free(inv); free(sbuf); free(rbuf);
  MPI_Finalize();
  return rc;
}
