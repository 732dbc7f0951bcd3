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

#include "bcast.h"
#include "bcast_etc_check.h"
#include "gather.h"

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
