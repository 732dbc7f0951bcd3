/* Argument preparation of the alltoall algorithms; see alltoall_prep.h. */
#include "alltoall_prep.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_etc_util.h"

int arcoll_a2a_prepare(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const arcoll_sched_t *s, arcoll_a2a_t *a) {
  int rc, size, P;
  MPI_Aint lb;
  memset(a, 0, sizeof(*a));
  if (sendbuf == MPI_IN_PLACE) {
    sendcount = recvcount;
    sendtype = recvtype;
  }
  if ((rc = MPI_Type_size(recvtype, &size)) != MPI_SUCCESS) return rc;
  if (recvcount == 0 || size == 0) return ARCOLL_A2A_NOTHING;
  if (sendcount > INT_MAX || recvcount > INT_MAX) return MPI_ERR_COUNT;
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  a->bb = recvcount * size;
  a->scount = (int)sendcount;
  a->rcount = (int)recvcount;
  a->stype = sendtype;
  a->rtype = recvtype;
  if ((rc = MPI_Type_get_extent(sendtype, &lb, &a->sext)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_get_extent(recvtype, &lb, &a->rext)) != MPI_SUCCESS) return rc;
  a->sbuf = sendbuf;
  if (sendbuf == MPI_IN_PLACE) {
    void *shifted;
    rc = arcoll_span_dup(recvbuf, (MPI_Aint)P * recvcount, recvtype, &a->inplace_raw, &shifted);
    if (rc != MPI_SUCCESS) return rc;
    a->sbuf = shifted;
  }
  rc = arcoll_order_resolve(s, (s && s->order) ? s->order[0] : 0, comm, &a->order, &a->pos,
                            &a->P);
  if (rc != MPI_SUCCESS) arcoll_a2a_done(a);
  return rc;
}

void arcoll_a2a_done(arcoll_a2a_t *a) {
  free(a->inplace_raw);
  free(a->order);
  a->inplace_raw = NULL;
  a->order = NULL;
}
