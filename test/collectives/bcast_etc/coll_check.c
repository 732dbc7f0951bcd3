/*
 * Correctness matrix of the group bcast_etc algorithms (collectives/bcast.h,
 * gather.h, alltoall.h): every algorithm of the bcast, gather, scatter and
 * alltoall tables x datatypes (MPI_INT, MPI_DOUBLE, a vector with gaps, a
 * struct, and a vector sent / MPI_INT received) x counts (0, 1, 37, odd
 * large) x roots (0, middle, last) x schedules (default; shuffled order with
 * small segments and k = 3; rotated order with 4 KiB segments), with
 * MPI_IN_PLACE where MPI allows it; the dissemination barrier; a bad order
 * (MPI_ERR_ARG).  Every element is compared with a value computed here from
 * (source, index); vector gaps must stay untouched.
 *
 * Usage: coll_check [max_bytes [nsched [sections]]]: largest message / root
 * buffer in bytes (default 1 MiB); number of schedules 1..4 (default 3);
 * sections to run, letters of "bgsatx" = bcast, gather, scatter, alltoall,
 * barrier, bad order (default all).  Exit status 1 on any mismatch (first mismatches printed).
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alltoall.h"
#include "bcast.h"
#include "gather.h"

typedef struct {
  double d;
  int i;
  char c;
} rec_t;

enum { T_INT, T_DOUBLE, T_VEC, T_STRUCT, NTYPES };
#define SENTINEL (-7)

typedef struct {
  int P, me;
  long failures;
  MPI_Datatype dt[NTYPES];
  MPI_Aint ext[NTYPES];
  int nb[NTYPES]; /* basic items per element */
} ctx_t;

static int val(long id, long b) { return (int)((id * 104729L + b * 7L + 3) % 1000003L); }

/* set / check basic item b (element b / nb, field b % nb) */
static void set_item(const ctx_t *c, int t, char *buf, long b, int v) {
  long e = b / c->nb[t], j = b % c->nb[t];
  char *p = buf + e * c->ext[t];
  switch (t) {
  case T_INT: ((int *)p)[0] = v; break;
  case T_DOUBLE: ((double *)p)[0] = v + 0.5; break;
  case T_VEC: ((int *)p)[2 * j] = v; break;
  default: {
    rec_t *r = (rec_t *)p;
    if (j == 0) r->d = v + 0.25;
    else if (j == 1) r->i = v;
    else r->c = (char)(v % 100);
  }
  }
}

static int item_ok(const ctx_t *c, int t, const char *buf, long b, int v) {
  long e = b / c->nb[t], j = b % c->nb[t];
  const char *p = buf + e * c->ext[t];
  switch (t) {
  case T_INT: return ((const int *)p)[0] == v;
  case T_DOUBLE: return ((const double *)p)[0] == v + 0.5;
  case T_VEC:
    if (j < 2 && ((const int *)p)[2 * j + 1] != SENTINEL) return 0; /* gap */
    return ((const int *)p)[2 * j] == v;
  default: {
    const rec_t *r = (const rec_t *)p;
    return j == 0 ? r->d == v + 0.25 : j == 1 ? r->i == v : r->c == (char)(v % 100);
  }
  }
}

/* buffer of n elements filled with the sentinel */
static char *alloc_buf(const ctx_t *c, int t, long n) {
  size_t bytes = (size_t)(n > 0 ? n : 1) * (size_t)c->ext[t];
  int *b = malloc(bytes);
  for (size_t i = 0; i < bytes / sizeof(int); ++i) b[i] = SENTINEL;
  return (char *)b;
}

static void fail(ctx_t *c, const char *what, const char *algo, int t, long count, int root,
                 int sched, long b) {
  if (c->failures++ < 10)
    fprintf(stderr, "rank %d: %s %s type %d count %ld root %d sched %d: item %ld wrong\n",
            c->me, what, algo, t, count, root, sched, b);
}

static void check_rc(ctx_t *c, int rc, const char *what, const char *algo) {
  if (rc != MPI_SUCCESS && c->failures++ < 10)
    fprintf(stderr, "rank %d: %s %s returned %d\n", c->me, what, algo, rc);
}

