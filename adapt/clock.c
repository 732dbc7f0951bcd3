/* Clock offsets between ranks (Cristian's algorithm over a binomial tree); see clock.h. */
#include "clock.h"

#include <stddef.h>

#define ROUNDS 3

int arcoll_clock_offset(MPI_Comm comm, int tag, double *offset) {
  int P, me, flag = 0, rc = MPI_SUCCESS;
  int *global = NULL;
  *offset = 0.0;
  if (PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag) == MPI_SUCCESS &&
      flag && global && *global)
    return MPI_SUCCESS;
  PMPI_Comm_size(comm, &P);
  PMPI_Comm_rank(comm, &me);
  /* round k: ranks r < 2^k (offset known) measure r + 2^k */
  for (int mask = 1; mask < P && rc == MPI_SUCCESS; mask <<= 1) {
    if (me < mask && me + mask < P) {
      const int child = me + mask;
      double best = -1.0, rel = 0.0, lo = -1e300, hi = 1e300;
      for (int k = 0; k < ROUNDS && rc == MPI_SUCCESS; ++k) {
        double t_remote = 0.0;
        const double t0 = PMPI_Wtime();
        rc = PMPI_Send(NULL, 0, MPI_BYTE, child, tag, comm);
        if (rc == MPI_SUCCESS)
          rc = PMPI_Recv(&t_remote, 1, MPI_DOUBLE, child, tag, comm, MPI_STATUS_IGNORE);
        const double t1 = PMPI_Wtime();
        if (rc != MPI_SUCCESS) break;
        /* the child read its clock between t0 and t1: its offset lies in
         * [t_remote - t1, t_remote - t0] */
        if (t_remote - t1 > lo) lo = t_remote - t1;
        if (t_remote - t0 < hi) hi = t_remote - t0;
        if (best < 0 || t1 - t0 < best) {
          best = t1 - t0;
          rel = t_remote - 0.5 * (t0 + t1); /* child's clock - this rank's */
        }
      }
      /* every offset in [lo, hi] fits all round trips: take the one nearest
       * 0, so clocks that are one (ranks of one host) get exactly 0 however
       * slow the round trips were (descheduled ranks); the fastest round
       * trip's midpoint only if the intervals disagree (drift, jitter) */
      if (lo <= hi) rel = lo > 0 ? lo : hi < 0 ? hi : 0.0;
      const double off = *offset + rel;
      if (rc == MPI_SUCCESS) rc = PMPI_Send(&off, 1, MPI_DOUBLE, child, tag, comm);
    } else if (me >= mask && me < 2 * mask) {
      const int parent = me - mask;
      for (int k = 0; k < ROUNDS && rc == MPI_SUCCESS; ++k) {
        rc = PMPI_Recv(NULL, 0, MPI_BYTE, parent, tag, comm, MPI_STATUS_IGNORE);
        const double t = PMPI_Wtime();
        if (rc == MPI_SUCCESS) rc = PMPI_Send(&t, 1, MPI_DOUBLE, parent, tag, comm);
      }
      if (rc == MPI_SUCCESS) rc = PMPI_Recv(offset, 1, MPI_DOUBLE, parent, tag, comm, MPI_STATUS_IGNORE);
    }
  }
  return rc;
}
