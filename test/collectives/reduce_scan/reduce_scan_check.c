/*
 * Correctness matrix of the reduce / allreduce / scan / exscan algorithms
 * (collectives/reduce.h, allreduce.h, scan.h), for MPICH (2-4 ranks) and SMPI
 * (any P).  Every algorithm of the four tables runs on:
 *  - MPI_INT + MPI_SUM, MPI_DOUBLE + MPI_SUM (integer-valued), MPI_INT + MPI_MAX;
 *  - a struct {int m[4]; char c} (extent 24, gap after c) with a
 *    NON-commutative user op: 2x2 matrix product mod 10007 (c: sum mod 128);
 *  - a non-contiguous vector (2 ints, stride 3) with a commutative user op
 *    (sum, max) and with a NON-commutative one (affine-map composition);
 * counts 0, 1, 7 and "big" (1 MiB of data at P <= 13, less at larger P;
 * argv[1] overrides the big size in bytes, the SMPI tests use less to stay short),
 * MPI_IN_PLACE or not, roots (reduce) 0, 1, P/2, P-1 and at P <= 8 every
 * root (rsag's own positions put the root anywhere, an odd one in a folded
 * pair when P is not a power of two: reduce.h), identity or shuffled rank
 * order (the binomial and k-nomial reduce also with detached positions),
 * unsegmented or segmented.  Results are compared element by element
 * with references folded in rank order here; gap bytes of outputs must stay
 * untouched.  Commutative-only algorithms must return MPI_ERR_OP for the
 * non-commutative ops.  The direct scan is skipped above P = 64 (P(P-1)/2
 * concurrent messages a call: too slow to simulate).  Exit status 1 on any failure.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allreduce.h"
#include "reduce.h"
#include "scan.h"

#define MODP 10007
#define FILL 0xA5
enum { T_ISUM, T_DSUM, T_IMAX, T_MAT, T_VEC_C, T_VEC_NC, NTYPES };
static const char *tname[NTYPES] = {"int+sum", "double+sum", "int+max", "struct+matmul",
                                    "vector+summax", "vector+affine"};
typedef struct { long long f[5]; } val_t;

static int P, me;
static MPI_Datatype t_mat, t_vec;
static MPI_Op op_mat, op_summax, op_affine;

static MPI_Aint ext(int t) { return t <= T_IMAX ? (t == T_DSUM ? 8 : 4) : t == T_MAT ? 24 : 16; }
static MPI_Datatype dtype(int t) {
  return t == T_ISUM || t == T_IMAX ? MPI_INT : t == T_DSUM ? MPI_DOUBLE : t == T_MAT ? t_mat : t_vec;
}
static MPI_Op mop(int t) {
  return t == T_ISUM || t == T_DSUM ? MPI_SUM : t == T_IMAX ? MPI_MAX
       : t == T_MAT ? op_mat : t == T_VEC_C ? op_summax : op_affine;
}
static int commutative(int t) { return t != T_MAT && t != T_VEC_NC; }

/* ---- element access ---- */
static val_t rd(int t, const char *b, MPI_Aint e) {
  val_t v = {{0}};
  const char *p = b + e * ext(t);
  int x[4];
  switch (t) {
    case T_ISUM: case T_IMAX: memcpy(x, p, 4); v.f[0] = x[0]; break;
    case T_DSUM: { double d; memcpy(&d, p, 8); v.f[0] = (long long)d; if ((double)v.f[0] != d) v.f[0] = -999999999; break; }
    case T_MAT: memcpy(x, p, 16); for (int i = 0; i < 4; ++i) v.f[i] = x[i]; v.f[4] = (signed char)p[16]; break;
    default: memcpy(x, p, 4); v.f[0] = x[0]; memcpy(x, p + 12, 4); v.f[1] = x[0]; break;
  }
  return v;
}
static void wr(int t, char *b, MPI_Aint e, val_t v) {
  char *p = b + e * ext(t);
  int x[4];
  switch (t) {
    case T_ISUM: case T_IMAX: x[0] = (int)v.f[0]; memcpy(p, x, 4); break;
    case T_DSUM: { double d = (double)v.f[0]; memcpy(p, &d, 8); break; }
    case T_MAT: for (int i = 0; i < 4; ++i) x[i] = (int)v.f[i]; memcpy(p, x, 16); p[16] = (char)v.f[4]; break;
    default: x[0] = (int)v.f[0]; memcpy(p, x, 4); x[0] = (int)v.f[1]; memcpy(p + 12, x, 4); break;
  }
}
/* gap bytes of element e (not part of the type map) */
static int gap_ok(int t, const char *b, MPI_Aint e) {
  const unsigned char *p = (const unsigned char *)b + e * ext(t);
  if (t == T_MAT) { for (int i = 17; i < 24; ++i) if (p[i] != FILL) return 0; }
  if (t == T_VEC_C || t == T_VEC_NC) { for (int i = 4; i < 12; ++i) if (p[i] != FILL) return 0; }
  return 1;
}
static val_t gen(int t, int r, MPI_Aint e) {
  unsigned h = (unsigned)(r * 2654435761u) ^ (unsigned)(e * 40503u + 17u);
  h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
  val_t v = {{0}};
  switch (t) {
    case T_ISUM: case T_DSUM: v.f[0] = (long long)(h % 2001) - 1000; break;
    case T_IMAX: v.f[0] = (long long)(h % 1000003) - 500000; break;
    case T_MAT: for (int i = 0; i < 4; ++i) { v.f[i] = h % MODP; h = h * 1103515245u + 12345u; } v.f[4] = r & 0x7f; break;
    case T_VEC_C: v.f[0] = (long long)(h % 2001) - 1000; v.f[1] = (long long)((h >> 8) % 100000); break;
    default: v.f[0] = 1 + h % (MODP - 1); v.f[1] = (h >> 7) % MODP; break;
  }
  return v;
}
/* a op b (a: lower ranks) */
static val_t comb(int t, val_t a, val_t b) {
  val_t v = {{0}};
  switch (t) {
    case T_ISUM: case T_DSUM: v.f[0] = a.f[0] + b.f[0]; break;
    case T_IMAX: v.f[0] = a.f[0] > b.f[0] ? a.f[0] : b.f[0]; break;
    case T_MAT: /* row-major 2x2 product a*b */
      v.f[0] = (a.f[0] * b.f[0] + a.f[1] * b.f[2]) % MODP;
      v.f[1] = (a.f[0] * b.f[1] + a.f[1] * b.f[3]) % MODP;
      v.f[2] = (a.f[2] * b.f[0] + a.f[3] * b.f[2]) % MODP;
      v.f[3] = (a.f[2] * b.f[1] + a.f[3] * b.f[3]) % MODP;
      v.f[4] = (signed char)((a.f[4] + b.f[4]) & 0x7f);
      break;
    case T_VEC_C: v.f[0] = a.f[0] + b.f[0]; v.f[1] = a.f[1] > b.f[1] ? a.f[1] : b.f[1]; break;
    default: /* x -> a0 x + a1, then x -> b0 x + b1 */
      v.f[0] = a.f[0] * b.f[0] % MODP; v.f[1] = (a.f[1] * b.f[0] + b.f[1]) % MODP; break;
  }
  return v;
}
/* user ops: inout = in op inout */
static void user_apply(int t, void *in, void *inout, int *len) {
  for (int e = 0; e < *len; ++e) wr(t, inout, e, comb(t, rd(t, in, e), rd(t, inout, e)));
}
static void f_mat(void *in, void *io, int *len, MPI_Datatype *dt) { (void)dt; user_apply(T_MAT, in, io, len); }
static void f_summax(void *in, void *io, int *len, MPI_Datatype *dt) { (void)dt; user_apply(T_VEC_C, in, io, len); }
static void f_affine(void *in, void *io, int *len, MPI_Datatype *dt) { (void)dt; user_apply(T_VEC_NC, in, io, len); }

