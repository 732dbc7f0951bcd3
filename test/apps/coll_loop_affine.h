/*
 * coll_loop_affine.h: coll_loop's non-commutative reduction (-o affine,
 * -o mixed), included by coll_loop.c only (one translation unit, so
 * tools/adapt-bench.sh builds coll_loop with one smpicc command).
 *
 * Elements: pairs (a, b) of unsigned (a committed contiguous type of two
 * MPI_UNSIGNED), each the affine map x -> a x + b (mod 2^32).  The op
 * composes maps in rank order: (u op w)(x) = w(u(x)), i.e.
 * (u.a w.a, w.a u.b + w.b).  It is associative (composition) and not
 * commutative, and created with commute = 0, so MPI (and libarcoll) must
 * combine the ranks' contributions in rank order: a reduction tree that
 * reorders ranks - for example to put a late rank on a leaf - gives another
 * map.  Pair j of rank r at call c is (2 v(c, r, 2j) + 1, v(c, r, 2j + 1)),
 * v of coll_loop.c.  The reference is folded here, in rank order, from the
 * same formula (never from MPI): O(P) per checked pair, so the ranks that
 * check (reduce: the root; allreduce: every rank) check the pairs j = c + me
 * (mod T) of a call, T = ceil(P x pairs / max(pairs, 65536)) (every pair
 * over T calls).
 * -o affine_declared_commutative: the same op created with commute = 1, a
 * false declaration that allows any combining order: a library that reorders
 * ranks (late ranks on leaves) then gives wrong maps, and the check must say
 * so - the negative control of this check (test/adapt/noncommutative_late_tests.cmake).
 */
#ifndef COLL_LOOP_AFFINE_H
#define COLL_LOOP_AFFINE_H

enum { OP_SUM, OP_AFFINE, OP_MIXED, OP_AFFINE_COMMUTE };
static const char *op_names[] = {"sum", "affine", "mixed", "affine_declared_commutative", NULL};

/* (u op w): u first, then w */
static inline void cl_affine_compose(const unsigned *u, const unsigned *w, unsigned *out) {
  const unsigned a = u[0] * w[0], b = w[0] * u[1] + w[1];
  out[0] = a, out[1] = b;
}

/* MPI_User_function: inout[k] = in[k] op inout[k] (in: the lower ranks) */
static void cl_affine_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  const unsigned *u = in;
  unsigned *w = inout;
  for (int k = 0; k < *len; ++k) cl_affine_compose(u + 2 * k, w + 2 * k, w + 2 * k);
}

static inline void cl_affine_elem(int c, int r, long j, unsigned *e) {
  e[0] = 2u * v(c, r, 2 * j) + 1u, e[1] = v(c, r, 2 * j + 1);
}

typedef struct {
  MPI_Datatype pair;
  MPI_Op op;
  long pairs, T; /* pairs per rank; check stride */
} cl_affine_t;

/* the type and op; count unsigned per rank (pairs = count / 2) */
static void cl_affine_setup(cl_affine_t *x, long count, int P, int declared_commutative) {
  MPI_Type_contiguous(2, MPI_UNSIGNED, &x->pair);
  MPI_Type_commit(&x->pair);
  MPI_Op_create(cl_affine_op, declared_commutative, &x->op);
  x->pairs = count / 2;
  const long budget = x->pairs > 65536 ? x->pairs : 65536;
  x->T = ((long)P * x->pairs + budget - 1) / budget;
  if (x->T < 1) x->T = 1;
}

static void cl_affine_fill(const cl_affine_t *x, unsigned *sbuf, int c, int me) {
  for (long j = 0; j < x->pairs; ++j) cl_affine_elem(c, me, j, sbuf + 2 * j);
}

/* wrong pairs among those this rank checks at call c (the reference folded in rank order) */
static long cl_affine_check(const cl_affine_t *x, const unsigned *rbuf, int c, int P, int me) {
  long bad = 0;
  for (long j = (c + (long)me) % x->T; j < x->pairs; j += x->T) {
    unsigned acc[2], e[2];
    cl_affine_elem(c, 0, j, acc);
    for (int r = 1; r < P; ++r) cl_affine_elem(c, r, j, e), cl_affine_compose(acc, e, acc);
    bad += rbuf[2 * j] != acc[0] || rbuf[2 * j + 1] != acc[1];
  }
  return bad;
}

static void cl_affine_free(cl_affine_t *x) {
  MPI_Op_free(&x->op);
  MPI_Type_free(&x->pair);
}

#endif
