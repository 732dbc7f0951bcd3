/*
 * MPI_Allgatherv and MPI_Allgatherv_c through libarcoll (MPICH with
 * LD_PRELOAD, or SMPI linked with libarcoll): results, the algorithm that
 * ran, MPI semantics and error classes.
 *
 * Usage: allgatherv_check MODE [big_elements]
 *   auto      ARCOLL_ALLGATHERV_ALGORITHM unset (model + online selection)
 *   forcedK   ARCOLL_ALLGATHERV_ALGORITHM = algorithm K of the table (set by
 *             this program before MPI_Init); arcoll_last_algorithm must say so
 *   errors    invalid arguments give the error class PMPI gives
 *             (MPI_ERRORS_RETURN); intercommunicator and MPI_COMM_SELF pass
 *             through to PMPI and give right answers
 * Data (test/collectives/allgatherv/allgatherv_data.h): irregular counts
 * with zeros, one contributing rank, equal counts; derived types, different
 * send and receive types; blocks in reverse rank order with gaps;
 * MPI_IN_PLACE; sizes 0, 37, big; every other call through MPI_Allgatherv_c
 * (MPI >= 4); MPI_COMM_WORLD and a communicator with the ranks reversed.
 * Each rank computes the expected buffer itself; every int is compared.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allgatherv_data.h"
#include "check_util.h"
#include "select.h" /* algorithm table, to set and check the names */

#define CHECK_PROG "allgatherv_check"
static int P, me, forced_k = -1;
static long failures = 0, checked = 0, big = 2000;
static int next_id = 0;
static last_fn last;

#include "check_driver.h"

static void check_algo(int cp, long bytes, const char *what) {
  check_ran("allgatherv", ARCOLL_COLL_ALLGATHERV, check_want(ARCOLL_COLL_ALLGATHERV, cp, bytes == 0), what);
}

static int call(const void *s, long sn, MPI_Datatype st, void *rbuf, const long *cnt,
                const long *dsp, MPI_Datatype rt, MPI_Comm comm, int cp, int large) {
  int rc;
#if MPI_VERSION >= 4
  if (large) {
    MPI_Count *c = malloc(sizeof(MPI_Count) * (size_t)cp);
    MPI_Aint *d = malloc(sizeof(MPI_Aint) * (size_t)cp);
    for (int q = 0; q < cp; ++q) c[q] = cnt[q], d[q] = dsp[q];
    rc = MPI_Allgatherv_c(s, sn, st, rbuf, c, d, rt, comm);
    free(c), free(d);
    return rc;
  }
#endif
  (void)large;
  int *c = malloc(sizeof(int) * 2 * (size_t)cp), *d = c + cp;
  for (int q = 0; q < cp; ++q) c[q] = (int)cnt[q], d[q] = (int)dsp[q];
  rc = MPI_Allgatherv(s, (int)sn, st, rbuf, c, d, rt, comm);
  free(c);
  return rc;
}

static void run_one(MPI_Comm comm, int c, int pat, long n, int inplace, int large) {
  int cp, r, st, rt, id = ++next_id;
  char what[160];
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &r);
  agv_types(c, &st, &rt);
  long *cnt = malloc(sizeof(long) * 2 * (size_t)cp), *dsp = cnt + cp, total = 0;
  const long len = agv_layout(c, pat, n, cp, cnt, dsp), sn = agv_sn(pat, n, r, cp);
  void *sbuf = ag_alloc(st, sn), *rbuf = ag_alloc(rt, len), *exp = ag_alloc(rt, len);
  ag_fill(st, sbuf, sn * ag_scalars_per(st), id, r);
  for (int q = 0; q < cp; ++q) {
    const long K = agv_sn(pat, n, q, cp) * ag_scalars_per(st);
    ag_fill(rt, (char *)exp + dsp[q] * ag_extent(rt), K, id, q);
    total += K;
  }
  if (inplace)
    ag_fill(rt, (char *)rbuf + dsp[r] * ag_extent(rt), sn * ag_scalars_per(st), id, r);
  int rc = call(inplace ? MPI_IN_PLACE : sbuf, sn, ag_mpi(st), rbuf, cnt, dsp, ag_mpi(rt), comm,
                cp, large);
  snprintf(what, sizeof what, "allgatherv%s case %d pattern %d n=%ld inplace %d P=%d rank %d",
           large ? "_c" : "", c, pat, n, inplace, cp, r);
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  long bad = ag_diff(rt, rbuf, exp, len);
  CHECK(bad == 0, "%s: %ld wrong ints", what, bad);
  check_algo(cp, total, what);
  free(sbuf), free(rbuf), free(exp), free(cnt);
}

