/**
 * @file umt_like.c
 * @brief An unstructured-mesh sweep (UMT2000-like): the third workload of
 *        seed 001_6a837e3d9ad6c429.txt ("Rank placement", table: UMT2000).
 *
 * The mesh partition graph is pseudo-random but deterministic (seed -s): for
 * every rank i, ceil(D/2) edges {i, j} are drawn; 60 % of them go to a "near"
 * rank (|i - j| <= max(1, P/8) on the ring of ranks, as subdomains numbered
 * along a space-filling curve), 40 % to any rank. Duplicates and self loops
 * are dropped, so the degree varies around D. The bytes of each directed edge
 * i -> j are -b times a factor drawn from {1, 1, 2, 4, 8, 16}, times 4 when i
 * is one of the "heavy" subdomains (one rank in eight): volumes are irregular
 * and asymmetric. Every rank builds the same graph (no communication).
 *
 * One iteration = G angle groups; in each group every rank posts MPI_Irecv
 * from all its neighbours, MPI_Isend to all of them and one MPI_Waitall.
 * Received payloads are compared element by element with the expected
 * values (outside the timed region).
 *
 * Usage: umt_like [-b BASE_BYTES (multiple of 4, default 2048)] [-i ITERS (default 5)]
 *                 [-d MEAN_DEGREE (default 6)] [-g GROUPS (default 2)] [-s SEED (default 1)]
 * Prints the WORKLOAD line of wl_common.h; exit 0 if verified, 1 on a wrong
 * element, 2 on bad arguments.
 */
#include "wl_common.h"

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Bytes sent i -> j (multiple of 4). */
static long edge_bytes(uint64_t seed, int i, int j, long base, int P) {
  static const int factor[6] = {1, 1, 2, 4, 8, 16};
  uint64_t h = wl_mix64(seed ^ wl_mix64(((uint64_t)i << 32) | (uint32_t)j));
  long b = base * factor[h % 6];
  if (wl_mix64(seed * 31 + (uint64_t)i) % 8 == 0 && P > 1) b *= 4;   /* heavy subdomain */
  return b;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long opt[5] = {2048, 5, 6, 2, 1};
  if (!wl_parse(argc, argv, "bidgs", opt, NULL, NULL,
                "[-b BASE_BYTES] [-i ITERS] [-d MEAN_DEGREE] [-g GROUPS] [-s SEED]", rank)) {
    MPI_Finalize();
    return 2;
  }
  if (opt[0] % 4 != 0) {
    if (rank == 0) fprintf(stderr, "umt_like: -b %ld must be a multiple of 4 bytes\n", opt[0]);
    MPI_Finalize();
    return 2;
  }
  const long base = opt[0];
  const int iters = (int)opt[1], D = (int)opt[2], G = (int)opt[3];
  const uint64_t seed = (uint64_t)opt[4];

  /* My neighbours: every drawn edge that touches me. */
  int cap = 16, nn = 0;
  int *nb = malloc(cap * sizeof(int));
  int half = (D + 1) / 2, window = P / 8 > 1 ? P / 8 : 1;
  for (int i = 0; i < P && P > 1; ++i)
    for (int k = 0; k < half; ++k) {
      uint64_t h = wl_mix64(seed * 1000003u + (uint64_t)i * 64 + (uint64_t)k);
      int j;
      if (h % 10 < 6) {
        int off = 1 + (int)((h >> 8) % (uint64_t)window);
        j = (h >> 40) & 1 ? (i + off) % P : ((i - off) % P + P) % P;
      } else {
        j = (int)((h >> 8) % (uint64_t)P);
      }
      if (j == i || (i != rank && j != rank)) continue;
      if (nn == cap) nb = realloc(nb, (cap *= 2) * sizeof(int));
      nb[nn++] = i == rank ? j : i;
    }
  qsort(nb, nn, sizeof(int), cmp_int);
  int u = 0;
  for (int k = 0; k < nn; ++k)
    if (u == 0 || nb[u - 1] != nb[k]) nb[u++] = nb[k];
  nn = u;

  long *sbytes = malloc((nn + 1) * sizeof(long)), *rbytes = malloc((nn + 1) * sizeof(long));
  int32_t **sbuf = malloc((nn + 1) * sizeof(int32_t *)), **rbuf = malloc((nn + 1) * sizeof(int32_t *));
  MPI_Request *req = malloc(2 * (nn + 1) * sizeof(MPI_Request));
  MPI_Status *st = malloc(2 * (nn + 1) * sizeof(MPI_Status));   /* (not MPI_STATUSES_IGNORE: GCC's -Wstringop-overflow misfires on it) */
  for (int k = 0; k < nn; ++k) {
    sbytes[k] = edge_bytes(seed, rank, nb[k], base, P);
    rbytes[k] = edge_bytes(seed, nb[k], rank, base, P);
    sbuf[k] = malloc(sbytes[k]);
    rbuf[k] = malloc(rbytes[k]);
    if (!sbuf[k] || !rbuf[k]) { fprintf(stderr, "umt_like: rank %d: out of memory\n", rank); MPI_Abort(MPI_COMM_WORLD, 3); }
  }

  MPI_Barrier(MPI_COMM_WORLD);
  double t_comm = 0, bytes = 0;
  long errors = 0;
  for (int it = 0; it < iters; ++it)
    for (int g = 0; g < G; ++g) {
      int tag = it * G + g;
      for (int k = 0; k < nn; ++k)
        for (long e = 0; e < sbytes[k] / 4; ++e) sbuf[k][e] = wl_value(rank, nb[k], e, tag);
      double t0 = MPI_Wtime();
      for (int k = 0; k < nn; ++k)
        MPI_Irecv(rbuf[k], (int)(rbytes[k] / 4), MPI_INT32_T, nb[k], tag % 32768, MPI_COMM_WORLD, &req[k]);
      for (int k = 0; k < nn; ++k)
        MPI_Isend(sbuf[k], (int)(sbytes[k] / 4), MPI_INT32_T, nb[k], tag % 32768, MPI_COMM_WORLD, &req[nn + k]);
      MPI_Waitall(2 * nn, req, st);
      t_comm += MPI_Wtime() - t0;
      for (int k = 0; k < nn; ++k) {
        bytes += (double)sbytes[k];
        for (long e = 0; e < rbytes[k] / 4; ++e)
          if (rbuf[k][e] != wl_value(nb[k], rank, e, tag)) {
            if (errors < 5)
              fprintf(stderr, "umt_like: rank %d sweep %d: element %ld from %d is %d, expected %d\n", rank, tag, e,
                      nb[k], rbuf[k][e], wl_value(nb[k], rank, e, tag));
            ++errors;
          }
      }
    }
  char extra[128];
  int maxdeg = 0;
  MPI_Reduce(&nn, &maxdeg, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  snprintf(extra, sizeof extra, "groups=%d mean_degree=%d max_degree=%d seed=%llu", G, D, maxdeg,
           (unsigned long long)seed);
  int rc = wl_report("umt_like", iters, bytes, t_comm, errors, extra);
  for (int k = 0; k < nn; ++k) { free(sbuf[k]); free(rbuf[k]); }
  free(sbuf); free(rbuf); free(sbytes); free(rbytes); free(req); free(st); free(nb);
  MPI_Finalize();
  return rc;
}