static long failures;
static void fail(const char *what, const char *coll, const char *algo, int t, long n, int extra,
                 long e) {
  if (failures++ < 12)
    fprintf(stderr, "rank %d/%d: %s %s %s type %s count %ld case %d element %ld\n", me, P, what,
            coll, algo, tname[t], n, extra, e);
}

static void shuffle(int *order, int root, unsigned seed) {
  for (int i = 0; i < P; ++i) order[i] = i;
  for (int i = P - 1; i > 0; --i) {
    seed = seed * 1103515245u + 12345u;
    int j = (int)((seed >> 8) % (unsigned)(i + 1));
    int x = order[i]; order[i] = order[j]; order[j] = x;
  }
  if (root >= 0) /* root first */
    for (int i = 0; i < P; ++i)
      if (order[i] == root) { order[i] = order[0]; order[0] = root; break; }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  { /* struct {int m[4]; char c;} resized to 24 bytes */
    int bl[2] = {4, 1};
    MPI_Aint d[2] = {0, 16};
    MPI_Datatype ty[2] = {MPI_INT, MPI_CHAR}, tmp;
    MPI_Type_create_struct(2, bl, d, ty, &tmp);
    MPI_Type_create_resized(tmp, 0, 24, &t_mat);
    MPI_Type_commit(&t_mat);
    MPI_Type_free(&tmp);
    MPI_Type_vector(2, 1, 3, MPI_INT, &t_vec); /* ints 0 and 3; extent 16 bytes */
    MPI_Type_commit(&t_vec);
    MPI_Op_create(f_mat, 0, &op_mat);
    MPI_Op_create(f_summax, 1, &op_summax);
    MPI_Op_create(f_affine, 0, &op_affine);
  }
  /* big: 1 MiB of data at small P (and on MPICH), less at simulated large P */
  long big_bytes = P <= 13 ? (1L << 20) : P <= 64 ? (64L << 10) : (8L << 10);
  if (argc > 1 && atol(argv[1]) > 0) big_bytes = atol(argv[1]); /* override (bytes) */
  int *order = malloc(sizeof(int) * (size_t)P);
  unsigned char *detached = malloc((size_t)P);
  int ncases = 0;
  for (int t = 0; t < NTYPES; ++t) {
    int tsize;
    MPI_Type_size(dtype(t), &tsize);
    const long counts[4] = {0, 1, 7, big_bytes / tsize};
    for (int ci = 0; ci < 4; ++ci) {
      const long n = counts[ci];
      const MPI_Aint bytes = (MPI_Aint)(n + 1) * ext(t);
      /* references: total, my inclusive and exclusive prefix */
      char *ref_all = malloc((size_t)bytes), *ref_incl = malloc((size_t)bytes),
           *ref_excl = malloc((size_t)bytes), *in = malloc((size_t)bytes),
           *sbuf = malloc((size_t)bytes), *rbuf = malloc((size_t)bytes);
      for (long e = 0; e < n; ++e) {
        val_t acc = gen(t, 0, e);
        if (me == 0) wr(t, ref_incl, e, acc);
        for (int r = 1; r < P; ++r) {
          if (r == me) wr(t, ref_excl, e, acc);
          acc = comb(t, acc, gen(t, r, e));
          if (r == me) wr(t, ref_incl, e, acc);
        }
        wr(t, ref_all, e, acc);
      }
      memset(in, FILL, (size_t)bytes);
      for (long e = 0; e < n; ++e) wr(t, in, e, gen(t, me, e));
      const MPI_Aint seg_small = n <= 7 ? 3 * tsize : (MPI_Aint)(n / 16 + 1) * tsize;
      for (int coll = 0; coll < 4; ++coll) {
        const arcoll_algo_desc_t *tab = coll == 0 ? arcoll_reduce_algorithms
                                        : coll == 1 ? arcoll_allreduce_algorithms
                                        : coll == 2 ? arcoll_scan_algorithms
                                                    : arcoll_exscan_algorithms;
        const int na = coll == 0 ? arcoll_reduce_nalgorithms
                       : coll == 1 ? arcoll_allreduce_nalgorithms
                       : coll == 2 ? arcoll_scan_nalgorithms
                                   : arcoll_exscan_nalgorithms;
        for (int a = 0; a < na; ++a) {
          const char *cn = tab[a].collective, *an = tab[a].name;
          /* direct scan: P(P-1)/2 concurrent messages per call, too slow to
           * simulate at P = 256 (scan.h); checked up to P = 64 */
          if (P > 64 && !strcmp(an, "direct")) continue;
          const int few[4] = {0, 1, P / 2, P - 1}, every = P <= 8;
          const int nroots = coll != 0 ? 1 : every ? P : 4;
          for (int rc_i = 0; rc_i < nroots; ++rc_i) {
            const int root = coll != 0 ? -1 : every ? rc_i : few[rc_i];
            int seen = 0; /* a root of few[] already run */
            for (int j = 0; !every && j < rc_i; ++j) seen |= few[j] == root;
            if (coll == 0 && (root >= P || seen)) continue;
            /* variants: bit0 in place, bit1 shuffled order, bit2 segmented; full
             * cross product at small P, a rotating subset at large P */
            for (int var = 0; var < 8; ++var) {
              ++ncases;
              if (P >= 64 && var != (ncases % 8)) continue;
              const int inplace = var & 1, shuffled = var & 2, segmented = var & 4;
              if (shuffled && !(tab[a].flags & ARCOLL_ALGO_USES_ORDER)) continue;
              /* sqrtp and knomial take k (3 with the segmented variant; knomial
               * in place: radix P, the flat tree, which callers may pass though
               * the selection does not rank it) but no segments */
              if (segmented && !(tab[a].flags & ARCOLL_ALGO_SEGMENTED) && strcmp(an, "sqrtp") &&
                  strcmp(an, "knomial"))
                continue;
              if (shuffled) shuffle(order, root, 1000u + (unsigned)ncases);
              /* every other shuffled reduce: about a third of the positions detached (their
               * subtree's result straight to the root: coll.h), leaves and inner ones;
               * commutative ops only, the others must ignore it */
              const int detach = coll == 0 && shuffled && (ncases & 1);
              for (int p = 0; p < P; ++p)
                detached[p] = p > 0 && ((unsigned)p * 2654435761u + (unsigned)ncases) % 3u == 0;
              arcoll_sched_t s = {shuffled ? order : NULL, segmented ? seg_small : 0,
                                  segmented ? (!strcmp(an, "knomial") && inplace ? P : 3) : 0, 7,
                                  detach ? detached : NULL};
              const int use_ip = inplace && (coll != 0 || me == root);
              memcpy(sbuf, in, (size_t)bytes);
              memset(rbuf, FILL, (size_t)bytes);
              if (use_ip) memcpy(rbuf, in, (size_t)bytes);
              const void *sb = use_ip ? MPI_IN_PLACE : sbuf;
              int rc;
              if (coll == 0)
                rc = ((arcoll_reduce_fn)tab[a].fn)(sb, rbuf, n, dtype(t), mop(t), root,
                                                   MPI_COMM_WORLD, &s);
              else if (coll == 1)
                rc = ((arcoll_allreduce_fn)tab[a].fn)(sb, rbuf, n, dtype(t), mop(t),
                                                      MPI_COMM_WORLD, &s);
              else
                rc = ((arcoll_scan_fn)tab[a].fn)(sb, rbuf, n, dtype(t), mop(t), MPI_COMM_WORLD,
                                                 &s);
              if (!commutative(t) && (tab[a].flags & ARCOLL_ALGO_COMMUTATIVE_ONLY)) {
                if (rc != MPI_ERR_OP) fail("expected MPI_ERR_OP", cn, an, t, n, var, -1);
                continue;
              }
              if (rc != MPI_SUCCESS) { fail("error code", cn, an, t, n, var, rc); continue; }
              if (!use_ip && memcmp(sbuf, in, (size_t)bytes)) fail("sendbuf modified", cn, an, t, n, var, -1);
              const char *ref = coll <= 1 ? ref_all : coll == 2 ? ref_incl : ref_excl;
              if ((coll == 0 && me != root) || (coll == 3 && me == 0)) continue; /* undefined */
              for (long e = 0; e < n; ++e) {
                val_t x = rd(t, rbuf, e), y = rd(t, ref, e);
                if (memcmp(&x, &y, sizeof x) || !gap_ok(t, rbuf, e)) {
                  char w[64];
                  snprintf(w, sizeof w, "wrong value (root %d)", root);
                  fail(w, cn, an, t, n, var, e);
                  break;
                }
              }
            }
          }
        }
      }
      free(ref_all); free(ref_incl); free(ref_excl); free(in); free(sbuf); free(rbuf);
    }
  }
  long total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0)
    printf("reduce_scan_check P=%d: %d case slots, %ld failures: %s\n", P, ncases, total,
           total ? "FAIL" : "OK");
  free(order);
  free(detached);
  MPI_Op_free(&op_mat); MPI_Op_free(&op_summax); MPI_Op_free(&op_affine);
  MPI_Type_free(&t_mat); MPI_Type_free(&t_vec);
  MPI_Finalize();
  return total ? 1 : 0;
}
