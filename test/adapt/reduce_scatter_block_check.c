/*
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter_block_c through libarcoll
 * (MPICH with LD_PRELOAD, or SMPI linked with libarcoll): results, the
 * algorithm that ran, MPI semantics and error classes.
 *
 * Usage: reduce_scatter_block_check MODE [big]
 *   auto      ARCOLL_REDUCE_SCATTER_BLOCK_ALGORITHM unset
 *   forcedK   ARCOLL_REDUCE_SCATTER_BLOCK_ALGORITHM = algorithm K of the table
 *             (set before MPI_Init); the non-commutative op must then run an
 *             order-preserving algorithm (pairwise) instead of a
 *             commutative-only one
 *   errors    invalid arguments give PMPI's error class; intercommunicator
 *             and MPI_COMM_SELF pass through to PMPI with right answers
 * Data: test/collectives/reduce_scatter_block/rsb_data.h (predefined ops,
 * user ops on derived types, a non-commutative user op), MPI_IN_PLACE,
 * counts 0, 1, 37, big; MPI_COMM_WORLD and a communicator with the ranks
 * reversed.  Each rank computes its expected block itself (rank order).
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
#include "select.h" /* algorithm table, to set and check the names */

#define CHECK_PROG "reduce_scatter_block_check"
#define COLL ARCOLL_COLL_REDUCE_SCATTER_BLOCK
static int P, me, forced_k = -1;
static long failures = 0, checked = 0, big = 2000;
static int next_id = 0;
static last_fn last;

#include "check_driver.h"

static void check_algo(int cp, long n, int commut, const char *what) {
  int nt = 0;
  const arcoll_algo_desc_t *t = arcoll_algorithm_table(COLL, &nt);
  const char *want = cp == 1 ? "pmpi" : n == 0 ? "none" : NULL;
  if (!want && forced_k >= 0 && (commut || !(t[forced_k].flags & ARCOLL_ALGO_COMMUTATIVE_ONLY)))
    want = t[forced_k].name;
  const arcoll_algo_desc_t *a = check_ran("reduce_scatter_block", COLL, want, what);
  if (!want)
    CHECK(!a || commut || !(a->flags & ARCOLL_ALGO_COMMUTATIVE_ONLY),
          "%s: non-commutative op ran commutative-only %s", what, a->name);
}

static void run_one(MPI_Comm comm, int c, long n, int inplace, int large) {
  int cp, r, id = ++next_id;
  char what[160];
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &r);
  void *sbuf = rsb_alloc(c, n * cp), *rbuf = rsb_alloc(c, inplace ? n * cp : n),
       *exp = rsb_alloc(c, n);
  rsb_fill(c, inplace ? rbuf : sbuf, n * cp, id, r);
  rsb_expect(c, exp, n, r, cp, id);
  const void *s = inplace ? MPI_IN_PLACE : sbuf;
  int rc;
#if MPI_VERSION >= 4
  if (large)
    rc = MPI_Reduce_scatter_block_c(s, rbuf, n, rsb_type(c), rsb_op(c), comm);
  else
#endif
    rc = MPI_Reduce_scatter_block(s, rbuf, (int)n, rsb_type(c), rsb_op(c), comm);
  snprintf(what, sizeof what, "reduce_scatter_block%s case %d n=%ld inplace %d P=%d rank %d",
           large ? "_c" : "", c, n, inplace, cp, r);
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  long bad = rsb_diff(c, rbuf, exp, n);
  CHECK(bad == 0, "%s: %ld wrong ints", what, bad);
  check_algo(cp, n, c != 3, what);
  free(sbuf), free(rbuf), free(exp);
}

static void run_all(MPI_Comm comm) {
  const long sizes[4] = {0, 1, 37, big};
  for (int c = 0; c < RSB_NCASES; ++c)
    for (int z = 0; z < 4; ++z)
      for (int ip = 0; ip < 2; ++ip) run_one(comm, c, sizes[z], ip, (c + z + ip) % 2);
}

static void mode_errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int s[64] = {0}, r[64] = {0};
  SAME_ERROR("MPI_OP_NULL",
             MPI_Reduce_scatter_block(s, r, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD),
             PMPI_Reduce_scatter_block(s, r, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
  SAME_ERROR("MPI_DATATYPE_NULL",
             MPI_Reduce_scatter_block(s, r, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD),
             PMPI_Reduce_scatter_block(s, r, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD));
  SAME_ERROR("MPI_COMM_NULL", MPI_Reduce_scatter_block(s, r, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL),
             PMPI_Reduce_scatter_block(s, r, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL));
  SAME_ERROR("MPI_BAND on double",
             MPI_Reduce_scatter_block(s, r, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD),
             PMPI_Reduce_scatter_block(s, r, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD));
  SAME_ERROR("sendbuf == recvbuf",
             MPI_Reduce_scatter_block(r, r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
             PMPI_Reduce_scatter_block(r, r, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  int one = me + 5, got = -1; /* one-rank communicator: passed through */
  CHECK(MPI_Reduce_scatter_block(&one, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF) == MPI_SUCCESS &&
            got == me + 5, "MPI_COMM_SELF gave %d", got);
  check_algo(1, 1, 1, "MPI_COMM_SELF");
  /* intercommunicator: block i of the result = sum over the other group;
   * groups of equal size (MPI: recvcount x group size equal in both) */
  if (P >= 2 && P % 2 == 0) {
    MPI_Comm local, inter;
    const int color = me < P / 2 ? 0 : 1;
    int lsize, rsize, lrank;
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? P / 2 : 0, 80, &inter);
    MPI_Comm_size(local, &lsize);
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_remote_size(inter, &rsize);
    int in[64], out = -1, want = 0;
    for (int i = 0; i < 64; ++i) in[i] = 1000 * me + i;
    for (int q = 0; q < P; ++q)
      if ((q < P / 2 ? 0 : 1) != color) want += 1000 * q + lrank;
    int rc = MPI_Reduce_scatter_block(in, &out, 1, MPI_INT, MPI_SUM, inter);
    CHECK(rc == MPI_SUCCESS && out == want, "intercomm: rc %d got %d want %d", rc, out, want);
    const char *g = last ? last("reduce_scatter_block") : NULL;
    CHECK(g && !strcmp(g, "pmpi"), "intercomm ran %s", g ? g : "(null)");
    (void)rsize;
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
}

int main(int argc, char **argv) {
  const check_driver_t d = {COLL, "ARCOLL_REDUCE_SCATTER_BLOCK_ALGORITHM", rsb_init, rsb_free, run_all, mode_errors};
  return check_driver_main(argc, argv, &d);
}
