/* Test program for the arcoll profiler's communication steps and CCS
 * (profiler/RECORDER_SEMANTICS.md). With P ranks, rank r:
 *   step 0: MPI_Sendrecv of 100 ints (400 bytes) to (r+1)%P, from (r-1)%P
 *   step 1: halo: MPI_Irecv x2, MPI_Isend of 8 doubles (64 bytes) to (r-1)%P
 *           and to (r+1)%P, MPI_Waitall
 *   step 2: MPI_Barrier
 *   step 3: rank `delayed` (argv[1], default P-1) sleeps 300 ms, then
 *           MPI_Bcast of 16 bytes from rank 0
 * and checks every received value. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int rank, size, errors = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int delayed = argc > 1 ? atoi(argv[1]) : size - 1;
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  int sbuf[100], rbuf[100];
  for (int i = 0; i < 100; i++) sbuf[i] = 1000 * rank + i;
  MPI_Sendrecv(sbuf, 100, MPI_INT, right, 1, rbuf, 100, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < 100; i++) errors += rbuf[i] != 1000 * left + i;

  double hs[2][8], hr[2][8];
  MPI_Request req[4];
  for (int i = 0; i < 8; i++) { hs[0][i] = rank + 0.25 * i; hs[1][i] = -rank - 0.25 * i; }
  MPI_Irecv(hr[0], 8, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(hr[1], 8, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(hs[0], 8, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(hs[1], 8, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &req[3]);
  MPI_Status st[4];
  MPI_Waitall(4, req, st);
  for (int i = 0; i < 8; i++) {
    errors += hr[0][i] != left + 0.25 * i;
    errors += hr[1][i] != -right - 0.25 * i;
  }

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == delayed) usleep(300000);
  int b[4] = {7, 8, 9, 10};
  if (rank != 0) b[0] = b[1] = b[2] = b[3] = 0;
  MPI_Bcast(b, 4, MPI_INT, 0, MPI_COMM_WORLD);
  errors += b[0] != 7 || b[3] != 10;
  MPI_Finalize();
  if (errors) fprintf(stderr, "rank %d: %d wrong values\n", rank, errors);
  return errors ? 1 : 0;
}
