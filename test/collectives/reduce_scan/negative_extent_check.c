/*
 * Every reduce / allreduce / scan / exscan algorithm (collectives/reduce.h,
 * allreduce.h, scan.h) on a datatype of negative extent: two MPI_INT
 * (MPI_Type_contiguous) resized to lb 0, extent -16, so element e of a buffer
 * sits 16 e bytes BELOW its address and the 8 bytes after each element are a
 * gap the algorithms must not write.
 * The temporaries the algorithms allocate (collectives/reduce_util.h,
 * arcoll_red_tmpbuf_alloc) must span the elements below the address.
 *
 * User ops (MPICH 4.0 rejects predefined ops on derived types): a
 * commutative sum of both ints and a NON-commutative one, the composition of
 * affine maps (a, b): x -> a x + b mod 10007, lower ranks applied first.
 * Counts 1, 5 and 3000; MPI_IN_PLACE or not; roots 0 and P-1; results compared
 * element by element with references folded here, gaps checked. Commutative-only
 * algorithms must return MPI_ERR_OP for the non-commutative op.
 * Exit 1 on any failure; prints "negative_extent_check P=N: C cases, F failures: OK|FAIL".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allreduce.h"
#include "reduce.h"
#include "scan.h"

#define MODP 10007
#define GAP 0x5A5A5A5A
#define EXT 16 /* |extent| in bytes */

static int P, me;
static long failures;

/* element e of a buffer whose address is `top` */
static int *at(void *top, long e) { return (int *)((char *)top - e * EXT); }

typedef struct { int a, b; } el_t;
static el_t comb(int commutative, el_t x, el_t y) { /* x: lower ranks */
  if (commutative) return (el_t){x.a + y.a, x.b + y.b};
  return (el_t){(int)((long)x.a * y.a % MODP), (int)(((long)x.b * y.a + y.b) % MODP)};
}
static el_t get(void *top, long e) { return (el_t){at(top, e)[0], at(top, e)[1]}; }
static void put(void *top, long e, el_t v) { at(top, e)[0] = v.a, at(top, e)[1] = v.b; }
static int same(el_t x, el_t y) { return x.a == y.a && x.b == y.b; }
static void apply(int commutative, void *in, void *io, int *len) {
  for (int e = 0; e < *len; ++e) put(io, e, comb(commutative, get(in, e), get(io, e)));
}
static void f_sum(void *in, void *io, int *len, MPI_Datatype *dt) { (void)dt; apply(1, in, io, len); }
static void f_nc(void *in, void *io, int *len, MPI_Datatype *dt) { (void)dt; apply(0, in, io, len); }

static el_t value(int r, long e) {
  return (el_t){(int)(1 + (r * 131 + e * 7) % (MODP - 1)), (int)((r * 17 + e * 3 + 5) % MODP)};
}

/* a buffer of n elements: the allocation and the address of element 0 (its top) */
typedef struct { int *raw; void *top; } buf_t;
static buf_t buf_new(long n) {
  buf_t b;
  b.raw = malloc(EXT * (size_t)(n > 0 ? n : 1));
  for (long i = 0; i < EXT / 4 * (n > 0 ? n : 1); ++i) b.raw[i] = GAP;
  b.top = (char *)b.raw + (n > 0 ? n - 1 : 0) * EXT;
  return b;
}
static int gaps_ok(const buf_t *b, long n) {
  for (long e = 0; e < n; ++e)
    if (at(b->top, e)[2] != GAP || at(b->top, e)[3] != GAP) return 0;
  return 1;
}

