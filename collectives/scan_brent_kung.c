/* Brent–Kung scan/exscan: up-sweep then down-sweep, 2 log2 P - 1 steps
 * (seed 000_32450fa7292fe18a.txt: T = (2 log P - 1)(T_send(M) + T_comp(M))).
 * See scan.h. */
#include "reduce_util.h"
#include "scan.h"
#include "scan_impl.h"

static int bk_kernel(void *incl, void *tmp, MPI_Aint count, MPI_Datatype dt, MPI_Op op,
                     const arcoll_red_typeinfo_t *ti, int k, int tag, MPI_Comm comm) {
  (void)k;
  int rc, P, me;
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Comm_rank(comm, &me)) != MPI_SUCCESS) return rc;
  const int r = me + 1; /* 1-based index: rank me holds x_{r - len + 1 .. r} */
  /* Up-sweep: at distance d, rank with r % 2d == 0 absorbs rank me - d
   * (which holds the d values just below its own d values). */
  for (int d = 1; d < P; d <<= 1) {
    if (r % (2 * d) == 0) {
      if ((rc = arcoll_red_recv(tmp, count, me - d, dt, ti, tag, comm)) != MPI_SUCCESS) return rc;
      if ((rc = arcoll_red_local(tmp, incl, count, dt, op, ti)) != MPI_SUCCESS) return rc;
    } else if (r % (2 * d) == d && me + d < P) {
      if ((rc = arcoll_red_send(incl, count, me + d, dt, ti, tag, comm)) != MPI_SUCCESS) return rc;
      break; /* my value is final for the up-sweep */
    } else if (r % (2 * d) != 0) {
      break;
    }
  }
  /* Down-sweep: a complete prefix at r (r % 2d == 0) completes r + d. */
  for (int d = arcoll_floor_pow2(P); d >= 1; d >>= 1) {
    if (r % (2 * d) == 0 && me + d < P) {
      if ((rc = arcoll_red_send(incl, count, me + d, dt, ti, tag, comm)) != MPI_SUCCESS) return rc;
    } else if (r % (2 * d) == d && r > 2 * d) {
      if ((rc = arcoll_red_recv(tmp, count, me - d, dt, ti, tag, comm)) != MPI_SUCCESS) return rc;
      if ((rc = arcoll_red_local(tmp, incl, count, dt, op, ti)) != MPI_SUCCESS) return rc;
    }
  }
  return MPI_SUCCESS;
}

int arcoll_scan_brent_kung(const void *sendbuf, void *recvbuf, MPI_Aint count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           const arcoll_sched_t *s) {
  return arcoll_scan_run_kernel(bk_kernel, sendbuf, recvbuf, count, datatype, op, 0, 0,
                                s ? s->tag : 0, comm);
}

int arcoll_exscan_brent_kung(const void *sendbuf, void *recvbuf, MPI_Aint count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             const arcoll_sched_t *s) {
  return arcoll_scan_run_kernel(bk_kernel, sendbuf, recvbuf, count, datatype, op, 0, 1,
                                s ? s->tag : 0, comm);
}
