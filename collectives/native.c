/* The MPI library's own bcast, reduce and allreduce as algorithm
 * descriptors (native.h). */
#include "native.h"

#include <limits.h>
#include <stddef.h>

#include "allreduce.h"
#include "bcast.h"
#include "reduce.h"
#include "reduce_util.h"

#define FN(f) ((void (*)(void))(f))

static int native_bcast(void *buf, MPI_Aint count, MPI_Datatype dt, int root, MPI_Comm comm,
                        const arcoll_sched_t *s) {
  (void)s;
  if (count <= INT_MAX) return PMPI_Bcast(buf, (int)count, dt, root, comm);
#if MPI_VERSION >= 4
  return PMPI_Bcast_c(buf, (MPI_Count)count, dt, root, comm);
#else
  return MPI_ERR_COUNT;
#endif
}

static int call_reduce(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                       MPI_Op op, int root, MPI_Comm comm) {
  if (count <= INT_MAX) return PMPI_Reduce(sendbuf, recvbuf, (int)count, dt, op, root, comm);
#if MPI_VERSION >= 4
  return PMPI_Reduce_c(sendbuf, recvbuf, (MPI_Count)count, dt, op, root, comm);
#else
  return MPI_ERR_COUNT;
#endif
}

/* MPI_IN_PLACE at the root goes to the library as a copy of recvbuf: MPICH
 * 4.0.2's MPI_Reduce with MPI_IN_PLACE at a root other than 0 crashes from
 * 2052 bytes (513 MPI_INT, MPI_SUM, 2 ranks: a segmentation fault in its
 * memcpy, reproduced without libarcoll). */
static int native_reduce(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                         MPI_Op op, int root, MPI_Comm comm, const arcoll_sched_t *s) {
  (void)s;
  if (sendbuf != MPI_IN_PLACE || count == 0) return call_reduce(sendbuf, recvbuf, count, dt, op, root, comm);
  arcoll_red_typeinfo_t ti;
  arcoll_red_tmpbuf_t t = {NULL, NULL};
  int rc = arcoll_red_typeinfo(dt, &ti);
  if (rc == MPI_SUCCESS) rc = arcoll_red_tmpbuf_alloc(&ti, count, &t);
  if (rc == MPI_SUCCESS) rc = arcoll_red_copy(recvbuf, t.buf, count, dt, &ti);
  if (rc == MPI_SUCCESS) rc = call_reduce(t.buf, recvbuf, count, dt, op, root, comm);
  arcoll_red_tmpbuf_free(&t);
  return rc;
}

static int native_allreduce(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                            MPI_Op op, MPI_Comm comm, const arcoll_sched_t *s) {
  (void)s;
  if (count <= INT_MAX) return PMPI_Allreduce(sendbuf, recvbuf, (int)count, dt, op, comm);
#if MPI_VERSION >= 4
  return PMPI_Allreduce_c(sendbuf, recvbuf, (MPI_Count)count, dt, op, comm);
#else
  return MPI_ERR_COUNT;
#endif
}

#define WHAT "the MPI library's own collective (PMPI); no model formula, ranked by measurement only"
static const arcoll_algo_desc_t native_bcast_desc = {"bcast", ARCOLL_NATIVE_NAME, FN(native_bcast),
                                                     0, WHAT};
static const arcoll_algo_desc_t native_reduce_desc = {"reduce", ARCOLL_NATIVE_NAME,
                                                      FN(native_reduce), 0, WHAT};
static const arcoll_algo_desc_t native_allreduce_desc = {"allreduce", ARCOLL_NATIVE_NAME,
                                                         FN(native_allreduce), 0, WHAT};

const arcoll_algo_desc_t *arcoll_native_algorithm(arcoll_coll_t c) {
  switch (c) {
    case ARCOLL_COLL_BCAST: return &native_bcast_desc;
    case ARCOLL_COLL_REDUCE: return &native_reduce_desc;
    case ARCOLL_COLL_ALLREDUCE: return &native_allreduce_desc;
    default: return NULL;
  }
}
