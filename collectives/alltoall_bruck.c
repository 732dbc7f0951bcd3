/*
 * Shuffle-exchange / Bruck alltoall (seed 003_e288917cd7e80de5.txt
 * "shuffle-exchange: log N steps but packing overhead"; Bruck, Ho, Kipnis,
 * Upfal, Weathersby 1997, radix 2); see alltoall.h.
 *
 * Positions: tmp block j (bb packed bytes) first holds my data for position
 * pos + j; in step k (k = 1, 2, 4, ...) the blocks j with (j & k) != 0 go to
 * position pos + k and are replaced by those from pos - k; at the end block j
 * holds the data from position pos - j for me.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alltoall.h"
#include "alltoall_prep.h"
#include "bcast_etc_util.h"

int arcoll_alltoall_bruck(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_a2a_t a;
  int rc = arcoll_a2a_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              s, &a);
  if (rc == ARCOLL_A2A_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  const int P = a.P, tag = arcoll_sched_tag(s), pos = a.pos;
  const MPI_Aint bb = a.bb;
  if (bb * P > INT_MAX) {
    arcoll_a2a_done(&a);
    return arcoll_alltoall_pairwise(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    comm, s);
  }
  const int total = (int)(bb * P);
  char *tmp = malloc((size_t)total + 1);
  char *sb = malloc((size_t)((P + 1) / 2) * (size_t)bb + 1);
  char *rb = malloc((size_t)((P + 1) / 2) * (size_t)bb + 1);
  if (!tmp || !sb || !rb) {
    rc = MPI_ERR_NO_MEM;
    goto out;
  }
  for (int j = 0; j < P && rc == MPI_SUCCESS; ++j) { /* local rotation */
    const int dst = a.order[(pos + j) % P];
    int p = (int)(j * bb);
    rc = MPI_Pack((const char *)a.sbuf + dst * a.sext * a.scount, a.scount, a.stype, tmp, total,
                  &p, comm);
  }
  for (int k = 1; k < P && rc == MPI_SUCCESS; k <<= 1) {
    int n = 0;
    for (int j = k; j < P; ++j)
      if (j & k) memcpy(sb + (MPI_Aint)(n++) * bb, tmp + j * bb, (size_t)bb);
    rc = MPI_Sendrecv(sb, (int)(n * bb), MPI_PACKED, a.order[(pos + k) % P], tag, rb,
                      (int)(n * bb), MPI_PACKED, a.order[(pos - k + P) % P], tag, comm,
                      MPI_STATUS_IGNORE);
    n = 0;
    for (int j = k; j < P && rc == MPI_SUCCESS; ++j)
      if (j & k) memcpy(tmp + j * bb, rb + (MPI_Aint)(n++) * bb, (size_t)bb);
  }
  for (int j = 0; j < P && rc == MPI_SUCCESS; ++j) { /* inverse rotation */
    const int src = a.order[(pos - j + P) % P];
    int p = (int)(j * bb);
    rc = MPI_Unpack(tmp, total, &p, (char *)recvbuf + src * a.rext * a.rcount, a.rcount, a.rtype,
                    comm);
  }
out:
  free(tmp);
  free(sb);
  free(rb);
  arcoll_a2a_done(&a);
  return rc;
}
