/*
 * large_blocks_check: the block collectives MPI_Allgather, MPI_Allgatherv,
 * MPI_Gatherv, MPI_Scatterv, MPI_Alltoallv, MPI_Reduce_scatter and
 * MPI_Reduce_scatter_block through libarcoll (auto: the online selection's
 * warm-up, candidates and trials all run) on MPI_COMM_WORLD of any size,
 * with few calls each: written for P = 256 under SMPI, where the full check
 * programs of each collective (allgather_check.c ...) take many minutes of
 * host time (adapt.smpi.large_blocks.np256 took 111 s when written, 265 s on 1 Dec;
 * its timeout: test/adapt/CMakeLists.txt).
 *
 * Usage: large_blocks_check [CALLS [N]]: CALLS calls per collective (default
 * 14), N ints per block (default 4).  Every call has new data: element i
 * of rank r's contribution to rank (or block) j at call c is val(c, r, j, i).
 * v-forms: irregular counts, (k % 3) N for the rank k whose count it is
 * (every third rank contributes or receives nothing); gatherv / scatterv
 * alternate between roots 0 and P - 1; reduce_scatter sums MPI_INT with
 * irregular counts; reduce_scatter_block combines pairs of unsigned ints as
 * affine maps x -> m x + c (mod 2^32) composed in rank order, an associative,
 * non-commutative user op.  Each rank compares every element it receives with
 * its own reference (the references fold over the P ranks: O(P N) per
 * block).  Prints "large_blocks_check P=<P>: OK|FAIL (<failures> failures,
 * <checks> checks)" from rank 0 and exits 1 on a failure.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK_PROG "large_blocks_check"
static int me, P, N = 4;
static long failures = 0, checked = 0;
#include "../check.h"

static int val(int c, int r, int j, int i) {
  return (int)(((unsigned)c + 1u) * 1000003u + (unsigned)r * 7919u + (unsigned)j * 131u +
               (unsigned)i);
}

static void displs_of(const int *cnt, int *dsp) {
  dsp[0] = 0;
  for (int k = 1; k < P; ++k) dsp[k] = dsp[k - 1] + cnt[k - 1];
}

static void allgather(int c, int *sb, int *rb) {
  for (int i = 0; i < N; ++i) sb[i] = val(c, me, 0, i);
  MPI_Allgather(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < P; ++r)
    for (int i = 0; i < N; ++i)
      CHECK(rb[r * N + i] == val(c, r, 0, i), "allgather call %d from %d [%d]", c, r, i);
}

/* cnt, dsp: the v-forms' counts, (k % 3) N for rank k, and displacements */
static void allgatherv(int c, int *sb, int *rb, const int *cnt, const int *dsp) {
  for (int i = 0; i < cnt[me]; ++i) sb[i] = val(c, me, 0, i);
  MPI_Allgatherv(sb, cnt[me], MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < P; ++r)
    for (int i = 0; i < cnt[r]; ++i)
      CHECK(rb[dsp[r] + i] == val(c, r, 0, i), "allgatherv call %d from %d [%d]", c, r, i);
}

static void gatherv(int c, int *sb, int *rb, const int *cnt, const int *dsp) {
  const int root = c % 2 ? P - 1 : 0;
  for (int i = 0; i < cnt[me]; ++i) sb[i] = val(c, me, root, i);
  MPI_Gatherv(sb, cnt[me], MPI_INT, rb, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD);
  if (me != root) return;
  for (int r = 0; r < P; ++r)
    for (int i = 0; i < cnt[r]; ++i)
      CHECK(rb[dsp[r] + i] == val(c, r, root, i), "gatherv call %d root %d from %d [%d]", c,
            root, r, i);
}

static void scatterv(int c, int *sb, int *rb, const int *cnt, const int *dsp) {
  const int root = c % 2 ? 0 : P - 1;
  if (me == root)
    for (int r = 0; r < P; ++r)
      for (int i = 0; i < cnt[r]; ++i) sb[dsp[r] + i] = val(c, root, r, i);
  MPI_Scatterv(sb, cnt, dsp, MPI_INT, rb, cnt[me], MPI_INT, root, MPI_COMM_WORLD);
  for (int i = 0; i < cnt[me]; ++i)
    CHECK(rb[i] == val(c, root, me, i), "scatterv call %d root %d [%d]", c, root, i);
}

/* Rank me sends (me + j) % 3 * N ints to rank j: counts differ per pair and
 * sender, zeros included; the receiver derives its counts the same way. */
static void alltoallv(int c, int *sb, int *rb, int *scnt, int *sdsp, int *rcnt, int *rdsp) {
  for (int j = 0; j < P; ++j) scnt[j] = (me + j) % 3 * N, rcnt[j] = (j + me) % 3 * N;
  displs_of(scnt, sdsp);
  displs_of(rcnt, rdsp);
  for (int j = 0; j < P; ++j)
    for (int i = 0; i < scnt[j]; ++i) sb[sdsp[j] + i] = val(c, me, j, i);
  MPI_Alltoallv(sb, scnt, sdsp, MPI_INT, rb, rcnt, rdsp, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < P; ++r)
    for (int i = 0; i < rcnt[r]; ++i)
      CHECK(rb[rdsp[r] + i] == val(c, r, me, i), "alltoallv call %d from %d [%d]", c, r, i);
}

