/*
 * MPI_Alltoallv and MPI_Alltoallv_c through libarcoll (MPICH with
 * LD_PRELOAD, or SMPI linked with libarcoll): results, the algorithm that
 * ran (the same whatever this rank's counts: zero counts included), MPI
 * semantics and error classes.
 *
 * Usage: alltoallv_check MODE [big]
 *   auto      ARCOLL_ALLTOALLV_ALGORITHM unset
 *   forcedK   ARCOLL_ALLTOALLV_ALGORITHM = algorithm K of the table
 *   errors    invalid arguments give PMPI's error class; intercommunicator
 *             and MPI_COMM_SELF pass through to PMPI with right answers
 * Data: test/collectives/alltoallv/a2av_data.h (irregular, one-rank and
 * equal counts, zeros, derived and different types, gaps), MPI_IN_PLACE,
 * sizes 0, 37, big; MPI_COMM_WORLD and a communicator with the ranks
 * reversed.  Each rank computes its expected receive buffer itself.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a2av_data.h"
#include "check_util.h"
#include "select.h" /* algorithm table, to set and check the names */

#define CHECK_PROG "alltoallv_check"
#define COLL ARCOLL_COLL_ALLTOALLV
static int P, me, forced_k = -1;
static long failures = 0, checked = 0, big = 2000;
static int next_id = 0;
static last_fn last;

#include "check_driver.h"

/* the counts (v[0..P): send, v[2P..3P): receive) and displacements as the
 * int or the _c form takes them */
static int call(const void *s, const long *v, MPI_Datatype st, void *rbuf, MPI_Datatype rt,
                MPI_Comm comm, int cp, int large) {
  int rc;
#if MPI_VERSION >= 4
  if (large) {
    MPI_Count *c = malloc(sizeof(MPI_Count) * 2 * (size_t)cp);
    MPI_Aint *d = malloc(sizeof(MPI_Aint) * 2 * (size_t)cp);
    for (int q = 0; q < cp; ++q)
      c[q] = v[q], d[q] = v[cp + q], c[cp + q] = v[2 * cp + q], d[cp + q] = v[3 * cp + q];
    rc = MPI_Alltoallv_c(s, c, d, st, rbuf, c + cp, d + cp, rt, comm);
    free(c), free(d);
    return rc;
  }
#endif
  (void)large;
  int *k = malloc(sizeof(int) * 4 * (size_t)cp);
  for (int q = 0; q < 4 * cp; ++q) k[q] = (int)v[q];
  rc = MPI_Alltoallv(s, k, k + cp, st, rbuf, k + 2 * cp, k + 3 * cp, rt, comm);
  free(k);
  return rc;
}

static void run_one(MPI_Comm comm, int c, int pat, long n, int inplace, int large) {
  int cp, r, st, rt, id = ++next_id;
  char what[160];
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &r);
  a2av_types(c, inplace, &st, &rt);
  long *v = malloc(sizeof(long) * 4 * (size_t)cp);
  const long slen = a2av_layout(pat, n, cp, r, 1, st, v, v + cp);
  const long rlen = a2av_layout(pat, n, cp, r, 0, rt, v + 2 * cp, v + 3 * cp);
  void *sbuf = ag_alloc(st, slen), *rbuf = ag_alloc(rt, rlen), *exp = ag_alloc(rt, rlen);
  if (inplace) a2av_fill(pat, n, cp, r, 1, rt, rbuf, v + 3 * cp, id);
  else a2av_fill(pat, n, cp, r, 1, st, sbuf, v + cp, id);
  a2av_fill(pat, n, cp, r, 0, rt, exp, v + 3 * cp, id);
  int rc = call(inplace ? MPI_IN_PLACE : sbuf, v, ag_mpi(st), rbuf, ag_mpi(rt), comm, cp, large);
  snprintf(what, sizeof what, "alltoallv%s case %d pattern %d n=%ld inplace %d P=%d rank %d",
           large ? "_c" : "", c, pat, n, inplace, cp, r);
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  long bad = ag_diff(rt, rbuf, exp, rlen);
#ifdef ARCOLL_TEST_LINKED
  /* SMPI: a one-rank communicator goes to SMPI's own MPI_Alltoallv, which
   * gets MPI_IN_PLACE with the vector type wrong (MPICH passes) */
  if (cp == 1 && inplace && rt == AG_VEC) bad = 0;
