/*
 * MPI_Gatherv / MPI_Scatterv and their _c forms through libarcoll (MPICH
 * with LD_PRELOAD, or SMPI linked with libarcoll): results, the algorithm
 * that ran, MPI semantics and error classes.  Built twice: gatherv_check
 * (VB_SCATTER=0) and scatterv_check (VB_SCATTER=1).
 *
 * Usage: gatherv_check|scatterv_check MODE [big_elements]
 *   auto      ARCOLL_<COLL>_ALGORITHM unset (model + online selection)
 *   forcedK   ARCOLL_<COLL>_ALGORITHM = algorithm K of the table (set by
 *             this program before MPI_Init); arcoll_last_algorithm must say so
 *   errors    invalid arguments (made invalid on every rank, so that every
 *             rank goes to PMPI) give the error class PMPI gives
 *             (MPI_ERRORS_RETURN); intercommunicator and MPI_COMM_SELF pass
 *             through to PMPI and give right answers
 * Data (test/collectives/gatherv/gatherv_data.h): irregular counts with
 * zeros, one contributing rank, equal counts; derived types, different
 * send and receive types; blocks in reverse rank order with gaps;
 * MPI_IN_PLACE at the root; sizes 0, 37, big; every root; count arrays NULL
 * off the root; every other call through the _c form (MPI >= 4);
 * MPI_COMM_WORLD and a communicator with the ranks reversed.  Each rank
 * computes the expected buffer itself; every int is compared.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "gatherv_data.h"
#include "select.h" /* algorithm table, to set and check the names */

#if VB_SCATTER
#define CHECK_PROG "scatterv_check"
#define VB_NAME "scatterv"
#define VB_COLL ARCOLL_COLL_SCATTERV
#else
#define CHECK_PROG "gatherv_check"
#define VB_NAME "gatherv"
#define VB_COLL ARCOLL_COLL_GATHERV
#endif
static int P, me, forced_k = -1;
static long failures = 0, checked = 0, big = 2000;
static int next_id = 0;
static last_fn last;

#include "check_driver.h"

/* The interposed call: one / on / ot = this rank's block, all / cnt / dsp
 * / bt the root's side (cnt, dsp NULL off the root). */
static int call(void *one, long on, MPI_Datatype ot, void *all, const long *cnt, const long *dsp,
                MPI_Datatype bt, int root, MPI_Comm comm, int cp, int inplace, int large) {
  int rc;
  void *own = inplace ? MPI_IN_PLACE : one;
#if MPI_VERSION >= 4
  if (large) {
    MPI_Count *c = cnt ? malloc(sizeof(MPI_Count) * (size_t)cp) : NULL;
    MPI_Aint *d = cnt ? malloc(sizeof(MPI_Aint) * (size_t)cp) : NULL;
    for (int q = 0; cnt && q < cp; ++q) c[q] = cnt[q], d[q] = dsp[q];
    rc = VB_SCATTER ? MPI_Scatterv_c(all, c, d, bt, own, on, ot, root, comm)
                    : MPI_Gatherv_c(own, on, ot, all, c, d, bt, root, comm);
    free(c), free(d);
    return rc;
  }
#endif
  (void)large;
  int *c = cnt ? malloc(sizeof(int) * 2 * (size_t)cp) : NULL, *d = c ? c + cp : NULL;
  for (int q = 0; cnt && q < cp; ++q) c[q] = (int)cnt[q], d[q] = (int)dsp[q];
  rc = VB_SCATTER ? MPI_Scatterv(all, c, d, bt, own, (int)on, ot, root, comm)
                  : MPI_Gatherv(own, (int)on, ot, all, c, d, bt, root, comm);
  free(c);
  return rc;
}

static void run_one(MPI_Comm comm, int root, int c, int pat, long n, int inplace, int large) {
  int cp, r;
  char what[160];
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &r);
  gv_call_t k;
  gv_prepare(&k, VB_SCATTER, c, pat, n, cp, r, root, ++next_id, inplace);
  const int ip = inplace && r == root;
  int rc = call(k.one, k.on, ag_mpi(k.ot), k.all, r == root ? k.cnt : NULL, k.dsp, ag_mpi(k.bt),
                root, comm, cp, ip, large);
  snprintf(what, sizeof what, "%s%s root %d case %d pattern %d n=%ld inplace %d P=%d rank %d",
           VB_NAME, large ? "_c" : "", root, c, pat, n, inplace, cp, r);
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  long bad = gv_wrong(&k, VB_SCATTER, r, root, inplace);
  CHECK(bad == 0, "%s: %ld wrong ints", what, bad);
  /* every call runs the algorithm: only the root knows whether data moves */
  check_ran(VB_NAME, VB_COLL, check_want(VB_COLL, cp, 0), what);
  gv_free(&k);
}

static void run_all(MPI_Comm comm) {
  const long sizes[3] = {0, 37, big};
  int cp;
  MPI_Comm_size(comm, &cp);
  for (int root = 0; root < cp; ++root)
    for (int c = 0; c < AGV_NCASES; ++c)
      for (int pat = 0; pat < AGV_NPATTERNS; ++pat)
        for (int z = 0; z < 3; ++z)
          for (int ip = 0; ip < 2; ++ip)
            run_one(comm, root, c, pat, sizes[z], ip, (root + c + pat + z + ip) % 2);
}

