/**
 * @file wl_halo.h
 * @brief The periodic halo exchange of halo2d_scrambled.c (5-point stencil)
 *        and halo3d_scrambled.c (7-point), whose rank numbering is
 *        scrambled: grid position k is played by MPI rank perm[k]
 *        (wl_scramble, seed -s).
 *
 * Grid: 2-D, k = y * px + x, px = the largest divisor of P not above
 * sqrt(P), py = P / px; 3-D, k = (z * py + y) * px + x, pz = the largest
 * divisor of P not above P^(1/3), px = the largest divisor of P / pz not
 * above its square root, py = P / (pz * px) (32 ranks: 4 x 4 x 2; 64:
 * 4 x 4 x 4; 1024: 8 x 16 x 8).
 *
 * One iteration: every rank posts MPI_Irecv from its 2 x dims neighbours
 * (west, east, south, north[, down, up]; periodic), MPI_Isend of -b bytes to
 * each, one MPI_Waitall (wl_halo_exchange). Payloads are checked element by
 * element (outside the timed region).
 *
 * Usage: <name> [-b BYTES per face (multiple of 4, default 65536)] [-i ITERS (default 20)] [-s SEED (default 1)]
 * Prints the WORKLOAD line of wl_common.h; exit 0 if verified, 1 on a wrong
 * element, 2 on bad arguments.
 */
#ifndef ARCOLL_WORKLOADS_HALO_H
#define ARCOLL_WORKLOADS_HALO_H

#include "wl_common.h"

/** The whole program for `dims` = 2 or 3; `name` for the result line. */
static inline int wl_halo_main(int argc, char **argv, int dims, const char *name) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long opt[3] = {65536, 20, 1};
  if (!wl_parse(argc, argv, "bis", opt, NULL, NULL, "[-b BYTES] [-i ITERS] [-s SEED]", rank) || opt[0] % 4) {
    if (rank == 0 && opt[0] % 4) fprintf(stderr, "%s: -b must be a multiple of 4 bytes\n", name);
    MPI_Finalize();
    return 2;
  }
  const int pz = dims == 3 ? wl_grid_extent(P, 3) : 1, px = wl_grid_extent(P / pz, 2), py = P / (pz * px);
  const int ndir = 2 * dims;
  const long n = opt[0] / 4;
  const int iters = (int)opt[1];
  int *perm = malloc(P * sizeof(int)), *inv = malloc(P * sizeof(int));
  int32_t *sbuf = malloc(ndir * n * sizeof(int32_t)), *rbuf = malloc(ndir * n * sizeof(int32_t));
  if (!perm || !inv || !sbuf || !rbuf) MPI_Abort(MPI_COMM_WORLD, 3);
  wl_scramble(P, (uint64_t)opt[2], perm, inv);
  const int k = inv[rank], x = k % px, y = (k / px) % py, z = k / (px * py);
#define POS(X, Y, Z) perm[((((Z) + pz) % pz) * py + (((Y) + py) % py)) * px + (((X) + px) % px)]
  /* direction d: 0 west, 1 east, 2 south, 3 north, 4 down, 5 up; the opposite of d is d ^ 1 */
  const int nb[6] = {POS(x - 1, y, z), POS(x + 1, y, z), POS(x, y - 1, z),
                     POS(x, y + 1, z), POS(x, y, z - 1), POS(x, y, z + 1)};
#undef POS
  double t_comm = 0, bytes = 0;
  long errors = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int it = 0; it < iters; ++it) {
    errors += wl_halo_exchange(rank, nb, ndir, n, it, sbuf, rbuf, &t_comm);
    bytes += ndir * (double)opt[0];
  }
  char extra[80];
  if (dims == 3)
    snprintf(extra, sizeof extra, "grid=%dx%dx%d scramble_seed=%ld", px, py, pz, opt[2]);
  else
    snprintf(extra, sizeof extra, "grid=%dx%d scramble_seed=%ld", px, py, opt[2]);
  int rc = wl_report(name, iters, bytes, t_comm, errors, extra);
  free(perm); free(inv); free(sbuf); free(rbuf);
  MPI_Finalize();
  return rc;
}

#endif