/* schedules: 0 NULL; 1 shuffled order (root first), segments of
 * max(100, bytes/16) | 1 bytes (not a multiple of the element size), k 3;
 * 2 non-root part of the rotated order reversed, segments of
 * max(4096, bytes/64) bytes, k 0; 3 the order of 2, 16 KiB segments
 * (MPICH/UCX sends them only to a posted receive: the multi-tree bcasts
 * once hung there at P = 3, 4 MiB).  bytes = message size (keeps the number
 * of segments, hence the SMPI run time, bounded). */
static const arcoll_sched_t *make_sched(const ctx_t *c, int kind, int root, int seed, int *order,
                                        arcoll_sched_t *s, long bytes) {
  if (kind == 0) return NULL;
  const int P = c->P;
  for (int i = 0; i < P; ++i) order[i] = (root + i) % P;
  if (kind == 1) { /* same LCG on every rank; keep order[0] = root */
    unsigned x = 777u + (unsigned)seed;
    for (int i = P - 1; i > 1; --i) {
      x = x * 1103515245u + 12345u;
      int j = 1 + (int)((x >> 8) % (unsigned)i);
      int tmp = order[i];
      order[i] = order[j];
      order[j] = tmp;
    }
  } else if (P > 2) { /* reverse the non-root part */
    for (int i = 1, j = P - 1; i < j; ++i, --j) {
      int tmp = order[i];
      order[i] = order[j];
      order[j] = tmp;
    }
  }
  s->order = order;
  s->segment_bytes = kind == 3 ? 16384
                   : kind == 1 ? ((bytes / 16 > 100 ? bytes / 16 : 100) | 1)
                              : (bytes / 64 > 4096 ? bytes / 64 : 4096);
  s->k = kind == 1 ? 3 : 0;
  s->tag = 40 + kind;
  return s;
}

/* host seconds (informational progress output only, never asserted) */
static double host_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void test_bcast(ctx_t *c, long maxbytes, int nsched) {
  int *order = malloc(sizeof(int) * (size_t)c->P);
  for (int a = 0; a < arcoll_bcast_nalgorithms; ++a) {
    const double t0 = host_seconds();
    const char *only = getenv("COLL_CHECK_ONLY"); /* debugging: one algorithm */
    if (only && strcmp(only, arcoll_bcast_algorithms[a].name) != 0) continue;
    arcoll_bcast_fn fn = (arcoll_bcast_fn)arcoll_bcast_algorithms[a].fn;
    const char *name = arcoll_bcast_algorithms[a].name;
    for (int t = 0; t < NTYPES; ++t) {
      int tsize;
      MPI_Type_size(c->dt[t], &tsize);
      /* large: max_bytes for MPI_INT, max_bytes / 16 for the vector (SMPI
       * copies non-contiguous data slowly), skipped for the other types */
      long counts[4] = {0, 1, 37, ((t == T_INT ? maxbytes : maxbytes / 16) / tsize) | 1};
      for (int ci = 0; ci < 4; ++ci) {
        if (ci == 3 && t != T_INT && t != T_VEC) continue;
        const long count = counts[ci];
        int roots[3] = {0, c->P / 2, c->P - 1};
        for (int ri = 0; ri < 3; ++ri) {
          if ((ri == 1 && roots[1] == 0) || (ri == 2 && roots[2] == roots[1])) continue;
          if (c->P >= 128 && ri != t % 3) continue; /* large P: one root class per type */
          const int root = roots[ri];
          for (int sk = 0; sk < nsched; ++sk) {
            arcoll_sched_t sb;
            const arcoll_sched_t *s = make_sched(c, sk, root, a * 31 + t, order, &sb, count * tsize);
            char *buf = alloc_buf(c, t, count);
            const long nitems = count * c->nb[t];
            if (c->me == root)
              for (long b = 0; b < nitems; ++b) set_item(c, t, buf, b, val(root, b));
            check_rc(c, fn(buf, count, c->dt[t], root, MPI_COMM_WORLD, s), "bcast", name);
            for (long b = 0; b < nitems; ++b)
              if (!item_ok(c, t, buf, b, val(root, b))) {
                fail(c, "bcast", name, t, count, root, sk, b);
                break;
              }
            free(buf);
          }
        }
      }
    }
    if (c->me == c->P - 1 && getenv("COLL_CHECK_VERBOSE"))
      fprintf(stderr, "bcast %s: %.2f s host time\n", arcoll_bcast_algorithms[a].name,
              host_seconds() - t0);
  }
  free(order);
}

