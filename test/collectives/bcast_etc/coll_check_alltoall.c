/* The bcast_etc matrix's alltoall, barrier and bad-order sections (bcast_etc_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alltoall.h"
#include "bcast.h"
#include "bcast_etc_check.h"

void test_alltoall(ctx_t *c, long maxbytes, int nsched) {
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
void test_barrier(ctx_t *c) {
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
void test_bad_order(ctx_t *c) {
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
