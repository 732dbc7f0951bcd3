/**
 * @file rd_alltoall.c
 * @brief Recursive-doubling all-to-all written with point-to-point calls:
 *        the first workload of seed 001_6a837e3d9ad6c429.txt ("Rank
 *        placement", table: recursive-doubling all-to-all, 16 dual-CPU nodes).
 *
 * P (a power of two) ranks; every pair (s, d) exchanges one block of B bytes
 * (B/4 int32 values, value(s, d, i) deterministic). log2(P) rounds; in round
 * k every rank calls MPI_Sendrecv(_replace) with partner rank ^ 2^k.
 *
 *  - `-a doubling` (default): each rank gathers all send buffers by recursive
 *    doubling (round k sends the 2^k buffers of its group: 2^k * P * B bytes,
 *    the message size doubles every round) then keeps the blocks addressed to
 *    it. Memory per rank: P*P*B bytes (refused above 256 MiB).
 *  - `-a hypercube`: dimension exchange (store and forward): round k sends the
 *    P/2 blocks whose destination differs from the rank in bit k (one
 *    MPI_Sendrecv_replace with a vector datatype); P/2 * B bytes per round.
 *    Memory per rank: P*B bytes; use it at thousands of ranks.
 *
 * Every iteration's received blocks are compared element by element with
 * the expected values (outside the timed region).
 *
 * Usage: rd_alltoall [-b BLOCK_BYTES (multiple of 4, default 1024)] [-i ITERS (default 5)]
 *                    [-a doubling|hypercube]
 * Prints the WORKLOAD line of wl_common.h; exit 0 if verified, 1 on a wrong
 * element, 2 on bad arguments.
 */
#include "wl_common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long opt[2] = {1024, 5};
  const char *algo = "doubling";
  const char *usage = "[-b BLOCK_BYTES] [-i ITERS] [-a doubling|hypercube]";
  if (!wl_parse(argc, argv, "bi", opt, "a", &algo, usage, rank)) { MPI_Finalize(); return 2; }
  int doubling = strcmp(algo, "doubling") == 0;
  if (!doubling && strcmp(algo, "hypercube") != 0) {
    if (rank == 0) fprintf(stderr, "rd_alltoall: -a %s: use doubling or hypercube\n", algo);
    MPI_Finalize();
    return 2;
  }
  if (!wl_is_pow2(P) || opt[0] % 4 != 0) {
    if (rank == 0)
      fprintf(stderr, "rd_alltoall: needs a power-of-two number of ranks (got %d) and a block size that is a "
                      "multiple of 4 bytes (got %ld)\n", P, opt[0]);
    MPI_Finalize();
    return 2;
  }
  const long n = opt[0] / 4;   /* int32 per block */
  const int iters = (int)opt[1];
  const int L = wl_log2(P);
  size_t elems = doubling ? (size_t)P * P * n : (size_t)P * n;
  if (elems * 4 > (size_t)256 << 20) {
    if (rank == 0)
      fprintf(stderr, "rd_alltoall: %s needs %zu MiB per rank (> 256 MiB); use -a hypercube or a smaller -b\n",
              algo, elems * 4 >> 20);
    MPI_Finalize();
    return 2;
  }
  int32_t *buf = malloc(elems * sizeof(int32_t));
  if (!buf) { fprintf(stderr, "rd_alltoall: rank %d: out of memory\n", rank); MPI_Abort(MPI_COMM_WORLD, 3); }

  MPI_Barrier(MPI_COMM_WORLD);
  double t_comm = 0, bytes = 0;
  long errors = 0;
  for (int it = 0; it < iters; ++it) {
    /* Fill: doubling -> own send buffer at buf[rank][d][.], hypercube -> slot d = block (rank, d). */
    int32_t *own = doubling ? buf + (size_t)rank * P * n : buf;
    for (int d = 0; d < P; ++d)
      for (long e = 0; e < n; ++e) own[(size_t)d * n + e] = wl_value(rank, d, e, it);
    double t0 = MPI_Wtime();
    for (int k = 0; k < L; ++k) {
      int partner = rank ^ (1 << k);
      if (doubling) {
        size_t grp = (size_t)1 << k;                       /* buffers held: my group of 2^k ranks */
        size_t mybase = (size_t)(rank & ~(int)(grp - 1)), pbase = (size_t)(partner & ~(int)(grp - 1));
        size_t count = grp * P * n;
        MPI_Sendrecv(buf + mybase * P * n, (int)count, MPI_INT32_T, partner, k,
                     buf + pbase * P * n, (int)count, MPI_INT32_T, partner, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        bytes += (double)count * 4;
      } else {
        /* slots whose bit k equals the partner's bit k: P/2^(k+1) runs of 2^k blocks, stride 2^(k+1) blocks */
        MPI_Datatype vt;
        MPI_Type_vector(P >> (k + 1), (int)(((long)1 << k) * n), (int)(((long)2 << k) * n), MPI_INT32_T, &vt);
        MPI_Type_commit(&vt);
        int pbit = (partner >> k) & 1;
        MPI_Sendrecv_replace(buf + (size_t)pbit * ((size_t)1 << k) * n, 1, vt, partner, k, partner, k,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Type_free(&vt);
        bytes += (double)(P / 2) * n * 4;
      }
    }
    t_comm += MPI_Wtime() - t0;
    /* Verify: the block from s to me is at buf[s][rank] (doubling) or slot s (hypercube). */
    for (int s = 0; s < P; ++s) {
      const int32_t *blk = doubling ? buf + ((size_t)s * P + rank) * n : buf + (size_t)s * n;
      for (long e = 0; e < n; ++e)
        if (blk[e] != wl_value(s, rank, e, it)) {
          if (errors < 5)
            fprintf(stderr, "rd_alltoall: rank %d iter %d: block from %d element %ld is %d, expected %d\n", rank,
                    it, s, e, blk[e], wl_value(s, rank, e, it));
          ++errors;
        }
    }
  }
  char extra[96];
  snprintf(extra, sizeof extra, "algo=%s block_bytes=%ld", algo, opt[0]);
  int rc = wl_report("rd_alltoall", iters, bytes, t_comm, errors, extra);
  free(buf);
  MPI_Finalize();
  return rc;
}