/* gather/scatter: type pairs (send, recv, recv count factor); pair 4 = vector -> int */
static void pair_types(int pi, int *st, int *rt, int *fac) {
  if (pi < NTYPES) {
    *st = *rt = pi;
    *fac = 1;
  } else {
    *st = T_VEC;
    *rt = T_INT;
    *fac = 3;
  }
}

static void test_gather_scatter(ctx_t *c, long maxbytes, int nsched, int scatter) {
  const int P = c->P, me = c->me;
  int *order = malloc(sizeof(int) * (size_t)P);
  const arcoll_algo_desc_t *tab = scatter ? arcoll_scatter_algorithms : arcoll_gather_algorithms;
  const int n = scatter ? arcoll_scatter_nalgorithms : arcoll_gather_nalgorithms;
  const char *what = scatter ? "scatter" : "gather";
  for (int a = 0; a < n; ++a) {
    arcoll_gather_fn fn = (arcoll_gather_fn)tab[a].fn;
    for (int pi = 0; pi <= NTYPES; ++pi) {
      int st, rt, fac, tsize;
      pair_types(pi, &st, &rt, &fac);
      MPI_Type_size(c->dt[st], &tsize);
      long counts[4] = {0, 1, 37, (maxbytes / P / tsize) | 1};
      for (int ci = 0; ci < 4; ++ci) {
        const long cnt = counts[ci]; /* send-type elements per block */
        int roots[3] = {0, P / 2, P - 1};
        for (int ri = 0; ri < 3; ++ri) {
          if ((ri == 1 && roots[1] == 0) || (ri == 2 && roots[2] == roots[1])) continue;
          if (P >= 128 && ri != pi % 3) continue; /* large P: one root class per type */
          const int root = roots[ri];
          for (int sk = 0; sk < nsched; ++sk)
            for (int inplace = 0; inplace < 2; ++inplace) {
              if (inplace && (pi == NTYPES || sk > 0)) continue;
              arcoll_sched_t sb;
              const arcoll_sched_t *s = make_sched(c, sk, root, a * 17 + pi, order, &sb, cnt * tsize);
              const long items = cnt * c->nb[st]; /* items per block */
              if (!scatter) { /* every rank sends (st, cnt); root receives (rt, cnt*fac) */
                char *sbuf = alloc_buf(c, st, cnt);
                char *rbuf = me == root ? alloc_buf(c, rt, cnt * fac * P) : NULL;
                for (long b = 0; b < items; ++b) set_item(c, st, sbuf, b, val(me, b));
                if (inplace && me == root)
                  for (long b = 0; b < items; ++b)
                    set_item(c, rt, rbuf, (long)root * items + b, val(root, b));
                check_rc(c,
                         fn(inplace && me == root ? MPI_IN_PLACE : sbuf, cnt, c->dt[st], rbuf,
                            cnt * fac, c->dt[rt], root, MPI_COMM_WORLD, s),
                         what, tab[a].name);
                if (me == root)
                  for (long b = 0; b < items * P; ++b)
                    if (!item_ok(c, rt, rbuf, b, val(b / items, b % items))) {
                      fail(c, what, tab[a].name, pi, cnt, root, sk, b);
                      break;
                    }
                free(sbuf);
                free(rbuf);
              } else { /* root sends (st, cnt) per rank; every rank receives (rt, cnt*fac) */
                char *sbuf = me == root ? alloc_buf(c, st, cnt * P) : NULL;
                char *rbuf = alloc_buf(c, rt, cnt * fac);
                if (me == root)
                  for (long b = 0; b < items * P; ++b)
                    set_item(c, st, sbuf, b, val(100000 + b / items, b % items));
                const int ip = inplace && me == root;
                check_rc(c,
                         fn(sbuf, cnt, c->dt[st], ip ? MPI_IN_PLACE : rbuf, cnt * fac, c->dt[rt],
                            root, MPI_COMM_WORLD, s),
                         what, tab[a].name);
                const char *mine = ip ? sbuf + (long)root * cnt * c->ext[st] : rbuf;
                const int mt = ip ? st : rt;
                for (long b = 0; b < items; ++b)
                  if (!item_ok(c, mt, mine, b, val(100000 + me, b))) {
                    fail(c, what, tab[a].name, pi, cnt, root, sk, b);
                    break;
                  }
                free(sbuf);
                free(rbuf);
              }
            }
        }
      }
    }
  }
  free(order);
}

