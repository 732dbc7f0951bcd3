/*
 * Data and local references of the nonblocking / persistent collective
 * checks (nbc_check.c, nbc_persist_check.c): every value is a function of
 * (salt, rank, index), so each rank computes what it must receive without
 * MPI.  vec_t: a non-contiguous vector (ints 0 and 3 of every 4; the gap
 * ints 1, 2 hold GAP and must stay so); mat_t: a 2x2 int matrix (4
 * contiguous ints) with mat_op, the NON-commutative matrix product mod
 * 10007 (x0 op x1 op ... = M0 M1 ... in rank order).  Include after
 * defining P and me.
 */
#ifndef ARCOLL_TEST_NBC_CHECK_REF_H
#define ARCOLL_TEST_NBC_CHECK_REF_H

#include <mpi.h>
#include <stdlib.h>

#define GAP (-7)
static MPI_Datatype vec_t, mat_t;
static MPI_Op mat_op;

static int val(int salt, int rank, int i) {
  return (int)(((long)salt * 131 + (long)rank * 1009 + (long)i * 7) % 10007);
}

/* room for n elements (vec: 4 ints each, gaps set) */
static int *tbuf(int n, int vec) {
  int *b = malloc(sizeof(int) * (size_t)(vec ? 4 * n + 1 : n + 1));
  if (vec)
    for (int j = 0; j < n; ++j) b[4 * j + 1] = b[4 * j + 2] = GAP;
  return b;
}
static int *tslot(int *b, int vec, int i) { return vec ? &b[(i / 2) * 4 + (i % 2 ? 3 : 0)] : &b[i]; }
static void tset(int *b, int vec, int i, int x) { *tslot(b, vec, i) = x; }
static int tget(int *b, int vec, int i) { return *tslot(b, vec, i); }
static int gaps_ok(const int *b, int n, int vec) {
  for (int j = 0; vec && j < n; ++j)
    if (b[4 * j + 1] != GAP || b[4 * j + 2] != GAP) return 0;
  return 1;
}

static void mat_mul(const int *a, const int *b, int *c) { /* c = a b mod 10007 */
  int t[4];
  t[0] = (int)(((long)a[0] * b[0] + (long)a[1] * b[2]) % 10007);
  t[1] = (int)(((long)a[0] * b[1] + (long)a[1] * b[3]) % 10007);
  t[2] = (int)(((long)a[2] * b[0] + (long)a[3] * b[2]) % 10007);
  t[3] = (int)(((long)a[2] * b[1] + (long)a[3] * b[3]) % 10007);
  for (int k = 0; k < 4; ++k) c[k] = t[k];
}
static void mat_fn(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int k = 0; k < *len; ++k) mat_mul((int *)in + 4 * k, (int *)inout + 4 * k, (int *)inout + 4 * k);
}
/* element k of the reduction over ranks 0..P-1 of val(salt, r, 4k + j) % 10007 */
static void mat_expected(int salt, int k, int *e) {
  for (int j = 0; j < 4; ++j) e[j] = val(salt, 0, 4 * k + j) % 10007;
  for (int r = 1; r < P; ++r) {
    int m[4];
    for (int j = 0; j < 4; ++j) m[j] = val(salt, r, 4 * k + j) % 10007;
    mat_mul(e, m, e);
  }
}

static void ref_init(void) {
  MPI_Type_vector(2, 1, 3, MPI_INT, &vec_t);
  MPI_Type_commit(&vec_t);
  MPI_Type_contiguous(4, MPI_INT, &mat_t);
  MPI_Type_commit(&mat_t);
  MPI_Op_create(mat_fn, 0, &mat_op);
}

static void ref_free(void) {
  MPI_Type_free(&vec_t);
  MPI_Type_free(&mat_t);
  MPI_Op_free(&mat_op);
}

#endif
