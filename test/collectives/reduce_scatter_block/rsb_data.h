/*
 * Test data of the reduce_scatter_block and reduce_scatter checks
 * (algorithms_check.c here and in ../reduce_scatter, direct calls;
 * test/adapt/reduce_scatter{_block,}_check.c, through libarcoll):
 * cases, inputs and the expected result, computed by each rank from (call
 * id, rank, index) alone by folding the P inputs in rank order - no MPI
 * collective is the reference.
 * Cases (datatype, op):
 *   0  MPI_INT, MPI_SUM
 *   1  MPI_DOUBLE, MPI_SUM (values k + 0.5: every order sums exactly)
 *   2  vector (ints 0 and 3 of 4, extent 16), user commutative sum; the gap
 *      ints must stay untouched
 *   3  2x2 int matrix (4 contiguous ints), user NON-commutative op
 *      inout = in x inout mod 10007: only the rank order gives the result
 */
#ifndef ARCOLL_TEST_RSB_DATA_H
#define ARCOLL_TEST_RSB_DATA_H

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define RSB_NCASES 4
#define RSB_GAP (-7)
#define RSB_MODP 10007

static MPI_Datatype rsb_vec, rsb_mat;
static MPI_Op rsb_vsum, rsb_matop;

static void rsb_mat_mul(const int *a, const int *b, int *c) { /* c = a x b mod p */
  int t[4];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      t[2 * i + j] = (int)(((long)a[2 * i] * b[j] + (long)a[2 * i + 1] * b[2 + j]) % RSB_MODP);
  memcpy(c, t, sizeof t);
}
static void rsb_vsum_fn(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int i = 0; i < *len; ++i) {
    ((int *)inout)[4 * i] += ((int *)in)[4 * i];
    ((int *)inout)[4 * i + 3] += ((int *)in)[4 * i + 3];
  }
}
static void rsb_mat_fn(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int i = 0; i < *len; ++i) {
    int *io = (int *)inout + 4 * i;
    rsb_mat_mul((int *)in + 4 * i, io, io);
  }
}

static void rsb_init(void) {
  MPI_Type_vector(2, 1, 3, MPI_INT, &rsb_vec);
  MPI_Type_commit(&rsb_vec);
  MPI_Type_contiguous(4, MPI_INT, &rsb_mat);
  MPI_Type_commit(&rsb_mat);
  MPI_Op_create(rsb_vsum_fn, 1, &rsb_vsum);
  MPI_Op_create(rsb_mat_fn, 0, &rsb_matop);
}
static void rsb_free(void) {
  MPI_Op_free(&rsb_vsum);
  MPI_Op_free(&rsb_matop);
  MPI_Type_free(&rsb_vec);
  MPI_Type_free(&rsb_mat);
}

static MPI_Datatype rsb_type(int c) {
  return c == 0 ? MPI_INT : c == 1 ? MPI_DOUBLE : c == 2 ? rsb_vec : rsb_mat;
}
static MPI_Op rsb_op(int c) { return c < 2 ? MPI_SUM : c == 2 ? rsb_vsum : rsb_matop; }
static long rsb_extent(int c) { return c == 0 ? 4 : c == 1 ? 8 : 16; }

static int rsb_val(int c, int id, int rank, long i) {
  if (c == 3) return (int)(((long)id + rank * 3 + i * 7) % 10);
  return (int)(((long)id * 131 + (long)rank * 7919 + i * 31) % 1000) - 500;
}

/* element of global index g (over the P blocks) of rank's input, at p */
static void rsb_elem(int c, int *p, int id, int rank, long g) {
  if (c == 0) p[0] = rsb_val(c, id, rank, g);
  else if (c == 1) {
    const double d = rsb_val(c, id, rank, g) + 0.5;
    memcpy(p, &d, sizeof d);
  } else if (c == 2) p[0] = rsb_val(c, id, rank, 2 * g), p[3] = rsb_val(c, id, rank, 2 * g + 1);
  else for (int k = 0; k < 4; ++k) p[k] = rsb_val(c, id, rank, 4 * g + k);
}

/* rank's whole input (n elements) into buf */
static void rsb_fill(int c, void *buf, long n, int id, int rank) {
  for (long e = 0; e < n; ++e) rsb_elem(c, (int *)((char *)buf + e * rsb_extent(c)), id, rank, e);
}

static void *rsb_alloc(int c, long n) {
  size_t b = (size_t)(n > 0 ? n : 1) * (size_t)rsb_extent(c);
  int *p = malloc(b);
  for (size_t i = 0; i < b / 4; ++i) p[i] = RSB_GAP;
  return p;
}

/* expected result of the `count` elements from global index g0 over P
 * ranks, into out: x_0 op x_1 op ... op x_{P-1}, folded from the left in
 * rank order (reduce_scatter's blocks start anywhere) */
static void rsb_expect_at(int c, void *out, long count, long g0, int P, int id) {
  int x[4] = {RSB_GAP, RSB_GAP, RSB_GAP, RSB_GAP};
  for (long e = 0; e < count; ++e) {
    int *o = (int *)((char *)out + e * rsb_extent(c));
    const long g = g0 + e;
    rsb_elem(c, o, id, 0, g);
    for (int r = 1; r < P; ++r) {
      rsb_elem(c, x, id, r, g);
      if (c == 0) o[0] += x[0];
      else if (c == 1) {
        double a, b;
        memcpy(&a, o, sizeof a);
        memcpy(&b, x, sizeof b);
        a += b;
        memcpy(o, &a, sizeof a);
      }
      else if (c == 2) o[0] += x[0], o[3] += x[3];
      else rsb_mat_mul(o, x, o);
    }
  }
}

/* expected result of block `blk` (count elements, equal blocks) */
static void rsb_expect(int c, void *out, long count, int blk, int P, int id) {
  rsb_expect_at(c, out, count, (long)blk * count, P, id);
}

static long rsb_diff(int c, const void *got, const void *exp, long count) {
  long bad = 0, nint = (count > 0 ? count : 1) * rsb_extent(c) / 4;
  for (long i = 0; i < nint; ++i) bad += ((const int *)got)[i] != ((const int *)exp)[i];
  return bad;
}

#endif
