/**
 * @file cg_like.c
 * @brief The communication pattern of NPB CG on a 2-D process grid: the
 *        second workload of seed 001_6a837e3d9ad6c429.txt ("Rank placement",
 *        table: NPB CG).
 *
 * P = 2^m ranks form an nprows x npcols grid (npcols = nprows, or 2*nprows
 * when m is odd, as NPB CG); rank me = row * npcols + col. Each rank holds a
 * partial vector w of N doubles (the product of its sub-matrix with its piece
 * of p; the computation itself is omitted, the values are deterministic).
 * One iteration = one sparse matrix-vector product and two dot products:
 *
 *  1. row reduction by recursive halving: log2(npcols) MPI_Sendrecv with the
 *     row mate col ^ 2^i, sending N/2^(i+1) doubles and adding the half it
 *     keeps; afterwards every rank holds N/npcols fully reduced elements;
 *  2. transpose exchange: MPI_Sendrecv of those N/npcols doubles with the
 *     rank in the transposed grid position (NPB CG's exch_proc:
 *     (me mod nprows)*nprows + me/nprows on a square grid,
 *     2*((me/2 mod nprows)*nprows + me/2/nprows) + me mod 2 otherwise);
 *  3. two dot products, each a recursive-doubling allreduce of one double
 *     inside the row (log2(npcols) MPI_Sendrecv).
 *
 * Verification (outside the timed region): the reduced elements, the chunk
 * received from the transpose partner and the dot products are compared with
 * their exact values (integers stored in doubles: sums are exact).
 *
 * Usage: cg_like [-n N doubles per rank (multiple of npcols, default 8192)] [-i ITERS (default 5)]
 * Prints the WORKLOAD line of wl_common.h; exit 0 if verified, 1 on a wrong
 * value, 2 on bad arguments.
 */
#include "wl_common.h"

/* Partial value of grid position (r, c), element j, iteration it: a small integer. */
static double part(int r, int c, long j, int it) { return (double)(wl_value(r, c, j, it) % 1000); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long opt[2] = {8192, 5};
  if (!wl_parse(argc, argv, "ni", opt, NULL, NULL, "[-n DOUBLES_PER_RANK] [-i ITERS]", me)) {
    MPI_Finalize();
    return 2;
  }
  if (!wl_is_pow2(P)) {
    if (me == 0) fprintf(stderr, "cg_like: needs a power-of-two number of ranks (got %d), as NPB CG\n", P);
    MPI_Finalize();
    return 2;
  }
  const int m = wl_log2(P);
  const int npcols = 1 << ((m + 1) / 2), nprows = P / npcols, l2npcols = (m + 1) / 2;
  const long N = opt[0];
  const int iters = (int)opt[1];
  if (N % npcols != 0) {
    if (me == 0) fprintf(stderr, "cg_like: -n %ld must be a multiple of npcols = %d\n", N, npcols);
    MPI_Finalize();
    return 2;
  }
  const int row = me / npcols, col = me % npcols;
  const int exch = npcols == nprows ? (me % nprows) * nprows + me / nprows
                                    : 2 * (((me / 2) % nprows) * nprows + (me / 2) / nprows) + me % 2;
  const int erow = exch / npcols, ecol = exch % npcols;
  const long chunk = N / npcols;
  double *w = malloc(N * sizeof(double)), *tmp = malloc(N * sizeof(double)), *q = malloc(chunk * sizeof(double));
  if (!w || !tmp || !q) { fprintf(stderr, "cg_like: rank %d: out of memory\n", me); MPI_Abort(MPI_COMM_WORLD, 3); }

  MPI_Barrier(MPI_COMM_WORLD);
  double t_comm = 0, bytes = 0;
  long errors = 0;
  for (int it = 0; it < iters; ++it) {
    for (long j = 0; j < N; ++j) w[j] = part(row, col, j, it);
    double dots[2] = {(double)(me % 7 + 1), (double)(it + me % 3)};
    long lo = 0, len = N;
    double t0 = MPI_Wtime();
    /* 1. recursive halving inside the row */
    for (int i = 0; i < l2npcols; ++i) {
      int pcol = col ^ (1 << i), partner = row * npcols + pcol;
      long half = len / 2;
      long keep = (col >> i) & 1 ? lo + half : lo, give = (col >> i) & 1 ? lo : lo + half;
      MPI_Sendrecv(w + give, (int)half, MPI_DOUBLE, partner, 100 + i, tmp, (int)half, MPI_DOUBLE, partner, 100 + i,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (long j = 0; j < half; ++j) w[keep + j] += tmp[j];
      lo = keep;
      len = half;
      bytes += (double)half * sizeof(double);
    }
    /* 2. transpose exchange of the reduced chunk */
    MPI_Sendrecv(w + lo, (int)chunk, MPI_DOUBLE, exch, 200, q, (int)chunk, MPI_DOUBLE, exch, 200, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (exch != me) bytes += (double)chunk * sizeof(double);
    /* 3. two dot products: recursive doubling inside the row */
    for (int d = 0; d < 2; ++d)
      for (int i = 0; i < l2npcols; ++i) {
        int partner = row * npcols + (col ^ (1 << i));
        double other;
        MPI_Sendrecv(&dots[d], 1, MPI_DOUBLE, partner, 300 + i, &other, 1, MPI_DOUBLE, partner, 300 + i,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        dots[d] += other;
        bytes += sizeof(double);
      }
    t_comm += MPI_Wtime() - t0;

    /* Verify. The reduced range of column c starts at bitrev-free offset: bit i of c picks the upper half. */
    long elo = 0, elen = N, plo = 0;
    for (int i = 0; i < l2npcols; ++i) {
      elen /= 2;
      if ((col >> i) & 1) elo += elen;
      if ((ecol >> i) & 1) plo += elen;
    }
    for (long j = 0; j < chunk; ++j) {
      double mine = 0, theirs = 0;
      for (int c = 0; c < npcols; ++c) {
        mine += part(row, c, elo + j, it);
        theirs += part(erow, c, plo + j, it);
      }
      if (w[lo + j] != mine || q[j] != theirs || lo != elo) {
        if (errors < 5)
          fprintf(stderr, "cg_like: rank %d iter %d element %ld: reduced %g (expected %g), transposed %g (expected %g)\n",
                  me, it, j, w[lo + j], mine, q[j], theirs);
        ++errors;
      }
    }
    double e0 = 0, e1 = 0;
    for (int c = 0; c < npcols; ++c) {
      int r = row * npcols + c;
      e0 += r % 7 + 1;
      e1 += it + r % 3;
    }
    if (dots[0] != e0 || dots[1] != e1) {
      if (errors < 5) fprintf(stderr, "cg_like: rank %d iter %d: dot products %g %g, expected %g %g\n", me, it,
                              dots[0], dots[1], e0, e1);
      ++errors;
    }
  }
  char extra[96];
  snprintf(extra, sizeof extra, "grid=%dx%d n=%ld", nprows, npcols, N);
  int rc = wl_report("cg_like", iters, bytes, t_comm, errors, extra);
  free(w);
  free(tmp);
  free(q);
  MPI_Finalize();
  return rc;
}
