/* Clock offsets between ranks (Cristian's algorithm); see clock.h. */
#include "clock.h"

#include <stdlib.h>

int arcoll_clock_offset(MPI_Comm comm, int tag, double *offset) {
  int P, me, flag = 0, rc = MPI_SUCCESS;
  int *global = NULL;
  *offset = 0.0;
  if (PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag) == MPI_SUCCESS &&
      flag && global && *global)
    return MPI_SUCCESS;
  PMPI_Comm_size(comm, &P);
  PMPI_Comm_rank(comm, &me);
  const int rounds = 3;
  if (me == 0) {
    double *off = calloc((size_t)P, sizeof(double));
    if (!off) return MPI_ERR_NO_MEM;
    for (int r = 1; r < P && rc == MPI_SUCCESS; ++r) {
      double best = -1.0;
      for (int k = 0; k < rounds && rc == MPI_SUCCESS; ++k) {
        double t_remote = 0.0;
        const double t0 = PMPI_Wtime();
        rc = PMPI_Send(NULL, 0, MPI_BYTE, r, tag, comm);
        if (rc == MPI_SUCCESS)
          rc = PMPI_Recv(&t_remote, 1, MPI_DOUBLE, r, tag, comm, MPI_STATUS_IGNORE);
        const double t1 = PMPI_Wtime();
        if (rc == MPI_SUCCESS && (best < 0 || t1 - t0 < best)) {
          best = t1 - t0;
          off[r] = t_remote - 0.5 * (t0 + t1);
        }
      }
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Scatter(off, 1, MPI_DOUBLE, offset, 1, MPI_DOUBLE, 0, comm);
    free(off);
  } else {
    for (int k = 0; k < rounds && rc == MPI_SUCCESS; ++k) {
      rc = PMPI_Recv(NULL, 0, MPI_BYTE, 0, tag, comm, MPI_STATUS_IGNORE);
      const double t = PMPI_Wtime();
      if (rc == MPI_SUCCESS) rc = PMPI_Send(&t, 1, MPI_DOUBLE, 0, tag, comm);
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Scatter(NULL, 1, MPI_DOUBLE, offset, 1, MPI_DOUBLE, 0, comm);
  }
  return rc;
}
