/*
 * Profiler test program: a run that never reaches MPI_Finalize.  Every rank
 * makes 30 MPI_Bcast calls and one MPI_Barrier; then the last rank ends the job with MPI_Abort
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
  /* every rank's 30 calls and this barrier are recorded (and, with
   * ARCOLL_FLUSH_SECONDS=0, written at the barrier's exit) before the last
   * rank ends the job: it waits for a token from each other rank */
  MPI_Barrier(MPI_COMM_WORLD);
  if (me != P - 1) MPI_Send(&me, 1, MPI_INT, P - 1, 9, MPI_COMM_WORLD);
  if (me == P - 1) {
    for (int r = 0; r < P - 1; ++r) MPI_Recv(v, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fflush(stdout);
    if (argc > 1 && !strcmp(argv[1], "sigterm")) raise(SIGTERM);
    else MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* never completes */
  MPI_Finalize();
  return 0;
}
