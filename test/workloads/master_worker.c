/**
 * @file master_worker.c
 * @brief Master-worker: rank 0 hands every worker a task of -t bytes and
 *        gathers a result of -b bytes from each (MPI_Irecv from all workers,
 *        one MPI_Waitall), -i rounds. The master's links carry all the
 *        traffic; a mapping can only choose who shares the master's host and
 *        leaf. Payloads are checked element by element (outside the timed
 *        region).
 *
 * Usage: master_worker [-b RESULT_BYTES (multiple of 4, default 65536)] [-t TASK_BYTES (multiple of 4,
 *                      default 1024)] [-i ITERS (default 10)]
 * Prints the WORKLOAD line of wl_common.h; exit 0 if verified, 1 on a wrong
 * element, 2 on bad arguments.
 */
#include "wl_common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long opt[3] = {65536, 1024, 10};
  if (!wl_parse(argc, argv, "bti", opt, NULL, NULL, "[-b RESULT_BYTES] [-t TASK_BYTES] [-i ITERS]", rank) ||
      opt[0] % 4 || opt[1] % 4 || P < 2) {
    if (rank == 0) fprintf(stderr, "master_worker: needs >= 2 ranks, -b and -t multiples of 4 bytes\n");
    MPI_Finalize();
    return 2;
  }
  const long n = opt[0] / 4, nt = opt[1] / 4;
  const int iters = (int)opt[2], nw = P - 1;
  int32_t *task = malloc(nt * (rank == 0 ? nw : 1) * sizeof(int32_t));
  int32_t *res = malloc(n * (rank == 0 ? nw : 1) * sizeof(int32_t));
  MPI_Request *rq = malloc(2 * (size_t)nw * sizeof(MPI_Request));
  MPI_Status *st = malloc(2 * (size_t)nw * sizeof(MPI_Status));
  if (!task || !res || !rq || !st) MPI_Abort(MPI_COMM_WORLD, 3);
  double t_comm = 0, bytes = 0;
  long errors = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int it = 0; it < iters; ++it) {
    if (rank == 0) {
      for (int w = 0; w < nw; ++w)
        for (long e = 0; e < nt; ++e) task[w * nt + e] = wl_value(0, w + 1, it, e);
      double t0 = MPI_Wtime();
      for (int w = 0; w < nw; ++w) MPI_Irecv(res + w * n, (int)n, MPI_INT32_T, w + 1, 1, MPI_COMM_WORLD, &rq[w]);
      for (int w = 0; w < nw; ++w)
        MPI_Isend(task + w * nt, (int)nt, MPI_INT32_T, w + 1, 0, MPI_COMM_WORLD, &rq[nw + w]);
      MPI_Waitall(2 * nw, rq, st);
      t_comm += MPI_Wtime() - t0;
      bytes += (double)nw * opt[1];
      for (int w = 0; w < nw; ++w)
        for (long e = 0; e < n; ++e) errors += res[w * n + e] != wl_value(w + 1, 0, it, e);
    } else {
      double t0 = MPI_Wtime();
      MPI_Recv(task, (int)nt, MPI_INT32_T, 0, 0, MPI_COMM_WORLD, &st[0]);
      t_comm += MPI_Wtime() - t0;
      for (long e = 0; e < nt; ++e) errors += task[e] != wl_value(0, rank, it, e);
      for (long e = 0; e < n; ++e) res[e] = wl_value(rank, 0, it, e);
      t0 = MPI_Wtime();
      MPI_Send(res, (int)n, MPI_INT32_T, 0, 1, MPI_COMM_WORLD);
      t_comm += MPI_Wtime() - t0;
      bytes += (double)opt[0];
    }
  }
  int rc = wl_report("master_worker", iters, bytes, t_comm, errors, "");
  free(task); free(res); free(rq); free(st);
  MPI_Finalize();
  return rc;
}
