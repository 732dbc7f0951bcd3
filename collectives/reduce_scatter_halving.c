/* Recursive-halving reduce-scatter; see reduce_scatter_halving.h. */
#include "reduce_scatter_halving.h"

MPI_Aint arcoll_rs_block(MPI_Aint count, int nblocks, int b) {
  MPI_Aint base = count / nblocks, extra = count % nblocks;
  return (MPI_Aint)b * base + (b < extra ? b : extra);
}

int arcoll_reduce_scatter_halving(void *acc, void *tmp, MPI_Aint count, MPI_Datatype dt,
                                  MPI_Op op, const arcoll_red_typeinfo_t *ti, int newpos,
                                  int P2, const int *nrank, int tag, MPI_Comm comm) {
  int lo = 0, hi = P2, rc = MPI_SUCCESS;
  for (int mask = P2 / 2; mask > 0; mask >>= 1) {
    int mid = lo + (hi - lo) / 2;
    int klo, khi, slo, shi; /* kept and sent block ranges */
    if (newpos & mask) { klo = mid; khi = hi; slo = lo; shi = mid; }
    else { klo = lo; khi = mid; slo = mid; shi = hi; }
    MPI_Aint kd = arcoll_rs_block(count, P2, klo), kn = arcoll_rs_block(count, P2, khi) - kd;
    MPI_Aint sd = arcoll_rs_block(count, P2, slo), sn = arcoll_rs_block(count, P2, shi) - sd;
    int partner = nrank[newpos ^ mask];
    rc = arcoll_red_sendrecv(ARCOLL_RED_ELEM(acc, sd, ti), sn, partner, ARCOLL_RED_ELEM(tmp, kd, ti),
                             kn, partner, dt, ti, tag, comm);
    if (rc != MPI_SUCCESS) return rc;
    rc = arcoll_red_local(ARCOLL_RED_ELEM(tmp, kd, ti), ARCOLL_RED_ELEM(acc, kd, ti), kn, dt, op, ti);
    if (rc != MPI_SUCCESS) return rc;
    lo = klo;
    hi = khi;
  }
  return rc;
}
