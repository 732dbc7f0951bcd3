/* Recursive-doubling scan/exscan (MPICH MPIR_Scan_intra_recursive_doubling and
 * MPIR_Exscan_intra_recursive_doubling; Thakur, Rabenseifner, Gropp 2005):
 * ceil(log2 P) steps of T_send(M) + 2 T_comp(M).  Order-preserving.  See scan.h. */
#include "reduce_util.h"
#include "scan.h"

static int rd_scan(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                   MPI_Op op, int exclusive, int tag, MPI_Comm comm) {
  int rc, done;
  arcoll_red_call_t c;
  if ((rc = arcoll_red_call_init(count, dt, comm, tag, &c, &done)) != MPI_SUCCESS || done) return rc;
  const int P = c.P, me = c.me;
  const arcoll_red_typeinfo_t ti = c.ti;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  const int commut = arcoll_red_op_commutative(op);
  arcoll_red_tmpbuf_t A = {0}, T = {0};
  /* partial: reduction over my current block of ranks; recvbuf: my prefix */
  if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &A)) != MPI_SUCCESS) goto done;
  if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &T)) != MPI_SUCCESS) goto done;
  void *partial = A.buf, *tmp = T.buf;
  if ((rc = arcoll_red_copy(in, partial, count, dt, &ti)) != MPI_SUCCESS) goto done;
  if (!exclusive && (rc = arcoll_red_copy(in, recvbuf, count, dt, &ti)) != MPI_SUCCESS) goto done;
  int have = !exclusive; /* recvbuf holds a value */
  for (int mask = 1; mask < P; mask <<= 1) {
    int dst = me ^ mask;
    if (dst >= P) continue;
    rc = arcoll_red_sendrecv(partial, count, dst, tmp, count, dst, dt, &ti, tag, comm);
    if (rc != MPI_SUCCESS) goto done;
    if (me > dst) { /* tmp covers lower ranks */
      if ((rc = arcoll_red_local(tmp, partial, count, dt, op, &ti)) != MPI_SUCCESS) goto done;
      if (have) {
        rc = arcoll_red_local(tmp, recvbuf, count, dt, op, &ti);
      } else {
        rc = arcoll_red_copy(tmp, recvbuf, count, dt, &ti);
        have = 1;
      }
    } else if (commut) {
      rc = arcoll_red_local(tmp, partial, count, dt, op, &ti);
    } else { /* partial op tmp, result in tmp: swap */
      rc = arcoll_red_local(partial, tmp, count, dt, op, &ti);
      void *x = partial; partial = tmp; tmp = x;
    }
    if (rc != MPI_SUCCESS) goto done;
  }
done:
  arcoll_red_tmpbuf_free(&A);
  arcoll_red_tmpbuf_free(&T);
  return rc;
}

int arcoll_scan_recursive_doubling(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   const arcoll_sched_t *s) {
  return rd_scan(sendbuf, recvbuf, count, datatype, op, 0, s ? s->tag : 0, comm);
}

int arcoll_exscan_recursive_doubling(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     const arcoll_sched_t *s) {
  return rd_scan(sendbuf, recvbuf, count, datatype, op, 1, s ? s->tag : 0, comm);
}
