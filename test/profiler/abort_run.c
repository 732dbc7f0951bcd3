/*
 * Profiler test program: a run that never reaches MPI_Finalize.  Every rank
 * makes 30 MPI_Bcast calls; then the last rank ends the job with MPI_Abort
 * (argument `abort`) or by SIGTERM to itself (`sigterm`) while the others
 * wait in an MPI_Barrier it never joins, so the process manager kills them.
 * run_abort.sh checks that the trace parts survive and `arcoll recover`
 * assembles them.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, P, v[4] = {0, 0, 0, 0};
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  for (int i = 0; i < 30; ++i) {
    if (me == 0) v[0] = i;
    MPI_Bcast(v, 4, MPI_INT, 0, MPI_COMM_WORLD);
    if (v[0] != i) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (me == P - 1) {
    fflush(stdout);
    if (argc > 1 && !strcmp(argv[1], "sigterm")) raise(SIGTERM);
    else MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* never completes */
  MPI_Finalize();
  return 0;
}