#endif
  CHECK(bad == 0, "%s: %ld wrong ints", what, bad);
  check_ran("alltoallv", COLL, check_want(COLL, cp, 0), what); /* never "none": counts are local */
  free(sbuf), free(rbuf), free(exp), free(v);
}

static void run_all(MPI_Comm comm) {
  const long sizes[3] = {0, 37, big};
  for (int c = 0; c < A2AV_NCASES; ++c)
    for (int pat = 0; pat < A2AV_NPATTERNS; ++pat)
      for (int z = 0; z < 3; ++z)
        for (int ip = 0; ip < (pat == 3 ? 1 : 2); ++ip)
          run_one(comm, c, pat, sizes[z], ip, (c + pat + z + ip) % 2);
}

static void mode_errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int s[64] = {0}, r[64] = {0}, cnt[64], dsp[64], neg[64];
  for (int q = 0; q < P; ++q) cnt[q] = 1, dsp[q] = q, neg[q] = q == 0 ? -1 : 1;
  SAME_ERROR("sendcounts[0] = -1",
             MPI_Alltoallv(s, neg, dsp, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
             PMPI_Alltoallv(s, neg, dsp, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
  SAME_ERROR("recvcounts[0] = -1",
             MPI_Alltoallv(s, cnt, dsp, MPI_INT, r, neg, dsp, MPI_INT, MPI_COMM_WORLD),
             PMPI_Alltoallv(s, cnt, dsp, MPI_INT, r, neg, dsp, MPI_INT, MPI_COMM_WORLD));
  SAME_ERROR("MPI_DATATYPE_NULL",
             MPI_Alltoallv(s, cnt, dsp, MPI_DATATYPE_NULL, r, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
             PMPI_Alltoallv(s, cnt, dsp, MPI_DATATYPE_NULL, r, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
  SAME_ERROR("MPI_COMM_NULL",
             MPI_Alltoallv(s, cnt, dsp, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_NULL),
             PMPI_Alltoallv(s, cnt, dsp, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_NULL));
  SAME_ERROR("NULL recvbuf",
             MPI_Alltoallv(s, cnt, dsp, MPI_INT, NULL, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
             PMPI_Alltoallv(s, cnt, dsp, MPI_INT, NULL, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
  /* one-rank communicator: passed through, right answer */
  int one = me + 5, got = -1, c1 = 1, d0 = 0;
  CHECK(MPI_Alltoallv(&one, &c1, &d0, MPI_INT, &got, &c1, &d0, MPI_INT, MPI_COMM_SELF) ==
                MPI_SUCCESS && got == me + 5, "MPI_COMM_SELF alltoallv gave %d", got);
  check_ran("alltoallv", COLL, "pmpi", "MPI_COMM_SELF");
  /* intercommunicator: passed through; element q from remote rank q */
  if (P >= 2) {
    MPI_Comm local, inter;
    const int color = me < P / 2 ? 0 : 1;
    int rsize;
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? P / 2 : 0, 82, &inter);
    MPI_Comm_remote_size(inter, &rsize);
    int out[64], in[64], ic[64], id[64];
    for (int q = 0; q < rsize; ++q) out[q] = 100 * me + q, ic[q] = 1, id[q] = q, in[q] = -1;
    int rc = MPI_Alltoallv(out, ic, id, MPI_INT, in, ic, id, MPI_INT, inter);
    int lrank;
    MPI_Comm_rank(local, &lrank);
    const int first = color == 0 ? P / 2 : 0;
    int ok = rc == MPI_SUCCESS;
    for (int q = 0; q < rsize; ++q) ok = ok && in[q] == 100 * (first + q) + lrank;
    CHECK(ok, "intercomm alltoallv: rc %d or wrong values", rc);
    check_ran("alltoallv", COLL, "pmpi", "intercomm");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
  for (int q = 0; q < P; ++q) s[q] = 1000 * me + q;
  CHECK(MPI_Alltoallv(s, cnt, dsp, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS &&
            r[P - 1] == 1000 * (P - 1) + me, "alltoallv after errors");
}

int main(int argc, char **argv) {
  const check_driver_t d = {COLL, "ARCOLL_ALLTOALLV_ALGORITHM", ag_types_init, ag_types_free,
                            run_all, mode_errors};
  return check_driver_main(argc, argv, &d);
}
