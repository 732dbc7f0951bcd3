/* sqrt(P) ("RootP") scan/exscan (seed 000_32450fa7292fe18a.txt:
 * 2 (sqrt(2P) - 3) steps of T_send(M) + T_comp(M)).  See scan.h.
 *
 * Groups of g consecutive ranks (g = k > 0 ? k : round(sqrt(P/2))):
 *  1. chain scan inside each group (g - 1 steps);
 *  2. chain over the groups' last ranks: the last rank of group j receives
 *     the full prefix of group j-1's last rank (G - 1 steps, G = ceil(P/g));
 *  3. fix-up: that prefix also goes to group j's first rank and travels along
 *     the group (g - 1 steps), each rank combining it with its local scan.
 * About 2g + P/g steps, minimal (2 sqrt(2P)) at g = sqrt(P/2). */
#include "reduce_util.h"
#include "scan.h"
#include "scan_impl.h"

static int sqrtp_kernel(void *incl, void *tmp, MPI_Aint count, MPI_Datatype dt, MPI_Op op,
                        const arcoll_red_typeinfo_t *ti, int k, int tag, MPI_Comm comm) {
  int rc, P, me;
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Comm_rank(comm, &me)) != MPI_SUCCESS) return rc;
  int g = k;
  if (g <= 0) /* round(sqrt(P/2)): largest g with (2g - 1)^2 <= 2P */
    for (g = 1; (long)(2 * g + 1) * (2 * g + 1) <= 2L * P; ++g) {}
  if (g < 1) g = 1;
  if (g > P) g = P;
  const int j = me / g, first = j * g, last = first + g - 1 < P - 1 ? first + g - 1 : P - 1;
  /* 1. local chain scan */
  if (me > first) {
    if ((rc = arcoll_red_recv(tmp, count, me - 1, dt, ti, tag, comm)) != MPI_SUCCESS) return rc;
    if ((rc = arcoll_red_local(tmp, incl, count, dt, op, ti)) != MPI_SUCCESS) return rc;
  }
  if (me < last && (rc = arcoll_red_send(incl, count, me + 1, dt, ti, tag, comm)) != MPI_SUCCESS)
    return rc;
  if (me == last) {
    /* 2. leader chain: prefix of groups < j, then pass the full prefix on */
    if (j > 0) {
      if ((rc = arcoll_red_recv(tmp, count, first - 1, dt, ti, tag, comm)) != MPI_SUCCESS) return rc;
      if ((rc = arcoll_red_local(tmp, incl, count, dt, op, ti)) != MPI_SUCCESS) return rc;
    }
    const int next_last = last + g < P - 1 ? last + g : P - 1;
    if (last + 1 < P) { /* next group's last rank first (critical path), then its first rank */
      if ((rc = arcoll_red_send(incl, count, next_last, dt, ti, tag, comm)) != MPI_SUCCESS) return rc;
      if (last + 1 != next_last &&
          (rc = arcoll_red_send(incl, count, last + 1, dt, ti, tag, comm)) != MPI_SUCCESS)
        return rc;
    }
  } else if (j > 0) {
    /* 3. fix-up: receive the prefix of groups < j, combine, pass it along */
    if ((rc = arcoll_red_recv(tmp, count, me - 1, dt, ti, tag, comm)) != MPI_SUCCESS) return rc;
    if ((rc = arcoll_red_local(tmp, incl, count, dt, op, ti)) != MPI_SUCCESS) return rc;
    if (me + 1 < last && (rc = arcoll_red_send(tmp, count, me + 1, dt, ti, tag, comm)) != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

int arcoll_scan_sqrtp(const void *sendbuf, void *recvbuf, MPI_Aint count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      const arcoll_sched_t *s) {
  return arcoll_scan_run_kernel(sqrtp_kernel, sendbuf, recvbuf, count, datatype, op,
                                s ? s->k : 0, 0, s ? s->tag : 0, comm);
}

int arcoll_exscan_sqrtp(const void *sendbuf, void *recvbuf, MPI_Aint count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                        const arcoll_sched_t *s) {
  return arcoll_scan_run_kernel(sqrtp_kernel, sendbuf, recvbuf, count, datatype, op,
                                s ? s->k : 0, 1, s ? s->tag : 0, comm);
}