static void run_all(MPI_Comm comm) {
  const long sizes[3] = {0, 37, big};
  for (int c = 0; c < AGV_NCASES; ++c)
    for (int pat = 0; pat < AGV_NPATTERNS; ++pat)
      for (int z = 0; z < 3; ++z)
        for (int ip = 0; ip < 2; ++ip) run_one(comm, c, pat, sizes[z], ip, (c + pat + z + ip) % 2);
}

static void mode_errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int s[64] = {0}, r[64] = {0}, cnt[64], dsp[64], neg[64];
  for (int q = 0; q < P; ++q) cnt[q] = 1, dsp[q] = q, neg[q] = q == 0 ? -1 : 1;
  SAME_ERROR("recvcounts[0] = -1",
             MPI_Allgatherv(s, 1, MPI_INT, r, neg, dsp, MPI_INT, MPI_COMM_WORLD),
             PMPI_Allgatherv(s, 1, MPI_INT, r, neg, dsp, MPI_INT, MPI_COMM_WORLD));
  SAME_ERROR("sendcount -1", MPI_Allgatherv(s, -1, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
             PMPI_Allgatherv(s, -1, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
  SAME_ERROR("MPI_DATATYPE_NULL",
             MPI_Allgatherv(s, 1, MPI_DATATYPE_NULL, r, cnt, dsp, MPI_DATATYPE_NULL,
                            MPI_COMM_WORLD),
             PMPI_Allgatherv(s, 1, MPI_DATATYPE_NULL, r, cnt, dsp, MPI_DATATYPE_NULL,
                             MPI_COMM_WORLD));
  SAME_ERROR("MPI_COMM_NULL", MPI_Allgatherv(s, 1, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_NULL),
             PMPI_Allgatherv(s, 1, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_NULL));
  SAME_ERROR("sendbuf is my block of recvbuf",
             MPI_Allgatherv(r + me, 1, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
             PMPI_Allgatherv(r + me, 1, MPI_INT, r, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
  SAME_ERROR("NULL recvbuf",
             MPI_Allgatherv(s, 1, MPI_INT, NULL, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
             PMPI_Allgatherv(s, 1, MPI_INT, NULL, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
  /* one-rank communicator: passed through, right answer (displacement 0:
   * MPICH 4 puts a one-rank communicator's block at recvbuf whatever
   * displs[0] says - seen with displs[0] = 1) */
  int one = me + 5, got[2] = {-1, -1}, c1 = 1, d1 = 0;
  CHECK(MPI_Allgatherv(&one, 1, MPI_INT, got, &c1, &d1, MPI_INT, MPI_COMM_SELF) == MPI_SUCCESS &&
            got[0] == me + 5 && got[1] == -1,
        "MPI_COMM_SELF allgatherv gave %d %d", got[0], got[1]);
  check_algo(1, 4, "MPI_COMM_SELF");
  /* intercommunicator: passed through; every rank gets the other group's values */
  if (P >= 2) {
    MPI_Comm local, inter;
    const int color = me < P / 2 ? 0 : 1;
    int rsize;
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? P / 2 : 0, 79, &inter);
    MPI_Comm_remote_size(inter, &rsize);
    int v = 100 + me, all[64], ic[64], id[64];
    for (int q = 0; q < rsize; ++q) ic[q] = 1, id[q] = rsize - 1 - q;
    int rc = MPI_Allgatherv(&v, 1, MPI_INT, all, ic, id, MPI_INT, inter);
    const int first = color == 0 ? P / 2 : 0;
    int ok = rc == MPI_SUCCESS;
    for (int q = 0; q < rsize; ++q) ok = ok && all[rsize - 1 - q] == 100 + first + q;
    CHECK(ok, "intercomm allgatherv: rc %d or wrong values", rc);
    const char *g = last ? last("allgatherv") : NULL;
    CHECK(g && !strcmp(g, "pmpi"), "intercomm allgatherv ran %s", g ? g : "(null)");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
  int x = me, all[64];
  CHECK(MPI_Allgatherv(&x, 1, MPI_INT, all, cnt, dsp, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS &&
            all[P - 1] == P - 1, "allgatherv after errors");
}

int main(int argc, char **argv) {
  const check_driver_t d = {ARCOLL_COLL_ALLGATHERV, "ARCOLL_ALLGATHERV_ALGORITHM", ag_types_init,
                            ag_types_free, run_all, mode_errors};
  return check_driver_main(argc, argv, &d);
}
