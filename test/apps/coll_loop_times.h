/*
 * coll_loop_times.h: coll_loop's -e, every rank's entry and exit time of
 * every call, printed by rank 0 after the loop; included by coll_loop.c only
 * (one translation unit: tools/adapt-bench.sh builds coll_loop with one
 * smpicc command).
 *
 * Output, one line per call c and kind (seconds of MPI_Wtime, rank order):
 *   ENTRY c t_0 t_1 ... t_{P-1}    just before the collective (after the
 *                                  scenario's delay and the -w work)
 *   EXIT c t_0 t_1 ... t_{P-1}     just after it
 * Under SMPI, MPI_Wtime is the simulation's one clock, so the times of
 * different ranks compare (tools/adapt_recovery.py: how many calls the root
 * is ahead of a rank that becomes late); on real MPI they are per-process
 * clocks (MPI_WTIME_IS_GLOBAL is false in MPICH) and compare only within a
 * rank.  Memory: 2 x calls doubles per rank, 2 x calls x P on rank 0.
 */
#ifndef COLL_LOOP_TIMES_H
#define COLL_LOOP_TIMES_H

typedef struct cl_times {
  double *t; /* t[2 c] entry, t[2 c + 1] exit of call c on this rank; NULL: -e not given */
  int calls;
} cl_times_t;

/* -e given: room for `calls` calls (MPI_Abort when out of memory) */
static void cl_times_setup(cl_times_t *x, int calls) {
  x->calls = calls;
  x->t = calloc((size_t)calls * 2, sizeof(double));
  if (!x->t) MPI_Abort(MPI_COMM_WORLD, 3);
}

static void cl_times_note(cl_times_t *x, int c, double entry, double exit) {
  if (!x->t) return;
  x->t[2 * c] = entry;
  x->t[2 * c + 1] = exit;
}

/* collective over MPI_COMM_WORLD (every rank, after the loop): rank 0 prints
 * the ENTRY and EXIT lines of every call, then frees */
static void cl_times_print(cl_times_t *x, int me, int P) {
  if (!x->t) return;
  const int n = 2 * x->calls;
  double *all = me == 0 ? malloc((size_t)n * (size_t)P * sizeof(double)) : NULL;
  if (me == 0 && !all) MPI_Abort(MPI_COMM_WORLD, 3);
  MPI_Gather(x->t, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (me == 0)
    for (int c = 0; c < x->calls; ++c)
      for (int k = 0; k < 2; ++k) {
        printf("%s %d", k ? "EXIT" : "ENTRY", c);
        for (int r = 0; r < P; ++r) printf(" %.9f", all[(size_t)r * n + 2 * c + k]);
        printf("\n");
      }
  free(all);
  free(x->t);
  x->t = NULL;
}

#endif
