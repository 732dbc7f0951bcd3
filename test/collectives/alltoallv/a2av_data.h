/*
 * Test data of the alltoallv checks (algorithms_check.c here, direct calls;
 * test/adapt/alltoallv_check.c, through libarcoll): counts, layouts, inputs
 * and expected receive buffers, computed by each rank from (call id, source,
 * destination, index) alone - no MPI collective is the reference.  Types and
 * values: ../allgather/allgather_data.h (ag_val, ag_put, ...); the block
 * from src to dst carries scalars ag_val(id, src * 4096 + dst, k).
 *
 * Cases (send type, receive type): 0 MPI_INT / MPI_INT, 1 MPI_DOUBLE /
 * MPI_DOUBLE, 2 vector / vector, 3 vector / MPI_INT (receive count twice the
 * send count).  MPI_IN_PLACE uses the receive type on both sides.
 * Patterns of the elements (send type) rank src sends to dst, for a size n:
 *   0  irregular, symmetric: ((3 (src + dst) + 1) mod 4) n / 2 (zeros)
 *   1  only pairs with rank P-1: n, else 0 (symmetric)
 *   2  equal: n
 *   3  irregular, asymmetric: ((3 src + 5 dst + 1) mod 4) n / 2 (not in place:
 *      MPI_IN_PLACE needs what i sends j = what j sends i)
 * Layout: blocks in reverse rank order with a one-element gap after each,
 * in both buffers; every buffer starts filled with the sentinel AG_GAP.
 */
#ifndef ARCOLL_TEST_A2AV_DATA_H
#define ARCOLL_TEST_A2AV_DATA_H

#include "allgather_data.h"

#define A2AV_NCASES 4
#define A2AV_NPATTERNS 4

static void a2av_types(int c, int inplace, int *st, int *rt) {
  static const int s[A2AV_NCASES] = {AG_INT, AG_DBL, AG_VEC, AG_VEC};
  static const int r[A2AV_NCASES] = {AG_INT, AG_DBL, AG_VEC, AG_INT};
  *rt = r[c];
  *st = inplace ? r[c] : s[c];
}

/* scalars from src to dst (a multiple of 2, so every type holds them whole) */
static long a2av_scalars(int pat, long n, int src, int dst, int P) {
  long e = pat == 0   ? ((3L * (src + dst) + 1) % 4) * n / 2
           : pat == 1 ? (src == P - 1 || dst == P - 1 ? n : 0)
           : pat == 2 ? n
                      : ((3L * src + 5L * dst + 1) % 4) * n / 2;
  return 2 * e;
}

/* counts and displacements (elements of type t) of rank me's side: send
 * (send = 1: blocks to every dst) or receive (from every src); returns the
 * buffer's elements (blocks and gaps) */
static long a2av_layout(int pat, long n, int P, int me, int send, int t, long *cnt, long *dsp) {
  long at = 0;
  for (int q = P - 1; q >= 0; --q) {
    cnt[q] = (send ? a2av_scalars(pat, n, me, q, P) : a2av_scalars(pat, n, q, me, P)) /
             ag_scalars_per(t);
    dsp[q] = at;
    at += cnt[q] + 1;
  }
  return at;
}

/* the blocks of side `send` of rank me laid out in buf (type t) */
static void a2av_fill(int pat, long n, int P, int me, int send, int t, void *buf,
                      const long *dsp, int id) {
  for (int q = 0; q < P; ++q) {
    const int src = send ? me : q, dst = send ? q : me;
    ag_fill(t, (char *)buf + dsp[q] * ag_extent(t), a2av_scalars(pat, n, src, dst, P), id,
            src * 4096 + dst);
  }
}

#endif