static void reduce_scatter(int c, int *sb, int *rb, const int *cnt, const int *dsp) {
  for (int j = 0; j < P; ++j)
    for (int i = 0; i < cnt[j]; ++i) sb[dsp[j] + i] = val(c, me, j, i);
  MPI_Reduce_scatter(sb, rb, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < cnt[me]; ++i) {
    unsigned ref = 0;
    for (int r = 0; r < P; ++r) ref += (unsigned)val(c, r, me, i);
    CHECK(rb[i] == (int)ref, "reduce_scatter call %d [%d]: %d, expected %d", c, i, rb[i],
          (int)ref);
  }
}

/* inout = in o inout for affine maps (m, c): apply in first, then inout */
static void compose(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  const unsigned *a = in;
  unsigned *b = inout;
  for (int k = 0; k < *len; ++k, a += 2, b += 2) {
    const unsigned m = a[0] * b[0], t = a[1] * b[0] + b[1];
    b[0] = m, b[1] = t;
  }
}

static void reduce_scatter_block(int c, MPI_Datatype pair, MPI_Op op, unsigned *sb,
                                 unsigned *rb) {
  for (int j = 0; j < P; ++j)
    for (int i = 0; i < N; ++i) {
      const unsigned v = (unsigned)val(c, me, j, i);
      sb[2 * (j * N + i)] = 2u * v + 1u; /* odd: the products never collapse to 0 */
      sb[2 * (j * N + i) + 1] = v ^ 0x9e3779b9u;
    }
  MPI_Reduce_scatter_block(sb, rb, N, pair, op, MPI_COMM_WORLD);
  for (int i = 0; i < N; ++i) {
    unsigned m = 1u, t = 0u; /* identity map, then ranks 0, 1, ..., P - 1 */
    for (int r = 0; r < P; ++r) {
      const unsigned v = (unsigned)val(c, r, me, i), rm = 2u * v + 1u, rc = v ^ 0x9e3779b9u;
      t = t * rm + rc;
      m = m * rm;
    }
    CHECK(rb[2 * i] == m && rb[2 * i + 1] == t, "reduce_scatter_block call %d [%d]", c, i);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const int calls = argc > 1 ? atoi(argv[1]) : 14;
  if (argc > 2) N = atoi(argv[2]);
  if (calls < 1 || N < 1) {
    if (me == 0) fprintf(stderr, "usage: %s [CALLS >= 1 [N >= 1]]\n", CHECK_PROG);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const size_t all = (size_t)P * (size_t)N * 2; /* ints: P blocks of up to 2 N */
  int *sb = malloc(all * sizeof(int)), *rb = malloc(all * sizeof(int));
  unsigned *usb = malloc(all * sizeof(unsigned)), *urb = malloc(all * sizeof(unsigned));
  int *c1 = malloc(sizeof(int) * (size_t)P), *d1 = malloc(sizeof(int) * (size_t)P);
  int *c2 = malloc(sizeof(int) * (size_t)P), *d2 = malloc(sizeof(int) * (size_t)P);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_UNSIGNED, &pair);
  MPI_Type_commit(&pair);
  MPI_Op op;
  MPI_Op_create(compose, 0, &op);
  for (int k = 0; k < P; ++k) c1[k] = (k % 3) * N; /* the v-forms' counts */
  displs_of(c1, d1);
  for (int c = 0; c < calls; ++c) allgather(c, sb, rb);
  for (int c = 0; c < calls; ++c) allgatherv(c, sb, rb, c1, d1);
  for (int c = 0; c < calls; ++c) gatherv(c, sb, rb, c1, d1);
  for (int c = 0; c < calls; ++c) scatterv(c, sb, rb, c1, d1);
  for (int c = 0; c < calls; ++c) reduce_scatter(c, sb, rb, c1, d1);
  for (int c = 0; c < calls; ++c) alltoallv(c, sb, rb, c1, d1, c2, d2); /* c1, d1 reused */
  for (int c = 0; c < calls; ++c) reduce_scatter_block(c, pair, op, usb, urb);
  long mine[2] = {failures, checked}, tot[2];
  MPI_Reduce(mine, tot, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0)
    printf("%s P=%d: %s (%ld failures, %ld checks)\n", CHECK_PROG, P, tot[0] ? "FAIL" : "OK",
           tot[0], tot[1]);
  MPI_Op_free(&op);
  MPI_Type_free(&pair);
  free(sb), free(rb), free(usb), free(urb), free(c1), free(d1), free(c2), free(d2);
  MPI_Finalize();
  return tot[0] && me == 0 ? 1 : 0;
}