static void fail(const char *what, const char *coll, const char *algo, int nc, long n, int ip) {
  if (failures++ < 12)
    fprintf(stderr, "rank %d/%d: %s: %s %s %s count %ld%s\n", me, P, what, coll, algo,
            nc ? "non-commutative" : "sum", n, ip ? " in place" : "");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Datatype pair, t;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_create_resized(pair, 0, -EXT, &t);
  MPI_Type_commit(&t);
  MPI_Op ops[2];
  MPI_Op_create(f_sum, 1, &ops[0]);
  MPI_Op_create(f_nc, 0, &ops[1]);
  const long counts[3] = {1, 5, 3000};
  long cases = 0;
  for (int ci = 0; ci < 3; ++ci) {
    const long n = counts[ci];
    for (int nc = 0; nc < 2; ++nc) {
      /* references: the fold over all ranks, my inclusive and exclusive prefixes */
      el_t *all = malloc(sizeof(el_t) * (size_t)n), *incl = malloc(sizeof(el_t) * (size_t)n),
           *excl = malloc(sizeof(el_t) * (size_t)n);
      for (long e = 0; e < n; ++e) {
        el_t acc = value(0, e);
        if (me == 0) incl[e] = acc;
        for (int r = 1; r < P; ++r) {
          if (r == me) excl[e] = acc;
          acc = comb(!nc, acc, value(r, e));
          if (r == me) incl[e] = acc;
        }
        all[e] = acc;
      }
      for (int coll = 0; coll < 4; ++coll) {
        const arcoll_algo_desc_t *tab = coll == 0 ? arcoll_reduce_algorithms
                                        : coll == 1 ? arcoll_allreduce_algorithms
                                        : coll == 2 ? arcoll_scan_algorithms : arcoll_exscan_algorithms;
        const int na = coll == 0 ? arcoll_reduce_nalgorithms
                       : coll == 1 ? arcoll_allreduce_nalgorithms
                       : coll == 2 ? arcoll_scan_nalgorithms : arcoll_exscan_nalgorithms;
        for (int a = 0; a < na; ++a)
          for (int var = 0; var < 4; ++var) {
            const int ip = var & 1, root = coll == 0 ? ((var & 2) ? P - 1 : 0) : -1;
            if (coll != 0 && (var & 2)) continue;
            ++cases;
            buf_t s = buf_new(n), r = buf_new(n);
            for (long e = 0; e < n; ++e) put(s.top, e, value(me, e));
            const int use_ip = ip && (coll != 0 || me == root);
            if (use_ip) for (long e = 0; e < n; ++e) put(r.top, e, value(me, e));
            const arcoll_sched_t sc = {NULL, 0, 0, 7};
            const void *sb = use_ip ? MPI_IN_PLACE : s.top;
            int rc = coll == 0 ? ((arcoll_reduce_fn)tab[a].fn)(sb, r.top, n, t, ops[nc], root, MPI_COMM_WORLD, &sc)
                     : ((arcoll_allreduce_fn)tab[a].fn)(sb, r.top, n, t, ops[nc], MPI_COMM_WORLD, &sc);
            const char *cn = tab[a].collective, *an = tab[a].name;
            if (nc && (tab[a].flags & ARCOLL_ALGO_COMMUTATIVE_ONLY)) {
              if (rc != MPI_ERR_OP) fail("expected MPI_ERR_OP", cn, an, nc, n, use_ip);
            } else if (rc != MPI_SUCCESS) {
              fail("error code", cn, an, nc, n, use_ip);
            } else if (!(coll == 0 && me != root) && !(coll == 3 && me == 0)) {
              const el_t *ref = coll <= 1 ? all : coll == 2 ? incl : excl;
              long bad = 0;
              for (long e = 0; e < n; ++e) bad += !same(get(r.top, e), ref[e]);
              if (bad) fail("wrong value", cn, an, nc, n, use_ip);
              if (!gaps_ok(&r, n)) fail("gap written", cn, an, nc, n, use_ip);
            }
            free(s.raw); free(r.raw);
          }
      }
      free(all); free(incl); free(excl);
    }
  }
  long total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0)
    printf("negative_extent_check P=%d: %ld cases, %ld failures: %s\n", P, cases, total, total ? "FAIL" : "OK");
  MPI_Op_free(&ops[0]); MPI_Op_free(&ops[1]);
  MPI_Type_free(&t);
  MPI_Type_free(&pair);
  MPI_Finalize();
  return total ? 1 : 0;
}
