/*
 * Two-level direct schedules of MPI_Ibcast / MPI_Iallreduce (and their
 * persistent forms) for more ranks than one direct round can carry (nbc.h).
 * The ranks form an a x b grid (b = P / a, a the largest divisor of P with
 * a <= sqrt(P)); each phase of the direct schedules (nbc_direct.c) runs in
 * two steps, along the rows and along the columns, so a schedule has 4
 * dependent rounds of at most max(a, b) - 1 messages per rank, where the
 * one-level direct schedule has 2 rounds of P - 1 messages (SimGrid 3.32
 * did not finish P = 256 in 20 minutes: 65280 concurrent flows per round)
 * and Rabenseifner / scatter + allgather 2 log2 P rounds (16 at P = 256;
 * each posted only at an MPI call after the previous one completed:
 * adapt/NONBLOCKING.md, "Overlap").  Bytes sent per rank are those of the
 * one-level schedules: 2 (P-1)/P M (allreduce, as Rabenseifner 2004).
 *
 *  - allreduce (any op, count >= P), rank r = (row, col) = (r / b, r % b):
 *    round 1, along the row: the vector cut into b blocks, block c owned
 *    by column c; every rank sends block c to (row, c) and combines its own
 *    block's b contributions in rank order; round 2, down the column: that
 *    block cut into a sub-blocks, sub-block i owned by row i; the a partial
 *    results of its sub-block combined in row order - x_0 op ... op
 *    x_(P-1) in rank order overall, since rows hold consecutive ranks
 *    (MPI-4 section 6.9.1: correct for non-commutative ops); round 3:
 *    direct allgather of the sub-blocks up the column; round 4: of the
 *    blocks along the row.
 *  - bcast, positions p = (rank - root) mod P on the grid (the root at
 *    (0, 0)): round 1, the root sends block c (of b) to (0, c); round 2,
 *    (0, c) sends sub-block i of its block to (i, c); rounds 3 and 4:
 *    allgather up the columns (row 0 receives sub-blocks it has: a - 1
 *    messages of M / P), then along the rows.
 */
#include "nbc.h"

#define first nbc_block_first

int nbc_grid_rows(MPI_Aint bytes, int nblk, int P) {
  if (nblk <= ARCOLL_NBC_DIRECT_MAX_P) return 0;
  int a = 0;
  for (int d = 2; (long long)d * d <= P; ++d)
    if (P % d == 0) a = d;
  if (a == 0 || P / a > ARCOLL_NBC_DIRECT_MAX_P || bytes / (P / a) < ARCOLL_NBC_DIRECT_BLOCK)
    return 0;
  return a;
}

/* Grid position of (row, col): row-major, b per row. */
#define POS(row, col) ((row) * b + (col))

void nbc_build_bcast_grid(nbc_sched_t *s, char *data, MPI_Aint bytes, int root, int P, int a) {
  const int b = P / a, pos = (s->me - root + P) % P, row = pos / b, col = pos % b;
#define RANK(p) (((p) + root) % P)
  const MPI_Aint lo = first(col, bytes, b), len = first(col + 1, bytes, b) - lo;
  if (row == 0) { /* round 1: along row 0 */
    if (col == 0) {
      for (int c = 1; c < b; ++c) {
        const MPI_Aint l = first(c, bytes, b), n = first(c + 1, bytes, b) - l;
        if (n) nbc_send(s, data + l, n, MPI_BYTE, RANK(POS(0, c)));
      }
    } else if (len) {
      nbc_recv(s, data + lo, len, MPI_BYTE, root);
    }
    nbc_round(s);
    for (int i = 1; i < a; ++i) { /* round 2: down the column */
      const MPI_Aint l = first(i, len, a), n = first(i + 1, len, a) - l;
      if (n) nbc_send(s, data + lo + l, n, MPI_BYTE, RANK(POS(i, col)));
    }
  } else {
    const MPI_Aint l = first(row, len, a), n = first(row + 1, len, a) - l;
    if (n) nbc_recv(s, data + lo + l, n, MPI_BYTE, RANK(POS(0, col)));
  }
  nbc_round(s);
  /* rounds 3 and 4; owners as positions mapped to ranks: RANK(j b + col)
   * = (root + col + j b) mod P, RANK(row b + j) = (root + row b + j) mod P */
  nbc_direct_allgather(s, data + lo, len, MPI_BYTE, a, row, (root + col) % P, b, P);
  nbc_direct_allgather(s, data, bytes, MPI_BYTE, b, col, (root + row * b) % P, 1, P);
#undef RANK
}

void nbc_build_allreduce_grid(nbc_sched_t *s, const void *in, void *rbuf, MPI_Aint count,
                              MPI_Datatype dt, MPI_Op op, int P, int a) {
  const int b = P / a, row = s->me / b, col = s->me % b;
  const MPI_Aint ext = nbc_extent(dt);
  /* my block of the row step and my sub-block of it (elements) */
  const MPI_Aint lo = first(col, count, b), len = first(col + 1, count, b) - lo;
  const MPI_Aint sl = first(row, len, a), slen = first(row + 1, len, a) - sl;
  char *blk = (char *)rbuf + lo * ext, *sub = blk + sl * ext;
  const char *own = nbc_direct_own(s, in, rbuf, (const char *)in + lo * ext, len, dt);
  char *mine2 = nbc_alloc_elems(s, slen, dt); /* my row's partial of my sub-block */
  if (!own || !mine2) return;
  /* round 1, along the row: my block combined over the row's ranks */
  nbc_direct_reduce_scatter(s, in, count, dt, op, b, col, row * b, 1, P, own, blk);
  if (slen) nbc_copy(s, sub, mine2, slen, dt); /* kept: round 2 builds the result there */
  nbc_round(s);
  /* round 2, down the column: my sub-block combined over the rows, in order */
  nbc_direct_reduce_scatter(s, blk, len, dt, op, a, row, col, b, P, mine2, sub);
  nbc_round(s);
  nbc_direct_allgather(s, blk, len, dt, a, row, col, b, P);         /* round 3: up the column */
  nbc_direct_allgather(s, (char *)rbuf, count, dt, b, col, row * b, 1, P); /* round 4: the row */
}
