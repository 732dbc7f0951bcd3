/*
 * Test data of the allgatherv checks (algorithms_check.c here, direct calls
 * of the algorithms; test/adapt/allgatherv_check.c, through libarcoll): the
 * datatype cases, the block sizes and positions, the input of every rank and
 * the expected receive buffer, computed by each rank from (call id, rank,
 * index) alone - no MPI collective is used as the reference.  Types and
 * values: test/collectives/allgather/allgather_data.h (ag_val, ag_put, ...).
 *
 * Cases (send type, receive type; rank r sends sn(r) elements):
 *   0  MPI_INT    / MPI_INT     recvcounts[r] = sn(r)
 *   1  MPI_DOUBLE / MPI_DOUBLE  recvcounts[r] = sn(r)
 *   2  vector     / vector      recvcounts[r] = sn(r)
 *   3  vector     / MPI_INT     recvcounts[r] = 2 sn(r) (different types)
 * Patterns of sn(r) for a size n:
 *   0  irregular: ((7 r + 3) mod 5) n / 4 (zero for r = 1, 6, 11, ...)
 *   1  one rank only: n for rank P-1, 0 elsewhere
 *   2  equal: n for every rank
 * Positions: blocks in recvbuf in reverse rank order with a one-element gap
 * after each (displs[P-1] = 0), so gaps and the order of blocks are
 * checked; every buffer starts filled with the sentinel AG_GAP.
 */
#ifndef ARCOLL_TEST_ALLGATHERV_DATA_H
#define ARCOLL_TEST_ALLGATHERV_DATA_H

#include "allgather_data.h"

#define AGV_NCASES 4
#define AGV_NPATTERNS 3

static void agv_types(int c, int *st, int *rt) {
  static const int s[AGV_NCASES] = {AG_INT, AG_DBL, AG_VEC, AG_VEC};
  static const int r[AGV_NCASES] = {AG_INT, AG_DBL, AG_VEC, AG_INT};
  *st = s[c];
  *rt = r[c];
}

/* elements of the send type rank r sends */
static long agv_sn(int pattern, long n, int r, int P) {
  if (pattern == 0) return ((7L * r + 3) % 5) * n / 4;
  if (pattern == 1) return r == P - 1 ? n : 0;
  return n;
}

/* recvcounts[] and displs[] (elements of the receive type) of case c;
 * returns the elements of the whole receive buffer (blocks and gaps) */
static long agv_layout(int c, int pattern, long n, int P, long *counts, long *displs) {
  long at = 0;
  for (int r = P - 1; r >= 0; --r) {
    counts[r] = agv_sn(pattern, n, r, P) * (c == 3 ? 2 : 1);
    displs[r] = at;
    at += counts[r] + 1;
  }
  return at;
}

#endif
