/*
 * Test data of the allgather checks (algorithms_check.c here, direct calls of
 * the algorithms; test/adapt/allgather_check.c, through libarcoll): the
 * datatype cases, the input of every rank and the expected receive buffer,
 * computed by each rank from (call id, rank, index) alone - no MPI
 * collective is used as the reference.
 *
 * A message is a sequence of K scalars (ints, or doubles in case 1); scalar
 * k of rank r's contribution in call `id` is ag_val(id, r, k).  Cases
 * (send type x count, receive type x count, for a size n):
 *   0  MPI_INT n            / MPI_INT n
 *   1  MPI_DOUBLE n         / MPI_DOUBLE n
 *   2  vector n             / vector n     (vector: ints 0 and 3 of 4, extent 16)
 *   3  vector n             / MPI_INT 2n   (different send and receive types)
 *   4  MPI_INT 2n           / even ranks MPI_INT 2n, odd ranks pair n
 *      (pair: 2 contiguous ints; receive types differ between ranks)
 * Every buffer starts filled with the sentinel AG_GAP, so gaps of the vector
 * type and bytes outside the blocks must stay untouched.
 */
#ifndef ARCOLL_TEST_ALLGATHER_DATA_H
#define ARCOLL_TEST_ALLGATHER_DATA_H

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define AG_NCASES 5
#define AG_GAP (-7)
enum { AG_INT, AG_DBL, AG_VEC, AG_PAIR };

static MPI_Datatype ag_vec, ag_pair;

static void ag_types_init(void) {
  MPI_Type_vector(2, 1, 3, MPI_INT, &ag_vec);
  MPI_Type_commit(&ag_vec);
  MPI_Type_contiguous(2, MPI_INT, &ag_pair);
  MPI_Type_commit(&ag_pair);
}
static void ag_types_free(void) {
  MPI_Type_free(&ag_vec);
  MPI_Type_free(&ag_pair);
}

static MPI_Datatype ag_mpi(int t) {
  return t == AG_INT ? MPI_INT : t == AG_DBL ? MPI_DOUBLE : t == AG_VEC ? ag_vec : ag_pair;
}
static long ag_extent(int t) { return t == AG_INT ? 4 : t == AG_DBL ? 8 : t == AG_VEC ? 16 : 8; }
static long ag_scalars_per(int t) { return t == AG_VEC || t == AG_PAIR ? 2 : 1; }

/* (type, count) of the send side and of rank `rank`'s receive side */
static void ag_case(int c, long n, int rank, int *st, long *sn, int *rt, long *rn) {
  static const int s[AG_NCASES] = {AG_INT, AG_DBL, AG_VEC, AG_VEC, AG_INT};
  static const int r[AG_NCASES] = {AG_INT, AG_DBL, AG_VEC, AG_INT, AG_INT};
  *st = s[c];
  *sn = c == 4 ? 2 * n : n;
  *rt = c == 4 && rank % 2 ? AG_PAIR : r[c];
  *rn = c == 3 || (c == 4 && rank % 2 == 0) ? 2 * n : n;
}

static int ag_val(int id, int rank, long k) {
  return (int)(((long)id * 131 + (long)rank * 7919 + k * 31) % 1000) - 500;
}

/* scalar k of a message laid out in type t at buf */
static void ag_put(int t, void *buf, long k, int id, int rank) {
  const int v = ag_val(id, rank, k);
  if (t == AG_DBL) ((double *)buf)[k] = v + 0.5;
  else if (t == AG_VEC) ((int *)buf)[4 * (k / 2) + 3 * (k % 2)] = v;
  else ((int *)buf)[k] = v;
}

/* count elements of t, every int the sentinel */
static void *ag_alloc(int t, long count) {
  size_t b = (size_t)(count > 0 ? count : 1) * (size_t)ag_extent(t);
  int *p = malloc(b);
  for (size_t i = 0; i < b / 4; ++i) p[i] = AG_GAP;
  return p;
}

/* rank's contribution (K scalars) laid out in type t at buf */
static void ag_fill(int t, void *buf, long K, int id, int rank) {
  for (long k = 0; k < K; ++k) ag_put(t, buf, k, id, rank);
}

/* ints that differ between got and exp (count elements of t) */
static long ag_diff(int t, const void *got, const void *exp, long count) {
  long bad = 0, nint = (count > 0 ? count : 1) * ag_extent(t) / 4;
  for (long i = 0; i < nint; ++i) bad += ((const int *)got)[i] != ((const int *)exp)[i];
  return bad;
}

#endif