static void test_alltoall(ctx_t *c, long maxbytes, int nsched) {
  const int P = c->P, me = c->me;
  int *order = malloc(sizeof(int) * (size_t)P);
  for (int a = 0; a < arcoll_alltoall_nalgorithms; ++a) {
    arcoll_alltoall_fn fn = (arcoll_alltoall_fn)arcoll_alltoall_algorithms[a].fn;
    const char *name = arcoll_alltoall_algorithms[a].name;
    const char *only = getenv("COLL_CHECK_ONLY"); /* debugging: one algorithm */
    if (only && strcmp(only, name) != 0) continue;
    for (int pi = 0; pi <= NTYPES; ++pi) {
      int st, rt, fac, tsize;
      pair_types(pi, &st, &rt, &fac);
      MPI_Type_size(c->dt[st], &tsize);
      /* large: every rank sends max_bytes / P bytes in all */
      long counts[4] = {0, 1, 37, (maxbytes / P / P / tsize) | 1};
      for (int ci = 0; ci < 4; ++ci) {
        const long cnt = counts[ci];
        const long items = cnt * c->nb[st];
        /* large P (SMPI time ~ P^2 messages per call): the O(P)-step
           algorithms run once, MPI_INT at count 37 with the default schedule */
        const int heavy = P >= 128 && strcmp(name, "bruck") != 0;
        if (heavy && !(pi == T_INT && ci == 2)) continue;
        for (int sk = 0; sk < (heavy ? 1 : nsched); ++sk)
          for (int inplace = 0; inplace < 2; ++inplace) {
            if (inplace && (pi == NTYPES || sk > 0 || heavy)) continue;
            arcoll_sched_t sb;
            const arcoll_sched_t *s = make_sched(c, sk, 0, a * 13 + pi, order, &sb, cnt * tsize);
            char *sbuf = alloc_buf(c, st, cnt * P);
            char *rbuf = alloc_buf(c, rt, cnt * fac * P);
            for (long b = 0; b < items * P; ++b) /* block d for rank d */
              set_item(c, inplace ? rt : st, inplace ? rbuf : sbuf, b,
                       val((long)me * P + b / items, b % items));
            check_rc(c,
                     fn(inplace ? MPI_IN_PLACE : sbuf, cnt, c->dt[st], rbuf, cnt * fac,
                        c->dt[rt], MPI_COMM_WORLD, s),
                     "alltoall", name);
            for (long b = 0; b < items * P; ++b) /* block src from rank src */
              if (!item_ok(c, rt, rbuf, b, val((b / items) * P + me, b % items))) {
                fail(c, "alltoall", name, pi, cnt, -1, sk, b);
                break;
              }
            free(sbuf);
            free(rbuf);
          }
      }
    }
  }
  free(order);
}

/* Barrier: the late rank enters after a delay; every rank's exit time must
 * not precede the late rank's entry (MPI_Wtime: one clock on one node / the
 * simulated clock under SMPI; a causal check, not a timing assertion). */
static void test_barrier(ctx_t *c) {
  int *order = malloc(sizeof(int) * (size_t)c->P);
  for (int sk = 0; sk < 2; ++sk)
    for (int late = 0; late < c->P; late += c->P - 1 > 0 ? c->P - 1 : 1) {
      arcoll_sched_t sb;
      const arcoll_sched_t *s = make_sched(c, sk, 0, 5, order, &sb, 0);
      MPI_Barrier(MPI_COMM_WORLD);
      double enter = 0, exit_t, late_enter;
      if (c->me == late) {
        usleep(50000);
        enter = MPI_Wtime();
      }
      check_rc(c, arcoll_barrier_dissemination(MPI_COMM_WORLD, s), "barrier", "dissemination");
      exit_t = MPI_Wtime();
      late_enter = enter;
      MPI_Bcast(&late_enter, 1, MPI_DOUBLE, late, MPI_COMM_WORLD);
      if (exit_t < late_enter && c->failures++ < 10)
        fprintf(stderr, "rank %d: barrier sched %d late %d: left at %.6f before %.6f\n", c->me,
                sk, late, exit_t, late_enter);
      if (c->P == 1) break;
    }
  free(order);
}