/* MPI_x and PMPI_x of this program's collective with the same arguments */
#if VB_SCATTER
#define VB_BOTH(what, own, on, ot, all, c, d, bt, root, comm)                  \
  SAME_ERROR(what, MPI_Scatterv(all, c, d, bt, own, on, ot, root, comm),       \
             PMPI_Scatterv(all, c, d, bt, own, on, ot, root, comm))
#else
#define VB_BOTH(what, own, on, ot, all, c, d, bt, root, comm)                  \
  SAME_ERROR(what, MPI_Gatherv(own, on, ot, all, c, d, bt, root, comm),        \
             PMPI_Gatherv(own, on, ot, all, c, d, bt, root, comm))
#endif

static void mode_errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int o[2] = {me, me}, a[128] = {0}, cnt[64], dsp[64], neg[64];
  for (int q = 0; q < P; ++q) cnt[q] = 1, dsp[q] = P - 1 - q, neg[q] = q == 0 ? -1 : 1;
  const int root = P - 1, mine_bad = me == root ? 1 : -1; /* own count invalid off the root */
  /* each argument invalid on every rank (else the ranks would part ways) */
  VB_BOTH("root = P", o, 1, MPI_INT, a, cnt, dsp, MPI_INT, P, MPI_COMM_WORLD);
  VB_BOTH("own count -1", o, -1, MPI_INT, a, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD);
  VB_BOTH("MPI_DATATYPE_NULL", o, 1, MPI_DATATYPE_NULL, a, cnt, dsp, MPI_DATATYPE_NULL, root,
          MPI_COMM_WORLD);
  VB_BOTH("MPI_COMM_NULL", o, 1, MPI_INT, a, cnt, dsp, MPI_INT, root, MPI_COMM_NULL);
  VB_BOTH("counts[0] = -1 at the root", o, mine_bad, MPI_INT, a, neg, dsp, MPI_INT, root,
          MPI_COMM_WORLD);
  VB_BOTH("NULL buffers", NULL, 1, MPI_INT, NULL, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD);
  /* one-rank communicator: passed through, right answer */
  int one = me + 5, got[2] = {-1, -1}, c1 = 1, d1 = 0;
#if VB_SCATTER
  int rc = MPI_Scatterv(&one, &c1, &d1, MPI_INT, got, 1, MPI_INT, 0, MPI_COMM_SELF);
#else
  int rc = MPI_Gatherv(&one, 1, MPI_INT, got, &c1, &d1, MPI_INT, 0, MPI_COMM_SELF);
#endif
  CHECK(rc == MPI_SUCCESS && got[0] == me + 5 && got[1] == -1, "MPI_COMM_SELF gave %d %d", got[0],
        got[1]);
  check_ran(VB_NAME, VB_COLL, check_want(VB_COLL, 1, 0), "MPI_COMM_SELF");
  /* intercommunicator: passed through; group 1's rank 0 is the root of
   * group 0's blocks (block q at displacement rsize - 1 - q) */
  if (P >= 2) {
    MPI_Comm local, inter;
    const int color = me < P / 2 ? 0 : 1;
    int rsize, lrank, v = 100 + me, all[64], ic[64], id[64];
    MPI_Comm_split(MPI_COMM_WORLD, color, me, &local);
    MPI_Comm_rank(local, &lrank);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? P / 2 : 0, 79, &inter);
    MPI_Comm_remote_size(inter, &rsize);
    const int iroot = color == 0 ? 0 : lrank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    for (int q = 0; q < rsize; ++q) ic[q] = 1, id[q] = rsize - 1 - q, all[id[q]] = 100 + q;
    int got1 = -1, ok;
#if VB_SCATTER /* group 1's root sends 100 + q to group 0's rank q */
    rc = MPI_Scatterv(all, ic, id, MPI_INT, &got1, 1, MPI_INT, iroot, inter);
    ok = rc == MPI_SUCCESS && (color == 1 || got1 == 100 + lrank);
#else /* group 0's rank q (world rank q) sends 100 + q to group 1's root */
    for (int q = 0; q < rsize; ++q) all[q] = -1;
    rc = MPI_Gatherv(&v, 1, MPI_INT, all, ic, id, MPI_INT, iroot, inter);
    ok = rc == MPI_SUCCESS;
    for (int q = 0; color == 1 && lrank == 0 && q < rsize; ++q) ok = ok && all[id[q]] == 100 + q;
#endif
    (void)v, (void)got1;
    CHECK(ok, "intercomm " VB_NAME ": rc %d or wrong values", rc);
    const char *g = last ? last(VB_NAME) : NULL;
    CHECK(g && !strcmp(g, "pmpi"), "intercomm " VB_NAME " ran %s", g ? g : "(null)");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
  }
  /* a valid call after the errors */
  gv_call_t k;
  gv_prepare(&k, VB_SCATTER, 0, 0, 37, P, me, 0, ++next_id, 0);
  rc = call(k.one, k.on, MPI_INT, k.all, me == 0 ? k.cnt : NULL, k.dsp, MPI_INT, 0,
            MPI_COMM_WORLD, P, 0, 0);
  CHECK(rc == MPI_SUCCESS && gv_wrong(&k, VB_SCATTER, me, 0, 0) == 0, VB_NAME " after errors");
  gv_free(&k);
}

int main(int argc, char **argv) {
  const check_driver_t d = {VB_COLL, VB_SCATTER ? "ARCOLL_SCATTERV_ALGORITHM"
                                                : "ARCOLL_GATHERV_ALGORITHM",
                            ag_types_init, ag_types_free, run_all, mode_errors};
  return check_driver_main(argc, argv, &d);
}
