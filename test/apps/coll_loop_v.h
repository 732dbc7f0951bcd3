/*
 * coll_loop_v.h: the irregular-count collectives of coll_loop (gatherv,
 * scatterv, allgatherv, alltoallv, reduce_scatter), included by coll_loop.c
 * only (one translation unit, so tools/adapt-bench.sh builds coll_loop with
 * one smpicc command).
 *
 * Block sizes: the block of rank r holds vcount(r) = count / 2 + (r % 3) x
 * count / 2 elements (0.5, 1, 1.5 x count: the mean is count when P is a
 * multiple of 3), so -m keeps meaning "bytes per rank" on average and the
 * imbalance a v-variant exists for is there.  alltoallv: rank p sends rank q
 * vcount((p + q) % P) elements (symmetric, so both sides agree).
 * Values and checks as coll_loop.c's regular forms (its header): element i
 * of rank r's block at call c is v(c, r, i); gatherv / allgatherv check the
 * elements i = c (mod S) of every block; scatterv: the root rewrites those and
 * every rank checks its whole block; alltoallv: element i of the block p
 * sends q is v(c, p, q W + i) (W = the largest block), the receiver checks
 * i = c (mod S); reduce_scatter: every rank rewrites the elements i = c (mod S)
 * of each block of its send vector (global element j holds v(last call, me,
 * j)) and checks its whole received block against the sum over ranks.
 */
#ifndef COLL_LOOP_V_H
#define COLL_LOOP_V_H

typedef struct {
  int coll, P, me, root;
  long count, S, W;        /* mean block, check stride, largest block (elements) */
  unsigned *sbuf, *rbuf;
  int *scounts, *sdispls, *rcounts, *rdispls; /* P each (what the call needs) */
  long total;              /* sum of vcount over ranks */
} cl_v_t;

static long cl_vcount(int r, long count) { return count / 2 + (long)(r % 3) * (count / 2); }

/* displacement of rank r's block in a buffer of all blocks (elements) */
static long cl_vdispl(int r, long count) {
  long d = 0;
  for (int q = 0; q < r; ++q) d += cl_vcount(q, count);
  return d;
}

/* allocates the buffers and count arrays; 0 on success */
static int cl_v_setup(cl_v_t *x) {
  const int P = x->P;
  x->total = cl_vdispl(P, x->count);
  x->W = x->count / 2 + 2 * (x->count / 2);
  const size_t tot = (size_t)(x->total > 0 ? x->total : 1);
  const long mine = cl_vcount(x->me, x->count);
  int *a = malloc(sizeof(int) * 4 * (size_t)P);
  if (!a) return 1;
  x->scounts = a, x->sdispls = a + P, x->rcounts = a + 2 * P, x->rdispls = a + 3 * P;
  for (int r = 0; r < P; ++r) {
    x->rcounts[r] = x->scounts[r] = (int)cl_vcount(r, x->count);
    x->rdispls[r] = x->sdispls[r] = (int)cl_vdispl(r, x->count);
  }
  switch (x->coll) {
    case C_GATHERV:
      x->sbuf = malloc(sizeof(unsigned) * (size_t)(mine > 0 ? mine : 1));
      if (x->me == x->root) x->rbuf = malloc(sizeof(unsigned) * tot);
      return !x->sbuf || (x->me == x->root && !x->rbuf);
    case C_ALLGATHERV:
      x->sbuf = malloc(sizeof(unsigned) * (size_t)(mine > 0 ? mine : 1));
      x->rbuf = malloc(sizeof(unsigned) * tot);
      return !x->sbuf || !x->rbuf;
    case C_SCATTERV:
      x->rbuf = malloc(sizeof(unsigned) * (size_t)(mine > 0 ? mine : 1));
      if (x->me == x->root) {
        x->sbuf = malloc(sizeof(unsigned) * tot);
        if (!x->sbuf) return 1;
        for (int r = 0; r < P; ++r)
          for (long i = 0; i < cl_vcount(r, x->count); ++i) x->sbuf[x->sdispls[r] + i] = v(-1, r, i);
      }
      return !x->rbuf;
    case C_ALLTOALLV: {
      long so = 0, ro = 0;
      for (int q = 0; q < P; ++q) {
        x->scounts[q] = x->rcounts[q] = (int)cl_vcount((x->me + q) % P, x->count);
        x->sdispls[q] = (int)so, x->rdispls[q] = (int)ro;
        so += x->scounts[q], ro += x->rcounts[q];
      }
      x->sbuf = malloc(sizeof(unsigned) * (size_t)(so > 0 ? so : 1));
      x->rbuf = malloc(sizeof(unsigned) * (size_t)(ro > 0 ? ro : 1));
      if (!x->sbuf || !x->rbuf) return 1;
      for (int q = 0; q < P; ++q)
        for (long i = 0; i < x->scounts[q]; ++i) x->sbuf[x->sdispls[q] + i] = v(-1, x->me, q * x->W + i);
      return 0;
    }
    case C_RS:
      x->sbuf = malloc(sizeof(unsigned) * tot);
      x->rbuf = malloc(sizeof(unsigned) * (size_t)(mine > 0 ? mine : 1));
      if (!x->sbuf || !x->rbuf) return 1;
      for (long j = 0; j < x->total; ++j) x->sbuf[j] = v(-1, x->me, j);
      return 0;
  }
  return 1;
}

