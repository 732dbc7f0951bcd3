/*
 * main() of a check program of one interposed collective (allgather_check,
 * reduce_scatter_block_check): the modes
 *   auto      ARCOLL_<COLL>_ALGORITHM unset (model + online selection)
 *   forcedK   ARCOLL_<COLL>_ALGORITHM = algorithm K of the collective's
 *             table, set before MPI_Init (forced_k = K for the checks)
 *   errors    the program's errors function
 * then every case on MPI_COMM_WORLD and on a communicator with the ranks
 * reversed, and one verdict line "PROG MODE P=N: OK|FAIL (f failures, c
 * checks)" from rank 0; exit 1 on any failure, 2 (MPI_Abort) on a bad mode.
 * Also check_want / check_ran: the algorithm that ran.
 * Include after check_util.h and after the program's statics
 * `int P, me, forced_k; long failures, checked, big; last_fn last`.
 */
#ifndef ARCOLL_TEST_CHECK_DRIVER_H
#define ARCOLL_TEST_CHECK_DRIVER_H

#include <stdlib.h>
#include <string.h>

#include "select.h"

typedef struct check_driver {
  arcoll_coll_t coll;           /* whose algorithm table forcedK indexes */
  const char *env;              /* "ARCOLL_<COLL>_ALGORITHM" */
  void (*init)(void);           /* after MPI_Init: types, data */
  void (*fini)(void);           /* before MPI_Finalize */
  void (*run_all)(MPI_Comm);    /* every case on the communicator */
  void (*errors)(void);         /* the errors mode */
} check_driver_t;

/* The algorithm the program expects libarcoll to have run on a communicator
 * of cp ranks: "pmpi" on one rank, "none" when nothing moves (nothing != 0),
 * the forced one (forcedK), else NULL (any algorithm of the table). */
static const char *check_want(arcoll_coll_t coll, int cp, int nothing) {
  int n = 0;
  const arcoll_algo_desc_t *t = arcoll_algorithm_table(coll, &n);
  return cp == 1 ? "pmpi" : nothing ? "none" : forced_k >= 0 && forced_k < n ? t[forced_k].name : NULL;
}

/* Checks what arcoll_last_algorithm(name) says libarcoll ran: `want` when
 * not NULL, else an algorithm of table `coll`; returns that algorithm's
 * descriptor (NULL: none of the table ran). */
static const arcoll_algo_desc_t *check_ran(const char *name, arcoll_coll_t coll, const char *want,
                                           const char *what) {
  const char *got = last ? last(name) : NULL;
  if (!got) {
    CHECK(0, "%s: arcoll_last_algorithm(\"%s\") is NULL (libarcoll not active?)", what, name);
    return NULL;
  }
  if (want) CHECK(!strcmp(got, want), "%s: ran %s, expected %s", what, got, want);
  const arcoll_algo_desc_t *a = arcoll_algorithm_find(coll, got);
  if (!want) CHECK(a != NULL, "%s: ran %s, expected an arcoll algorithm", what, got);
  return a;
}

/* argv[1] = mode (default auto), argv[2] = big (elements of the large case). */
static int check_driver_main(int argc, char **argv, const check_driver_t *d) {
  const char *mode = argc > 1 ? argv[1] : "auto";
  if (argc > 2) big = atol(argv[2]);
  int n = 0;
  const arcoll_algo_desc_t *t = arcoll_algorithm_table(d->coll, &n);
  if (!strncmp(mode, "forced", 6)) forced_k = atoi(mode + 6);
  const int valid = !strcmp(mode, "auto") || !strcmp(mode, "errors") ||
                    (!strncmp(mode, "forced", 6) && forced_k >= 0 && forced_k < n);
  if (valid && forced_k >= 0) setenv(d->env, t[forced_k].name, 1);
  if (!strcmp(mode, "auto")) unsetenv(d->env);
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (!valid) {
    if (me == 0)
      fprintf(stderr, "%s: unknown mode '%s' (auto, forced0..%d, errors)\n", CHECK_PROG, mode, n - 1);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  last = get_last();
  CHECK(last != NULL, "libarcoll is not active (arcoll_last_algorithm missing)");
  d->init();
  if (!strcmp(mode, "errors")) {
    d->errors();
  } else {
    d->run_all(MPI_COMM_WORLD);
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, P - me, &rev);
    d->run_all(rev);
    MPI_Comm_free(&rev);
  }
  long tot[2] = {0, 0}, mine[2] = {failures, checked};
  PMPI_Allreduce(mine, tot, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD); /* the verdict: not interposed */
  if (me == 0)
    printf("%s %s P=%d: %s (%ld failures, %ld checks)\n", CHECK_PROG, mode, P, tot[0] ? "FAIL" : "OK",
           tot[0], tot[1]);
  d->fini();
  MPI_Finalize();
  return tot[0] ? 1 : 0;
}

#endif
