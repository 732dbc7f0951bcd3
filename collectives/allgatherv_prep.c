/* Argument preparation and block-set datatypes of the allgather and
 * allgatherv algorithms; see allgatherv_prep.h. */
#include "allgatherv_prep.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_etc_util.h"

/* The part common to both forms, once a->rbuf / counts / displs / count / rtype
 * are set and the counts checked: my contribution into my block, the order,
 * the scratch of the block-set types. */
static int finish_prepare(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                          MPI_Comm comm, const arcoll_sched_t *s, arcoll_agv_t *a) {
  int rc, rank;
  MPI_Aint lb;
  if (sendbuf != MPI_IN_PLACE && sendcount > INT_MAX) return MPI_ERR_COUNT;
  if ((rc = MPI_Type_get_extent(a->rtype, &lb, &a->rext)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS) return rc;
  if (sendbuf != MPI_IN_PLACE) { /* my contribution into my block */
    const MPI_Aint mine = a->counts ? a->counts[rank] : a->count;
    const MPI_Aint at = a->displs ? a->displs[rank] : (MPI_Aint)rank * a->count;
    rc = arcoll_local_copy(sendbuf, sendcount, sendtype, a->rbuf + at * a->rext, mine, a->rtype,
                           comm);
    if (rc != MPI_SUCCESS) return rc;
  }
  rc = arcoll_order_resolve(s, (s && s->order) ? s->order[0] : 0, comm, &a->order, &a->pos,
                            &a->P);
  if (rc != MPI_SUCCESS) return rc;
  a->k = s ? s->k : 0;
  a->tdispls = malloc(sizeof(MPI_Aint) * (size_t)a->P);
  a->tlens = malloc(sizeof(int) * (size_t)a->P);
  if (!a->tdispls || !a->tlens) {
    arcoll_agv_done(a);
    return MPI_ERR_NO_MEM;
  }
  return MPI_SUCCESS;
}

int arcoll_agv_prepare(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Aint *recvcounts, const MPI_Aint *displs,
                       MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s,
                       arcoll_agv_t *a) {
  int rc, size, P;
  MPI_Aint total = 0;
  memset(a, 0, sizeof(*a));
  if ((rc = MPI_Type_size(recvtype, &size)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  for (int r = 0; r < P; ++r) {
    if (recvcounts[r] < 0 || recvcounts[r] > INT_MAX) return MPI_ERR_COUNT;
    total += recvcounts[r];
  }
  if (total == 0 || size == 0) return ARCOLL_AGV_NOTHING;
  a->rbuf = recvbuf;
  a->counts = recvcounts;
  a->displs = displs;
  a->rtype = recvtype;
  return finish_prepare(sendbuf, sendcount, sendtype, comm, s, a);
}

int arcoll_agv_prepare_equal(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, const arcoll_sched_t *s, arcoll_agv_t *a) {
  int rc, size;
  memset(a, 0, sizeof(*a));
  if ((rc = MPI_Type_size(recvtype, &size)) != MPI_SUCCESS) return rc;
  if (recvcount == 0 || size == 0) return ARCOLL_AGV_NOTHING;
  if (recvcount < 0 || recvcount > INT_MAX) return MPI_ERR_COUNT;
  a->rbuf = recvbuf;
  a->count = recvcount;
  a->rtype = recvtype;
  return finish_prepare(sendbuf, sendcount, sendtype, comm, s, a);
}

/* body on a after a preparation that returned prep_rc */
static int run(arcoll_agv_body_fn body, int prep_rc, arcoll_agv_t *a, const arcoll_sched_t *s,
               MPI_Comm comm) {
  if (prep_rc == ARCOLL_AGV_NOTHING) return MPI_SUCCESS;
  if (prep_rc != MPI_SUCCESS) return prep_rc;
  const int rc = body(a, arcoll_sched_tag(s), comm);
  arcoll_agv_done(a);
  return rc;
}

int arcoll_agv_call(arcoll_agv_body_fn body, const void *sendbuf, MPI_Aint sendcount,
                    MPI_Datatype sendtype, void *recvbuf, const MPI_Aint *recvcounts,
                    const MPI_Aint *displs, MPI_Datatype recvtype, MPI_Comm comm,
                    const arcoll_sched_t *s) {
  arcoll_agv_t a;
  const int rc = arcoll_agv_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, comm, s, &a);
  return run(body, rc, &a, s, comm);
}

int arcoll_agv_call_equal(arcoll_agv_body_fn body, const void *sendbuf, MPI_Aint sendcount,
                          MPI_Datatype sendtype, void *recvbuf, MPI_Aint recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_agv_t a;
  const int rc = arcoll_agv_prepare_equal(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm, s, &a);
  return run(body, rc, &a, s, comm);
}

void arcoll_agv_done(arcoll_agv_t *a) {
  free(a->order);
  free(a->tdispls);
  free(a->tlens);
  a->order = NULL;
  a->tdispls = NULL;
  a->tlens = NULL;
}

/* the type of the blocks a->tlens / a->tdispls [0..n) */
static int block_set_type(arcoll_agv_t *a, int n, MPI_Datatype *t) {
  int rc = MPI_Type_create_hindexed(n, a->tlens, a->tdispls, a->rtype, t);
  if (rc != MPI_SUCCESS) return rc;
  rc = MPI_Type_commit(t);
  if (rc != MPI_SUCCESS) MPI_Type_free(t);
  return rc;
}

int arcoll_agv_range_type(arcoll_agv_t *a, int first, int n, MPI_Datatype *t) {
  for (int j = 0; j < n; ++j) {
    a->tdispls[j] = arcoll_agv_block(a, first + j) - a->rbuf;
    a->tlens[j] = arcoll_agv_count(a, first + j);
  }
  return block_set_type(a, n, t);
}

int arcoll_agv_list_type(arcoll_agv_t *a, const int *pos, int n, MPI_Datatype *t) {
  for (int j = 0; j < n; ++j) {
    a->tdispls[j] = arcoll_agv_block(a, pos[j]) - a->rbuf;
    a->tlens[j] = arcoll_agv_count(a, pos[j]);
  }
  return block_set_type(a, n, t);
}

int arcoll_agv_exchange(arcoll_agv_t *a, MPI_Datatype st, int to, MPI_Datatype rt, int from,
                        int tag, MPI_Comm comm) {
  /* Irecv + Isend, not MPI_Sendrecv: both buffers are recvbuf (disjoint
   * blocks), which an implementation's alias check could reject */
  MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int rc = MPI_SUCCESS;
  if (rt != MPI_DATATYPE_NULL)
    rc = MPI_Irecv(a->rbuf, 1, rt, arcoll_agv_rank(a, from), tag, comm, &req[0]);
  if (rc == MPI_SUCCESS && st != MPI_DATATYPE_NULL)
    rc = MPI_Isend(a->rbuf, 1, st, arcoll_agv_rank(a, to), tag, comm, &req[1]);
  rc = arcoll_wait_all(2, req, rc);
  if (st != MPI_DATATYPE_NULL) MPI_Type_free(&st);
  if (rt != MPI_DATATYPE_NULL) MPI_Type_free(&rt);
  return rc;
}