/* the send data of call c */
static void cl_v_fill(cl_v_t *x, int c) {
  const long S = x->S;
  switch (x->coll) {
    case C_GATHERV:
    case C_ALLGATHERV:
      for (long i = 0; i < cl_vcount(x->me, x->count); ++i) x->sbuf[i] = v(c, x->me, i);
      break;
    case C_SCATTERV:
      if (x->me == x->root)
        for (int r = 0; r < x->P; ++r)
          for (long i = c % S; i < cl_vcount(r, x->count); i += S) x->sbuf[x->sdispls[r] + i] = v(c, r, i);
      break;
    case C_ALLTOALLV:
      for (int q = 0; q < x->P; ++q)
        for (long i = c % S; i < x->scounts[q]; i += S) x->sbuf[x->sdispls[q] + i] = v(c, x->me, q * x->W + i);
      break;
    case C_RS:
      for (int q = 0; q < x->P; ++q)
        for (long i = c % S; i < x->rcounts[q]; i += S) x->sbuf[x->rdispls[q] + i] = v(c, x->me, x->rdispls[q] + i);
      break;
  }
}

static void cl_v_call(cl_v_t *x) {
  const int mine = (int)cl_vcount(x->me, x->count);
  switch (x->coll) {
    case C_GATHERV:
      MPI_Gatherv(x->sbuf, mine, MPI_UNSIGNED, x->rbuf, x->rcounts, x->rdispls, MPI_UNSIGNED, x->root,
                  MPI_COMM_WORLD);
      break;
    case C_ALLGATHERV:
      MPI_Allgatherv(x->sbuf, mine, MPI_UNSIGNED, x->rbuf, x->rcounts, x->rdispls, MPI_UNSIGNED,
                     MPI_COMM_WORLD);
      break;
    case C_SCATTERV:
      MPI_Scatterv(x->sbuf, x->scounts, x->sdispls, MPI_UNSIGNED, x->rbuf, mine, MPI_UNSIGNED, x->root,
                   MPI_COMM_WORLD);
      break;
    case C_ALLTOALLV:
      MPI_Alltoallv(x->sbuf, x->scounts, x->sdispls, MPI_UNSIGNED, x->rbuf, x->rcounts, x->rdispls,
                    MPI_UNSIGNED, MPI_COMM_WORLD);
      break;
    case C_RS:
      MPI_Reduce_scatter(x->sbuf, x->rbuf, x->rcounts, MPI_UNSIGNED, MPI_SUM, MPI_COMM_WORLD);
      break;
  }
}

/* wrong elements of call c on this rank */
static long cl_v_check(const cl_v_t *x, int c) {
  const long S = x->S;
  const unsigned Pu = (unsigned)x->P, tri = (unsigned)((unsigned long long)x->P * (x->P - 1) / 2);
  long bad = 0;
  switch (x->coll) {
    case C_GATHERV:
    case C_ALLGATHERV:
      if (x->coll == C_GATHERV && x->me != x->root) break;
      for (int r = 0; r < x->P; ++r)
        for (long i = c % S; i < cl_vcount(r, x->count); i += S) bad += x->rbuf[x->rdispls[r] + i] != v(c, r, i);
      break;
    case C_SCATTERV:
      for (long i = 0; i < cl_vcount(x->me, x->count); ++i) bad += x->rbuf[i] != v(last_call(c, i, S), x->me, i);
      break;
    case C_ALLTOALLV:
      for (int q = 0; q < x->P; ++q)
        for (long i = c % S; i < x->rcounts[q]; i += S)
          bad += x->rbuf[x->rdispls[q] + i] != v(c, q, x->me * x->W + i);
      break;
    case C_RS:
      for (long i = 0; i < cl_vcount(x->me, x->count); ++i) {
        const int l = last_call(c, i, S);
        const long j = x->rdispls[x->me] + i;
        bad += x->rbuf[i] != Pu * va(l, j) + tri * vb(l, j);
      }
      break;
  }
  return bad;
}

static void cl_v_free(cl_v_t *x) {
  free(x->sbuf);
  free(x->rbuf);
  free(x->scounts);
}

#endif
