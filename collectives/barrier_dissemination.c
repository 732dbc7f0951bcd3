/* Dissemination barrier (Hensgen, Finkel, Manber 1988); see alltoall.h. */
#include <stdlib.h>

#include "alltoall.h"
#include "bcast_etc_util.h"

int arcoll_barrier_dissemination(MPI_Comm comm, const arcoll_sched_t *s) {
  int *order, pos, P, rc;
  rc = arcoll_order_resolve(s, (s && s->order) ? s->order[0] : 0, comm, &order, &pos, &P);
  if (rc != MPI_SUCCESS) return rc;
  const int tag = arcoll_sched_tag(s);
  for (int k = 1; k < P && rc == MPI_SUCCESS; k <<= 1)
    rc = MPI_Sendrecv(NULL, 0, MPI_BYTE, order[(pos + k) % P], tag, NULL, 0, MPI_BYTE,
                      order[(pos - k + P) % P], tag, comm, MPI_STATUS_IGNORE);
  free(order);
  return rc;
}
