/* Linear (chain) scan/exscan: the chain kernel with the whole message as one
 * segment (seed 000_32450fa7292fe18a.txt: T = P (2 T_send(M) + T_comp(M))).
 * See scan.h. */
#include "scan.h"
#include "scan_impl.h"

int arcoll_scan_linear(const void *sendbuf, void *recvbuf, MPI_Aint count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       const arcoll_sched_t *s) {
  return arcoll_scan_chain(sendbuf, recvbuf, count, datatype, op, 0, 0, s ? s->tag : 0, comm);
}

int arcoll_exscan_linear(const void *sendbuf, void *recvbuf, MPI_Aint count,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                         const arcoll_sched_t *s) {
  return arcoll_scan_chain(sendbuf, recvbuf, count, datatype, op, 0, 1, s ? s->tag : 0, comm);
}
