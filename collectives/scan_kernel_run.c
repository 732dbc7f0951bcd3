/* Scan/Exscan driver around an inclusive kernel (Brent–Kung, sqrt(P)): copy
 * in, run, and for Exscan shift the inclusive result one rank up.  See scan_impl.h. */
#include "scan_impl.h"

int arcoll_scan_run_kernel(arcoll_scan_kernel kernel, const void *sendbuf, void *recvbuf,
                           MPI_Aint count, MPI_Datatype dt, MPI_Op op, int k, int exclusive,
                           int tag, MPI_Comm comm) {
  int rc, done;
  arcoll_red_call_t c;
  if ((rc = arcoll_red_call_init(count, dt, comm, tag, &c, &done)) != MPI_SUCCESS || done) return rc;
  const int P = c.P, me = c.me;
  const arcoll_red_typeinfo_t ti = c.ti;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  arcoll_red_tmpbuf_t I = {0}, T = {0};
  void *incl = recvbuf;
  if (exclusive) {
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &I)) != MPI_SUCCESS) goto done;
    incl = I.buf;
  }
  if ((rc = arcoll_red_copy(in, incl, count, dt, &ti)) != MPI_SUCCESS) goto done;
  if (P == 1) goto done;
  if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &T)) != MPI_SUCCESS) goto done;
  if ((rc = kernel(incl, T.buf, count, dt, op, &ti, k, tag, comm)) != MPI_SUCCESS) goto done;
  if (exclusive) /* shift: me -> me+1 */
    rc = arcoll_red_sendrecv(incl, me + 1 < P ? count : 0, me + 1 < P ? me + 1 : MPI_PROC_NULL,
                             recvbuf, me > 0 ? count : 0, me > 0 ? me - 1 : MPI_PROC_NULL, dt,
                             &ti, tag, comm);
done:
  arcoll_red_tmpbuf_free(&I);
  arcoll_red_tmpbuf_free(&T);
  return rc;
}
