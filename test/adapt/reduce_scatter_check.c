/*
 * MPI_Reduce_scatter and MPI_Reduce_scatter_c through libarcoll (MPICH with
 * LD_PRELOAD, or SMPI linked with libarcoll): results, the algorithm that
 * ran, MPI semantics and error classes.
 *
 * Usage: reduce_scatter_check MODE [big]
 *   auto      ARCOLL_REDUCE_SCATTER_ALGORITHM unset
 *   forcedK   ARCOLL_REDUCE_SCATTER_ALGORITHM = algorithm K of the table (set
 *             before MPI_Init); the non-commutative op must then run an
 *             order-preserving algorithm (pairwise) instead of a
 *             commutative-only one
 *   errors    invalid arguments give PMPI's error class; intercommunicator
 *             and MPI_COMM_SELF pass through to PMPI with right answers
 * Data: rsb_data.h (predefined ops, user ops on derived types, a
 * non-commutative user op) with the count patterns of rsc_counts.h
 * (irregular with zeros, one rank only, equal), MPI_IN_PLACE, sizes 0, 1,
 * 37, big; MPI_COMM_WORLD and a communicator with the ranks reversed.  Each
 * rank computes its expected block itself (rank order).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "rsb_data.h"
#include "rsc_counts.h"
#include "select.h" /* algorithm table, to set and check the names */

#define CHECK_PROG "reduce_scatter_check"
#define COLL ARCOLL_COLL_REDUCE_SCATTER
static int P, me, forced_k = -1;
static long failures = 0, checked = 0, big = 2000;
static int next_id = 0;
static last_fn last;

#include "check_driver.h"

static void check_algo(int cp, long total, int commut, const char *what) {
  const char *want = check_want(COLL, cp, total == 0);
  const arcoll_algo_desc_t *f = want ? arcoll_algorithm_find(COLL, want) : NULL;
  if (f && !commut && (f->flags & ARCOLL_ALGO_COMMUTATIVE_ONLY)) want = NULL; /* any allowed */
  const arcoll_algo_desc_t *a = check_ran("reduce_scatter", COLL, want, what);
  if (a)
    CHECK(commut || !(a->flags & ARCOLL_ALGO_COMMUTATIVE_ONLY),
          "%s: non-commutative op ran commutative-only %s", what, a->name);
}

static int call(const void *s, void *rbuf, const long *cnt, int c, MPI_Comm comm, int cp,
                int large) {
  int rc;
#if MPI_VERSION >= 4
  if (large) {
    MPI_Count *k = malloc(sizeof(MPI_Count) * (size_t)cp);
    for (int q = 0; q < cp; ++q) k[q] = cnt[q];
    rc = MPI_Reduce_scatter_c(s, rbuf, k, rsb_type(c), rsb_op(c), comm);
    free(k);
    return rc;
  }
#endif
  (void)large;
  int *k = malloc(sizeof(int) * (size_t)cp);
  for (int q = 0; q < cp; ++q) k[q] = (int)cnt[q];
  rc = MPI_Reduce_scatter(s, rbuf, k, rsb_type(c), rsb_op(c), comm);
  free(k);
  return rc;
}

static void run_one(MPI_Comm comm, int c, int pat, long n, int inplace, int large) {
  int cp, r, id = ++next_id;
  char what[160];
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &r);
  long *cnt = malloc(sizeof(long) * (size_t)cp), first = 0;
  const long total = rsc_counts(pat, n, cp, r, cnt, &first), mine = cnt[r];
  void *sbuf = rsb_alloc(c, total), *rbuf = rsb_alloc(c, inplace ? total : mine),
       *exp = rsb_alloc(c, mine);
  rsb_fill(c, inplace ? rbuf : sbuf, total, id, r);
  rsb_expect_at(c, exp, mine, first, cp, id);
  int rc = call(inplace ? MPI_IN_PLACE : sbuf, rbuf, cnt, c, comm, cp, large);
  snprintf(what, sizeof what, "reduce_scatter%s case %d pattern %d n=%ld inplace %d P=%d rank %d",
           large ? "_c" : "", c, pat, n, inplace, cp, r);
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  long bad = inplace && mine == 0 ? 0 : rsb_diff(c, rbuf, exp, mine);
  CHECK(bad == 0, "%s: %ld wrong ints", what, bad);
  check_algo(cp, total, c != 3, what);
  free(sbuf), free(rbuf), free(exp), free(cnt);
}

