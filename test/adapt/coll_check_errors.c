/*
 * coll_check's mode "errors" (see coll_check.c's usage): invalid arguments
 * give the error class PMPI gives (MPI_ERRORS_RETURN); an intercommunicator,
 * MPI_COMM_SELF and MPI_COMM_NULL pass through libarcoll and give right
 * answers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "select.h" /* arcoll_coll_name */

#include "check_util.h"
#include "coll_check.h"

#define CHECK_PROG "coll_check"

typedef struct { int a; double b; } pair_t;

void cc_mode_errors(int P, int me, long *checked_out, long *failures_out) {
  long checked = 0, failures = 0; /* CHECK's counters (test/check.h) */
  const last_fn last = get_last();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int s[64] = {0}, r[64] = {0};
  MPI_Datatype st;
  MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &st);
  MPI_Type_commit(&st);
  pair_t ps[2], pr[2];
  /* (count -1 in the reductions crashes MPICH 4.0.2's own PMPI calls: not tested) */
  SAME_ERROR("reduce root=P", MPI_Reduce(s, r, 4, MPI_INT, MPI_SUM, P, MPI_COMM_WORLD),
             PMPI_Reduce(s, r, 4, MPI_INT, MPI_SUM, P, MPI_COMM_WORLD));
  SAME_ERROR("reduce MPI_OP_NULL", MPI_Reduce(s, r, 4, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD),
             PMPI_Reduce(s, r, 4, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD));
  SAME_ERROR("allreduce MPI_DATATYPE_NULL",
             MPI_Allreduce(s, r, 4, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD),
             PMPI_Allreduce(s, r, 4, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD));
  SAME_ERROR("allreduce MPI_SUM on a struct",
             MPI_Allreduce(ps, pr, 2, st, MPI_SUM, MPI_COMM_WORLD),
             PMPI_Allreduce(ps, pr, 2, st, MPI_SUM, MPI_COMM_WORLD));
  MPI_Datatype vt;
  MPI_Type_vector(2, 1, 3, MPI_INT, &vt);
  MPI_Type_commit(&vt);
  SAME_ERROR("reduce MPI_SUM on a vector type", MPI_Reduce(s, r, 2, vt, MPI_SUM, 0, MPI_COMM_WORLD),
             PMPI_Reduce(s, r, 2, vt, MPI_SUM, 0, MPI_COMM_WORLD));
  MPI_Type_free(&vt);
  SAME_ERROR("allreduce MPI_BAND on double", MPI_Allreduce(s, r, 2, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD),
             PMPI_Allreduce(s, r, 2, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD));
  SAME_ERROR("scan MPI_COMM_NULL", MPI_Scan(s, r, 4, MPI_INT, MPI_SUM, MPI_COMM_NULL),
             PMPI_Scan(s, r, 4, MPI_INT, MPI_SUM, MPI_COMM_NULL));
  SAME_ERROR("exscan MPI_OP_NULL", MPI_Exscan(s, r, 4, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD),
             PMPI_Exscan(s, r, 4, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
  SAME_ERROR("gather count -1", MPI_Gather(s, -1, MPI_INT, r, 1, MPI_INT, 0, MPI_COMM_WORLD),
             PMPI_Gather(s, -1, MPI_INT, r, 1, MPI_INT, 0, MPI_COMM_WORLD));
  SAME_ERROR("gather root -1", MPI_Gather(s, 1, MPI_INT, r, 1, MPI_INT, -1, MPI_COMM_WORLD),
             PMPI_Gather(s, 1, MPI_INT, r, 1, MPI_INT, -1, MPI_COMM_WORLD));
  SAME_ERROR("scatter MPI_DATATYPE_NULL",
             MPI_Scatter(s, 1, MPI_DATATYPE_NULL, r, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD),
             PMPI_Scatter(s, 1, MPI_DATATYPE_NULL, r, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD));
  SAME_ERROR("alltoall count -1", MPI_Alltoall(s, -1, MPI_INT, r, -1, MPI_INT, MPI_COMM_WORLD),
             PMPI_Alltoall(s, -1, MPI_INT, r, -1, MPI_INT, MPI_COMM_WORLD));
  SAME_ERROR("barrier MPI_COMM_NULL", MPI_Barrier(MPI_COMM_NULL), PMPI_Barrier(MPI_COMM_NULL));
  SAME_ERROR("bcast count -1", MPI_Bcast(s, -1, MPI_INT, 0, MPI_COMM_WORLD),
             PMPI_Bcast(s, -1, MPI_INT, 0, MPI_COMM_WORLD));
  MPI_Type_free(&st);

  /* one-rank communicator: passed through, right answer */
  int one = me + 1, got = 0;
  CHECK(MPI_Allreduce(&one, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF) == MPI_SUCCESS, "self allreduce");
  CHECK(got == me + 1, "self allreduce gave %d", got);
  const char *gs = last ? last("allreduce") : NULL;
  CHECK(gs && !strcmp(gs, "pmpi"), "allreduce on MPI_COMM_SELF ran %s, expected pmpi", gs ? gs : "(null)");

  /* intercommunicator: passed through, right answer */
  if (P >= 2) {
    MPI_Comm local, inter;
    int color = me < P / 2 ? 0 : 1, lrank, rsize;
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? P / 2 : 0, 78, &inter);
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_remote_size(inter, &rsize);
    int v = me, sum = -1;
    int rc = MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, inter);
    /* intercomm allreduce: the sum over the other group */
    int want = 0;
    for (int q = 0; q < P; ++q)
      if ((q < P / 2 ? 0 : 1) != color) want += q;
    CHECK(rc == MPI_SUCCESS && sum == want, "intercomm allreduce: rc %d sum %d want %d", rc, sum, want);
    const char *g = last ? last("allreduce") : NULL;
    CHECK(g && !strcmp(g, "pmpi"), "intercomm allreduce ran %s", g ? g : "(null)");
    rc = MPI_Barrier(inter);
    g = last ? last("barrier") : NULL;
    CHECK(rc == MPI_SUCCESS && g && !strcmp(g, "pmpi"), "intercomm barrier rc %d ran %s", rc, g ? g : "(null)");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
  /* still working afterwards */
  int x = me, tot = 0;
  CHECK(MPI_Allreduce(&x, &tot, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS &&
            tot == P * (P - 1) / 2, "allreduce after errors gave %d", tot);
  *checked_out += checked;
  *failures_out += failures;
}
