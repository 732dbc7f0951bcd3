/*
 * MPI_Allgather and MPI_Allgather_c through libarcoll (MPICH with
 * LD_PRELOAD, or SMPI linked with libarcoll): results, the algorithm that
 * ran, MPI semantics and error classes.
 *
 * Usage: allgather_check MODE [big_elements]
 *   auto      ARCOLL_ALLGATHER_ALGORITHM unset (model + online selection)
 *   forcedK   ARCOLL_ALLGATHER_ALGORITHM = algorithm K of the table (set by
 *             this program before MPI_Init); arcoll_last_algorithm must say so
 *   errors    invalid arguments give the error class PMPI gives
 *             (MPI_ERRORS_RETURN); intercommunicator and MPI_COMM_SELF pass
 *             through to PMPI and give right answers
 * Data (test/collectives/allgather/allgather_data.h): derived types,
 * different send and receive types, receive types that differ between
 * ranks, MPI_IN_PLACE, sizes 0, 1, 37, big; MPI_COMM_WORLD and a
 * communicator with the ranks reversed (sizes 1 and 2 at P = 3).  Each rank
 * computes the expected buffer itself; every int is compared.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allgather_data.h"
#include "check_util.h"
#include "select.h" /* algorithm table, to set and check the names */

#define CHECK_PROG "allgather_check"
static int P, me, forced_k = -1;
static long failures = 0, checked = 0, big = 2000;
static int next_id = 0;
static last_fn last;

#include "check_driver.h"

static void check_algo(int cp, long bytes, const char *what) {
  check_ran("allgather", ARCOLL_COLL_ALLGATHER, check_want(ARCOLL_COLL_ALLGATHER, cp, bytes == 0), what);
}

static void run_one(MPI_Comm comm, int c, long n, int inplace, int large) {
  int cp, r, st, rt, id = ++next_id;
  long sn, rn;
  char what[160];
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &r);
  ag_case(c, n, r, &st, &sn, &rt, &rn);
  const long K = sn * ag_scalars_per(st), rblk = rn * ag_extent(rt);
  void *sbuf = ag_alloc(st, sn), *rbuf = ag_alloc(rt, rn * cp), *exp = ag_alloc(rt, rn * cp);
  ag_fill(st, sbuf, K, id, r);
  for (int q = 0; q < cp; ++q) ag_fill(rt, (char *)exp + q * rblk, K, id, q);
  if (inplace) ag_fill(rt, (char *)rbuf + r * rblk, K, id, r);
  const void *s = inplace ? MPI_IN_PLACE : sbuf;
  int rc;
#if MPI_VERSION >= 4
  if (large)
    rc = MPI_Allgather_c(s, sn, ag_mpi(st), rbuf, rn, ag_mpi(rt), comm);
  else
#endif
    rc = MPI_Allgather(s, (int)sn, ag_mpi(st), rbuf, (int)rn, ag_mpi(rt), comm);
  snprintf(what, sizeof what, "allgather%s case %d n=%ld inplace %d P=%d rank %d",
           large ? "_c" : "", c, n, inplace, cp, r);
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  long bad = ag_diff(rt, rbuf, exp, rn * cp);
  CHECK(bad == 0, "%s: %ld wrong ints", what, bad);
  check_algo(cp, K > 0 ? 1 : 0, what);
  free(sbuf), free(rbuf), free(exp);
}

static void run_all(MPI_Comm comm) {
  const long sizes[4] = {0, 1, 37, big};
  for (int c = 0; c < AG_NCASES; ++c)
    for (int z = 0; z < 4; ++z)
      for (int ip = 0; ip < 2; ++ip) run_one(comm, c, sizes[z], ip, (c + z + ip) % 2);
}

static void mode_errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int s[64] = {0}, r[64] = {0};
  SAME_ERROR("count -1", MPI_Allgather(s, -1, MPI_INT, r, -1, MPI_INT, MPI_COMM_WORLD),
             PMPI_Allgather(s, -1, MPI_INT, r, -1, MPI_INT, MPI_COMM_WORLD));
  SAME_ERROR("MPI_DATATYPE_NULL",
             MPI_Allgather(s, 1, MPI_DATATYPE_NULL, r, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD),
             PMPI_Allgather(s, 1, MPI_DATATYPE_NULL, r, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD));
  SAME_ERROR("MPI_COMM_NULL", MPI_Allgather(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_NULL),
             PMPI_Allgather(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_NULL));
  /* (errors that MPICH finds on some ranks only, e.g. sendbuf == recvbuf -
   * an alias on rank 0 alone -, would leave the others in the collective) */
  SAME_ERROR("sendbuf is my block of recvbuf",
             MPI_Allgather(r + me, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD),
             PMPI_Allgather(r + me, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD));
  SAME_ERROR("NULL recvbuf", MPI_Allgather(s, 1, MPI_INT, NULL, 1, MPI_INT, MPI_COMM_WORLD),
             PMPI_Allgather(s, 1, MPI_INT, NULL, 1, MPI_INT, MPI_COMM_WORLD));
  /* one-rank communicator: passed through, right answer */
  int one = me + 5, got = -1;
  CHECK(MPI_Allgather(&one, 1, MPI_INT, &got, 1, MPI_INT, MPI_COMM_SELF) == MPI_SUCCESS &&
            got == me + 5, "MPI_COMM_SELF allgather gave %d", got);
  check_algo(1, 4, "MPI_COMM_SELF");
  /* intercommunicator: passed through; every rank gets the other group's values */
  if (P >= 2) {
    MPI_Comm local, inter;
    const int color = me < P / 2 ? 0 : 1;
    int rsize;
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? P / 2 : 0, 79, &inter);
    MPI_Comm_remote_size(inter, &rsize);
    int v = 100 + me, all[64];
    int rc = MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, inter);
    const int first = color == 0 ? P / 2 : 0;
    int ok = rc == MPI_SUCCESS;
    for (int q = 0; q < rsize; ++q) ok = ok && all[q] == 100 + first + q;
    CHECK(ok, "intercomm allgather: rc %d or wrong values", rc);
    const char *g = last ? last("allgather") : NULL;
    CHECK(g && !strcmp(g, "pmpi"), "intercomm allgather ran %s", g ? g : "(null)");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
  int x = me, all[64];
  CHECK(MPI_Allgather(&x, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS &&
            all[P - 1] == P - 1, "allgather after errors");
}

int main(int argc, char **argv) {
  const check_driver_t d = {ARCOLL_COLL_ALLGATHER, "ARCOLL_ALLGATHER_ALGORITHM", ag_types_init, ag_types_free, run_all, mode_errors};
  return check_driver_main(argc, argv, &d);
}
