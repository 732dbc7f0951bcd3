/* Argument preparation and block-set datatypes of the allgather algorithms;
 * see allgather_prep.h. */
#include "allgather_prep.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_etc_util.h"

int arcoll_ag_prepare(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const arcoll_sched_t *s, arcoll_ag_t *a) {
  int rc, size, rank;
  MPI_Aint lb;
  memset(a, 0, sizeof(*a));
  if ((rc = MPI_Type_size(recvtype, &size)) != MPI_SUCCESS) return rc;
  if (recvcount == 0 || size == 0) return ARCOLL_AG_NOTHING;
  if (recvcount > INT_MAX || (sendbuf != MPI_IN_PLACE && sendcount > INT_MAX))
    return MPI_ERR_COUNT;
  if ((rc = MPI_Type_get_extent(recvtype, &lb, &a->rext)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS) return rc;
  a->rbuf = recvbuf;
  a->rcount = (int)recvcount;
  a->rtype = recvtype;
  a->bb = recvcount * size;
  if (sendbuf != MPI_IN_PLACE) { /* my contribution into my block */
    rc = arcoll_local_copy(sendbuf, sendcount, sendtype,
                           a->rbuf + (MPI_Aint)rank * a->rcount * a->rext, recvcount, recvtype,
                           comm);
    if (rc != MPI_SUCCESS) return rc;
  }
  rc = arcoll_order_resolve(s, (s && s->order) ? s->order[0] : 0, comm, &a->order, &a->pos,
                            &a->P);
  if (rc != MPI_SUCCESS) return rc;
  if (!(a->displs = malloc(sizeof(MPI_Aint) * (size_t)a->P))) {
    arcoll_ag_done(a);
    return MPI_ERR_NO_MEM;
  }
  return MPI_SUCCESS;
}

void arcoll_ag_done(arcoll_ag_t *a) {
  free(a->order);
  free(a->displs);
  a->order = NULL;
  a->displs = NULL;
}

/* the type of the blocks whose displacements are a->displs[0..n) */
static int block_set_type(arcoll_ag_t *a, int n, MPI_Datatype *t) {
  int rc = MPI_Type_create_hindexed_block(n, a->rcount, a->displs, a->rtype, t);
  if (rc != MPI_SUCCESS) return rc;
  rc = MPI_Type_commit(t);
  if (rc != MPI_SUCCESS) MPI_Type_free(t);
  return rc;
}

int arcoll_ag_range_type(arcoll_ag_t *a, int first, int n, MPI_Datatype *t) {
  for (int j = 0; j < n; ++j) a->displs[j] = arcoll_ag_block(a, first + j) - a->rbuf;
  return block_set_type(a, n, t);
}

int arcoll_ag_list_type(arcoll_ag_t *a, const int *pos, int n, MPI_Datatype *t) {
  for (int j = 0; j < n; ++j) a->displs[j] = arcoll_ag_block(a, pos[j]) - a->rbuf;
  return block_set_type(a, n, t);
}

int arcoll_ag_exchange(arcoll_ag_t *a, MPI_Datatype st, int to, MPI_Datatype rt, int from,
                       int tag, MPI_Comm comm) {
  /* Irecv + Isend, not MPI_Sendrecv: both buffers are recvbuf (disjoint
   * blocks), which an implementation's alias check could reject */
  const int P = a->P;
  MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int rc = MPI_Irecv(a->rbuf, 1, rt, a->order[((from % P) + P) % P], tag, comm, &req[0]);
  if (rc == MPI_SUCCESS)
    rc = MPI_Isend(a->rbuf, 1, st, a->order[((to % P) + P) % P], tag, comm, &req[1]);
  rc = arcoll_wait_all(2, req, rc);
  MPI_Type_free(&st);
  MPI_Type_free(&rt);
  return rc;
}
