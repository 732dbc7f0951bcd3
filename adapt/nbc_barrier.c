/*
 * Schedule of MPI_Ibarrier (nbc.h): dissemination (Hensgen, Finkel, Manber
 * 1988), ceil(log2 P) rounds; round k sends a zero-byte message to
 * me + 2^k and receives one from me - 2^k (mod P).  Time: ceil(log2 P) T(0).
 */
#include "nbc.h"

void nbc_build_barrier(nbc_sched_t *s, int P) {
  for (int d = 1; d < P; d <<= 1) {
    nbc_send(s, NULL, 0, MPI_BYTE, (s->me + d) % P);
    nbc_recv(s, NULL, 0, MPI_BYTE, (s->me - d + P) % P);
    nbc_round(s);
  }
}