static void run_all(MPI_Comm comm) {
  const long sizes[4] = {0, 1, 37, big};
  for (int c = 0; c < RSB_NCASES; ++c)
    for (int pat = 0; pat < RSC_NPATTERNS; ++pat)
      for (int z = 0; z < 4; ++z)
        for (int ip = 0; ip < 2; ++ip) run_one(comm, c, pat, sizes[z], ip, (c + pat + z + ip) % 2);
}

static void mode_errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int s[64] = {0}, r[64] = {0}, cnt[64], neg[64];
  for (int q = 0; q < P; ++q) cnt[q] = 1, neg[q] = q == 0 ? -1 : 1;
  SAME_ERROR("MPI_OP_NULL", MPI_Reduce_scatter(s, r, cnt, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD),
             PMPI_Reduce_scatter(s, r, cnt, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
  SAME_ERROR("MPI_DATATYPE_NULL",
             MPI_Reduce_scatter(s, r, cnt, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD),
             PMPI_Reduce_scatter(s, r, cnt, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD));
  SAME_ERROR("MPI_COMM_NULL", MPI_Reduce_scatter(s, r, cnt, MPI_INT, MPI_SUM, MPI_COMM_NULL),
             PMPI_Reduce_scatter(s, r, cnt, MPI_INT, MPI_SUM, MPI_COMM_NULL));
  SAME_ERROR("recvcounts[0] = -1", MPI_Reduce_scatter(s, r, neg, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
             PMPI_Reduce_scatter(s, r, neg, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  SAME_ERROR("MPI_BAND on double", MPI_Reduce_scatter(s, r, cnt, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD),
             PMPI_Reduce_scatter(s, r, cnt, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD));
  SAME_ERROR("sendbuf == recvbuf", MPI_Reduce_scatter(r, r, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
             PMPI_Reduce_scatter(r, r, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  int one = me + 5, got = -1, c1 = 1; /* one-rank communicator: passed through */
  CHECK(MPI_Reduce_scatter(&one, &got, &c1, MPI_INT, MPI_SUM, MPI_COMM_SELF) == MPI_SUCCESS &&
            got == me + 5, "MPI_COMM_SELF gave %d", got);
  check_algo(1, 1, 1, "MPI_COMM_SELF");
  /* intercommunicator: passed through; rank i of a group gets element i of
   * the sum over the other group's inputs; groups of equal size (MPICH needs
   * the same total count in both groups) */
  if (P >= 2 && P % 2 == 0) {
    MPI_Comm local, inter;
    const int color = me < P / 2 ? 0 : 1;
    int lsize, lrank;
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? P / 2 : 0, 81, &inter);
    MPI_Comm_size(local, &lsize);
    MPI_Comm_rank(local, &lrank);
    int in[64], out = -1, want = 0, ones[64];
    for (int i = 0; i < 64; ++i) in[i] = 1000 * me + i, ones[i] = 1;
    for (int q = 0; q < P; ++q)
      if ((q < P / 2 ? 0 : 1) != color) want += 1000 * q + lrank;
    int rc = MPI_Reduce_scatter(in, &out, ones, MPI_INT, MPI_SUM, inter);
    CHECK(rc == MPI_SUCCESS && out == want, "intercomm: rc %d got %d want %d", rc, out, want);
    const char *g = last ? last("reduce_scatter") : NULL;
    CHECK(g && !strcmp(g, "pmpi"), "intercomm ran %s", g ? g : "(null)");
    (void)lsize;
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
}

int main(int argc, char **argv) {
  const check_driver_t d = {COLL, "ARCOLL_REDUCE_SCATTER_ALGORITHM", rsb_init, rsb_free, run_all,
                            mode_errors};
  return check_driver_main(argc, argv, &d);
}
