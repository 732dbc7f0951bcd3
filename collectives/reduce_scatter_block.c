/* The reduce_scatter_block algorithms (reduce_scatter_block.h) as the
 * equal-counts case of the reduce_scatter ones (reduce_scatter.h): P copies
 * of recvcount, then the same code. */
#include <stdlib.h>

#include "reduce_scatter.h"
#include "reduce_scatter_block.h"

static int equal_counts(arcoll_reduce_scatter_fn fn, const void *sendbuf, void *recvbuf,
                        MPI_Aint count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                        const arcoll_sched_t *s) {
  int P, rc;
  if (count <= 0) return MPI_SUCCESS;
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  MPI_Aint *counts = malloc(sizeof(MPI_Aint) * (size_t)P);
  if (!counts) return MPI_ERR_NO_MEM;
  for (int q = 0; q < P; ++q) counts[q] = count;
  rc = fn(sendbuf, recvbuf, counts, dt, op, comm, s);
  free(counts);
  return rc;
}

int arcoll_reduce_scatter_block_recursive_halving(const void *sendbuf, void *recvbuf,
                                                  MPI_Aint count, MPI_Datatype dt, MPI_Op op,
                                                  MPI_Comm comm, const arcoll_sched_t *s) {
  return equal_counts(arcoll_reduce_scatter_recursive_halving, sendbuf, recvbuf, count, dt, op,
                      comm, s);
}

int arcoll_reduce_scatter_block_recursive_halving_near(const void *sendbuf, void *recvbuf,
                                                       MPI_Aint count, MPI_Datatype dt, MPI_Op op,
                                                       MPI_Comm comm, const arcoll_sched_t *s) {
  return equal_counts(arcoll_reduce_scatter_recursive_halving_near, sendbuf, recvbuf, count, dt, op,
                      comm, s);
}

int arcoll_reduce_scatter_block_pairwise(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                         MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                         const arcoll_sched_t *s) {
  return equal_counts(arcoll_reduce_scatter_pairwise, sendbuf, recvbuf, count, dt, op, comm, s);
}

int arcoll_reduce_scatter_block_reduce_scatterv(const void *sendbuf, void *recvbuf,
                                                MPI_Aint count, MPI_Datatype dt, MPI_Op op,
                                                MPI_Comm comm, const arcoll_sched_t *s) {
  return equal_counts(arcoll_reduce_scatter_reduce_scatterv, sendbuf, recvbuf, count, dt, op, comm,
                      s);
}

int arcoll_reduce_scatter_block_ring(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                     MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                     const arcoll_sched_t *s) {
  return equal_counts(arcoll_reduce_scatter_ring, sendbuf, recvbuf, count, dt, op, comm, s);
}