/* A bad order (order[0] != root, or not a permutation) gives MPI_ERR_ARG. */
static void test_bad_order(ctx_t *c) {
  int *order = malloc(sizeof(int) * (size_t)c->P);
  for (int i = 0; i < c->P; ++i) order[i] = 0; /* not a permutation when P > 1 */
  arcoll_sched_t s = {order, 0, 0, 9};
  int x = 1;
  if (c->P > 1) {
    for (int a = 0; a < arcoll_bcast_nalgorithms; ++a) {
      int rc = ((arcoll_bcast_fn)arcoll_bcast_algorithms[a].fn)(&x, 1, MPI_INT, 0,
                                                                MPI_COMM_WORLD, &s);
      if (rc != MPI_ERR_ARG && c->failures++ < 10)
        fprintf(stderr, "rank %d: bcast %s with a bad order returned %d, not MPI_ERR_ARG\n",
                c->me, arcoll_bcast_algorithms[a].name, rc);
    }
    int rc = arcoll_barrier_dissemination(MPI_COMM_WORLD, &s);
    if (rc != MPI_ERR_ARG && c->failures++ < 10)
      fprintf(stderr, "rank %d: barrier with a bad order returned %d\n", c->me, rc);
  }
  free(order);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  ctx_t c;
  memset(&c, 0, sizeof(c));
  MPI_Comm_size(MPI_COMM_WORLD, &c.P);
  MPI_Comm_rank(MPI_COMM_WORLD, &c.me);
  long maxbytes = argc > 1 ? atol(argv[1]) : 1L << 20;
  int nsched = argc > 2 ? atoi(argv[2]) : 3;
  MPI_Datatype tmp;
  c.dt[T_INT] = MPI_INT;
  c.dt[T_DOUBLE] = MPI_DOUBLE;
  MPI_Type_vector(3, 1, 2, MPI_INT, &tmp); /* ints 0, 2, 4; gaps 1, 3 */
  MPI_Type_create_resized(tmp, 0, 5 * sizeof(int), &c.dt[T_VEC]);
  MPI_Type_free(&tmp);
  MPI_Type_commit(&c.dt[T_VEC]);
  int bl[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(rec_t, d), offsetof(rec_t, i), offsetof(rec_t, c)};
  MPI_Datatype bt[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
  MPI_Type_create_struct(3, bl, disp, bt, &tmp);
  MPI_Type_create_resized(tmp, 0, sizeof(rec_t), &c.dt[T_STRUCT]);
  MPI_Type_free(&tmp);
  MPI_Type_commit(&c.dt[T_STRUCT]);
  const int nb[NTYPES] = {1, 1, 3, 3};
  for (int t = 0; t < NTYPES; ++t) {
    MPI_Aint lb;
    MPI_Type_get_extent(c.dt[t], &lb, &c.ext[t]);
    c.nb[t] = nb[t];
  }
  const char *sections = argc > 3 ? argv[3] : "bgsatx"; /* which parts to run */
  if (strchr(sections, 'b')) test_bcast(&c, maxbytes, nsched);
  if (strchr(sections, 'g')) test_gather_scatter(&c, maxbytes, nsched, 0);
  if (strchr(sections, 's')) test_gather_scatter(&c, maxbytes, nsched, 1);
  if (strchr(sections, 'a')) test_alltoall(&c, maxbytes, nsched);
  if (strchr(sections, 't')) test_barrier(&c);
  if (strchr(sections, 'x')) test_bad_order(&c);
  long total = 0;
  MPI_Allreduce(&c.failures, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (c.me == 0)
    printf("coll_check P=%d max_bytes=%ld schedules=%d: %s (%ld failures)\n", c.P, maxbytes,
           nsched, total ? "FAIL" : "PASS", total);
  MPI_Type_free(&c.dt[T_VEC]);
  MPI_Type_free(&c.dt[T_STRUCT]);
  MPI_Finalize();
  return total ? 1 : 0;
}
