/* Recursive-halving reduce-scatter; see reduce_scatter_halving.h. */
#include "reduce_scatter_halving.h"

#include "tree.h"

MPI_Aint arcoll_rs_block(MPI_Aint count, int nblocks, int b) {
  MPI_Aint base = count / nblocks, extra = count % nblocks;
  return (MPI_Aint)b * base + (b < extra ? b : extra);
}

int arcoll_rs_steps(int P2) { return arcoll_ceil_log2(P2); }

int arcoll_rs_mask(int P2, int order, int i) {
  return order == ARCOLL_RS_NEAR_FIRST ? 1 << i : (P2 >> 1) >> i;
}

void arcoll_rs_range(int P2, int order, int newpos, int steps, int *lo, int *hi) {
  int l = 0, h = P2;
  for (int i = 0; i < steps; ++i) {
    int mid = l + (h - l) / 2;
    if (newpos & arcoll_rs_mask(P2, order, i)) l = mid;
    else h = mid;
  }
  *lo = l;
  *hi = h;
}

int arcoll_reduce_scatter_halving(void *acc, void *tmp, MPI_Aint count, MPI_Datatype dt,
                                  MPI_Op op, const arcoll_red_typeinfo_t *ti, int newpos,
                                  int P2, const int *nrank, int order, int tag, MPI_Comm comm,
                                  double *step_s) {
  int lo = 0, hi = P2, rc = MPI_SUCCESS;
  for (int i = 0, L = arcoll_rs_steps(P2); i < L; ++i) {
    int mask = arcoll_rs_mask(P2, order, i), mid = lo + (hi - lo) / 2;
    int klo, khi, slo, shi; /* kept and sent block ranges */
    if (newpos & mask) { klo = mid; khi = hi; slo = lo; shi = mid; }
    else { klo = lo; khi = mid; slo = mid; shi = hi; }
    MPI_Aint kd = arcoll_rs_block(count, P2, klo), kn = arcoll_rs_block(count, P2, khi) - kd;
    MPI_Aint sd = arcoll_rs_block(count, P2, slo), sn = arcoll_rs_block(count, P2, shi) - sd;
    int partner = nrank[newpos ^ mask];
    const double t0 = step_s ? PMPI_Wtime() : 0.0;
    rc = arcoll_red_sendrecv(ARCOLL_RED_ELEM(acc, sd, ti), sn, partner, ARCOLL_RED_ELEM(tmp, kd, ti),
                             kn, partner, dt, ti, tag, comm);
    if (rc != MPI_SUCCESS) return rc;
    if (step_s) step_s[i] = PMPI_Wtime() - t0;
    rc = arcoll_red_local(ARCOLL_RED_ELEM(tmp, kd, ti), ARCOLL_RED_ELEM(acc, kd, ti), kn, dt, op, ti);
    if (rc != MPI_SUCCESS) return rc;
    lo = klo;
    hi = khi;
  }
  return rc;
}
