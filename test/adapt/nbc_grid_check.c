/*
 * The two-level direct schedules of MPI_Ibcast / MPI_Iallreduce
 * (adapt/nbc_grid.c) on more ranks than the one-level direct schedule takes
 * (ARCOLL_NBC_DIRECT_MAX_P = 128), SMPI linked with libarcoll (or MPICH with
 * LD_PRELOAD: there the one-level schedules run, the values are checked the
 * same).
 *
 * Usage: nbc_grid_check [expect_grid 0|1]
 *   MPI_Iallreduce of N = 16391 MPI_INT (MPI_SUM; also MPI_IN_PLACE), of
 *   4099 2x2 matrices (a NON-commutative product: the result must be
 *   M_0 M_1 ... M_(P-1) in rank order), a persistent MPI_Allreduce_init
 *   started three times with new contents, MPI_Ibcast of N MPI_INT and of
 *   N / 2 elements of a non-contiguous vector type (packed) from roots 0,
 *   P / 2 and P - 1.  Every rank computes the expected values itself
 *   (nbc_check_ref.h).  With expect_grid 1 every schedule must have at most
 *   5 rounds (arcoll_nbc_last_rounds: 4, +1 local round for MPI_IN_PLACE or
 *   packing; Rabenseifner / scatter + allgather take 2 log2 P).
 * Prints "nbc_grid_check P=N: OK (max rounds R)".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"

#ifdef ARCOLL_TEST_LINKED
int arcoll_nbc_last_rounds(void);
#endif

#define CHECK_PROG "nbc_grid_check"
static int P, me;
static long failures = 0, checked = 0;

#include "nbc_check_ref.h"

enum { N = 16391, NMAT = 4099 };
typedef int (*rounds_fn)(void);
static rounds_fn g_rounds;
static int g_expect_grid, g_max_rounds;

/* after starting a schedule: its rounds, checked against expect_grid */
static void rounds(const char *what) {
  const int r = g_rounds ? g_rounds() : -1;
  if (r > g_max_rounds) g_max_rounds = r;
  if (g_expect_grid) CHECK(r >= 1 && r <= 5, "%s: %d rounds, expected the grid's 4 (+1)", what, r);
}

static void allreduce_int(int salt, int inplace) {
  int *in = malloc(sizeof(int) * N), *out = malloc(sizeof(int) * N);
  for (int i = 0; i < N; ++i) in[i] = val(salt, me, i);
  if (inplace) memcpy(out, in, sizeof(int) * N);
  MPI_Request r;
  MPI_Iallreduce(inplace ? MPI_IN_PLACE : in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
  rounds(inplace ? "iallreduce in place" : "iallreduce");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  long bad = 0;
  for (int i = 0; i < N; ++i) {
    long e = 0;
    for (int q = 0; q < P; ++q) e += val(salt, q, i);
    bad += out[i] != (int)e;
  }
  CHECK(bad == 0, "iallreduce int inplace %d: %ld wrong", inplace, bad);
  free(in);
  free(out);
}

static void allreduce_mat(int salt) {
  int *in = malloc(sizeof(int) * 4 * NMAT), *out = malloc(sizeof(int) * 4 * NMAT);
  for (int i = 0; i < 4 * NMAT; ++i) in[i] = val(salt, me, i) % 10007;
  MPI_Request r;
  MPI_Iallreduce(in, out, NMAT, mat_t, mat_op, MPI_COMM_WORLD, &r);
  rounds("iallreduce non-commutative");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  long bad = 0;
  for (int k = 0; k < NMAT; ++k) {
    int e[4];
    mat_expected(salt, k, e);
    for (int j = 0; j < 4; ++j) bad += out[4 * k + j] != e[j];
  }
  CHECK(bad == 0, "iallreduce matrices (rank order): %ld wrong", bad);
  free(in);
  free(out);
}

static void allreduce_persistent(void) {
#if MPI_VERSION >= 4
  int *in = malloc(sizeof(int) * N), *out = malloc(sizeof(int) * N);
  MPI_Request r;
  MPI_Allreduce_init(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  rounds("allreduce_init");
  for (int start = 0; start < 3; ++start) {
    for (int i = 0; i < N; ++i) in[i] = val(40 + start, me, i);
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    long bad = 0;
    for (int i = 0; i < N; ++i) {
      long e = 0;
      for (int q = 0; q < P; ++q) e += val(40 + start, q, i);
      bad += out[i] != (int)e;
    }
    CHECK(bad == 0, "persistent allreduce start %d: %ld wrong", start, bad);
  }
  MPI_Request_free(&r);
  free(in);
  free(out);
#endif
}

static void bcast(int salt, int root, int vec) {
  const int n = vec ? N / 2 : N;
  int *b = tbuf(n, vec);
  for (int i = 0; i < n; ++i) tset(b, vec, i, me == root ? val(salt, root, i) : -1);
  MPI_Request r;
  MPI_Ibcast(b, n, vec ? vec_t : MPI_INT, root, MPI_COMM_WORLD, &r);
  rounds(vec ? "ibcast vector" : "ibcast");
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += tget(b, vec, i) != val(salt, root, i);
  CHECK(bad == 0 && gaps_ok(b, n, vec), "ibcast root %d vec %d: %ld wrong", root, vec, bad);
  free(b);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  g_expect_grid = argc > 1 && atoi(argv[1]) == 1;
  g_rounds = ARCOLL_TEST_SYMBOL(rounds_fn, arcoll_nbc_last_rounds);
  CHECK(g_rounds != NULL, "libarcoll is not active (arcoll_nbc_last_rounds missing)");
  ref_init();
  allreduce_int(1, 0);
  allreduce_int(2, 1);
  allreduce_mat(3);
  allreduce_persistent();
  const int roots[3] = {0, P / 2, P - 1};
  for (int k = 0; k < 3; ++k) {
    bcast(10 + k, roots[k], 0);
    bcast(20 + k, roots[k], 1);
  }
  ref_free();
  long all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && all == 0) printf("nbc_grid_check P=%d: OK (max rounds %d)\n", P, g_max_rounds);
  MPI_Finalize();
  return all != 0;
}
