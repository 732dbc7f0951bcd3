/*
 * coll_check's data (coll_check.h): the four element types, every rank's
 * input as a function of (call id, rank, index), and the reference
 * reductions computed from it in rank order, independently of MPI.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "coll_check.h"

const char *cc_tname[NT] = {"int", "double", "vector", "matrix"};
static MPI_Datatype t_vec, t_mat;
static MPI_Op op_mat, op_vsum;
#define MODP 10007

MPI_Datatype cc_dtype(int t) {
  return t == T_INT ? MPI_INT : t == T_DBL ? MPI_DOUBLE : t == T_VEC ? t_vec : t_mat;
}
long cc_extent_bytes(int t) { return t == T_INT ? 4 : t == T_DBL ? 8 : 16; }
long cc_data_bytes(int t) { return t == T_INT ? 4 : t == T_DBL ? 8 : t == T_VEC ? 8 : 16; }

int cc_ival(int id, int rank, long i) {
  return (int)(((long)id * 131 + (long)rank * 7919 + i * 31) % 1000) - 500;
}
static int mval(int id, int rank, long i) { return (int)(((long)id + rank * 3 + i * 7) % 10); }

/* Element e of the "input of `rank`" for call id, written into buf. */
static void put(int t, void *buf, long e, int id, int rank) {
  switch (t) {
    case T_INT: ((int *)buf)[e] = cc_ival(id, rank, e); break;
    case T_DBL: ((double *)buf)[e] = cc_ival(id, rank, e) + 0.5; break;
    case T_VEC: {
      int *p = (int *)buf + 4 * e;
      p[0] = cc_ival(id, rank, 2 * e);
      p[3] = cc_ival(id, rank, 2 * e + 1);
      break;
    }
    case T_MAT:
      for (int k = 0; k < 4; ++k) ((int *)buf)[4 * e + k] = mval(id, rank, 4 * e + k);
      break;
  }
}

void *cc_alloc_blocks(int t, long n) {
  size_t b = (size_t)(n > 0 ? n : 1) * (size_t)cc_extent_bytes(t);
  void *p = malloc(b);
  for (size_t i = 0; i < b / 4; ++i) ((int *)p)[i] = GAP; /* sentinel everywhere */
  return p;
}

void cc_fill(int t, void *buf, long n, int id, int rank) {
  for (long e = 0; e < n; ++e) put(t, buf, e, id, rank);
}

/* byte-exact compare of n elements (gaps included) */
long cc_diff(int t, const void *got, const void *exp, long n) {
  long bad = 0, words = n * cc_extent_bytes(t) / 4;
  for (long i = 0; i < words; ++i) bad += ((const int *)got)[i] != ((const int *)exp)[i];
  return bad;
}

static void mat_mul(const int *a, const int *b, int *c) { /* c = a x b mod p */
  int r[4];
  r[0] = (a[0] * b[0] + a[1] * b[2]) % MODP;
  r[1] = (a[0] * b[1] + a[1] * b[3]) % MODP;
  r[2] = (a[2] * b[0] + a[3] * b[2]) % MODP;
  r[3] = (a[2] * b[1] + a[3] * b[3]) % MODP;
  memcpy(c, r, sizeof r);
}

static void vsum_op(void *in, void *inout, int *len, MPI_Datatype *dt) { /* vector: sum */
  (void)dt;
  for (int i = 0; i < *len; ++i) {
    ((int *)inout)[4 * i] += ((int *)in)[4 * i];
    ((int *)inout)[4 * i + 3] += ((int *)in)[4 * i + 3];
  }
}

static void mat_op(void *in, void *inout, int *len, MPI_Datatype *dt) { /* inout = in x inout */
  (void)dt;
  for (int i = 0; i < *len; ++i) mat_mul((int *)in + 4 * i, (int *)inout + 4 * i, (int *)inout + 4 * i);
}

/* Reference reduction of ranks lo..hi (inclusive, rank order) into out; the
 * op per type: int SUM, double MAX, vector sum (user, commutative), matrix
 * product (user, non-commutative). */
void cc_ref_reduce(int t, void *out, long n, int id, int lo, int hi) {
  void *x = cc_alloc_blocks(t, n);
  for (int r = lo; r <= hi; ++r) {
    cc_fill(t, x, n, id, r);
    for (long e = 0; e < n; ++e) {
      if (r == lo) {
        memcpy((char *)out + e * cc_extent_bytes(t), (char *)x + e * cc_extent_bytes(t),
               (size_t)cc_extent_bytes(t));
        continue;
      }
      switch (t) {
        case T_INT: ((int *)out)[e] += ((int *)x)[e]; break;
        case T_DBL:
          if (((double *)x)[e] > ((double *)out)[e]) ((double *)out)[e] = ((double *)x)[e];
          break;
        case T_VEC:
          ((int *)out)[4 * e] += ((int *)x)[4 * e];
          ((int *)out)[4 * e + 3] += ((int *)x)[4 * e + 3];
          break;
        case T_MAT: mat_mul((int *)out + 4 * e, (int *)x + 4 * e, (int *)out + 4 * e); break;
      }
    }
  }
  free(x);
}

MPI_Op cc_rop(int t) {
  return t == T_INT ? MPI_SUM : t == T_DBL ? MPI_MAX : t == T_VEC ? op_vsum : op_mat;
}

void cc_data_create(void) {
  MPI_Type_vector(2, 1, 3, MPI_INT, &t_vec); /* ints 0 and 3; extent 16 bytes */
  MPI_Type_commit(&t_vec);
  MPI_Type_contiguous(4, MPI_INT, &t_mat);
  MPI_Type_commit(&t_mat);
  MPI_Op_create(mat_op, 0, &op_mat);
  MPI_Op_create(vsum_op, 1, &op_vsum);
}

void cc_data_free(void) {
  MPI_Op_free(&op_mat);
  MPI_Op_free(&op_vsum);
  MPI_Type_free(&t_vec);
  MPI_Type_free(&t_mat);
}
