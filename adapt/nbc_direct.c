/*
 * Direct schedules of MPI_Ibcast / MPI_Iallreduce (and their persistent
 * forms) for large messages (nbc.h): every phase is ONE round in which each
 * rank posts all its messages at once, so a schedule has two dependent
 * rounds instead of 2 log2 P.  A nonblocking collective advances only when
 * the program calls MPI (a round is posted at the first MPI_Test / MPI_Wait
 * after the previous one completed); with two rounds the first runs during
 * the computation that follows the start, the second from the first
 * MPI_Test after it, and the whole collective hides behind a computation of
 * about its own blocking time (adapt/NONBLOCKING.md, "Overlap").
 *
 *  - bcast: the message is cut into P - 1 blocks owned by the non-root
 *    positions (rank - root) mod P = 1 .. P-1; round 1: the root sends block
 *    j to its owner (linear scatter: the root sends M bytes, as the binomial
 *    scatter does); round 2: every non-root sends its block to the other
 *    P - 2 non-roots (direct allgather: each sends and receives ~M bytes).
 *    Cost (LogGP, Alexandrov et al. 1995, with all messages of a round
 *    concurrent): 2 (L + 2 o) + 2 (M - M/(P-1)) G + (P - 1) g per round at
 *    the root / a non-root.
 *  - allreduce (any op, any P >= 3): the vector is cut into P blocks, block
 *    j owned by rank j; round 1 (direct reduce-scatter): every rank sends
 *    block j of its input to rank j and receives its own block from every
 *    rank, then combines the P contributions in rank order (x_0 op x_1 op
 *    ... op x_(P-1), MPI-4 section 6.9.1: correct for non-commutative ops);
 *    round 2: direct allgather of the reduced blocks.  Bytes sent per rank
 *    2 (P-1)/P M and reduction work (P-1)/P M gamma, as Rabenseifner's
 *    algorithm (Rabenseifner 2004), in 2 rounds instead of 2 log2 P.
 *
 * Used from ARCOLL_NBC_DIRECT_BLOCK bytes per block (below it the many
 * small messages of a round cost more than the rounds saved) and up to
 * ARCOLL_NBC_DIRECT_MAX_P blocks: a round has P (P - 1) messages in flight
 * at once (incast at every receiver; SimGrid 3.32 did not finish one run of
 * the P = 256, 1 MiB overlap benchmark in 20 minutes of simulation, 65280
 * concurrent flows per round).
 */
#include "nbc.h"

MPI_Aint nbc_block_first(int j, MPI_Aint count, int nblk) {
  return (MPI_Aint)j * (count / nblk) + (j < count % nblk ? j : count % nblk);
}
#define first nbc_block_first

int nbc_direct_fits(MPI_Aint bytes, int nblk) {
  return nblk >= 2 && nblk <= ARCOLL_NBC_DIRECT_MAX_P && bytes / nblk >= ARCOLL_NBC_DIRECT_BLOCK;
}

void nbc_direct_allgather(nbc_sched_t *s, char *base, MPI_Aint count, MPI_Datatype dt, int nblk,
                          int mine, int off, int stride, int P) {
  const MPI_Aint ext = nbc_extent(dt);
  const MPI_Aint mlo = first(mine, count, nblk), mlen = first(mine + 1, count, nblk) - mlo;
  for (int k = 1; k < nblk; ++k) {
    const int j = (mine + k) % nblk, peer = (off + j * stride) % P;
    const MPI_Aint lo = first(j, count, nblk), len = first(j + 1, count, nblk) - lo;
    if (mlen) nbc_send(s, base + mlo * ext, mlen, dt, peer);
    if (len) nbc_recv(s, base + lo * ext, len, dt, peer);
  }
  nbc_round(s);
}

void nbc_build_bcast_direct(nbc_sched_t *s, char *data, MPI_Aint bytes, int root, int P) {
  const int pos = (s->me - root + P) % P, nblk = P - 1;
  const int off = (root + 1) % P; /* owner of block j: rank (root + 1 + j) mod P */
  if (pos == 0) {
    for (int j = 0; j < nblk; ++j) {
      const MPI_Aint lo = first(j, bytes, nblk), len = first(j + 1, bytes, nblk) - lo;
      if (len) nbc_send(s, data + lo, len, MPI_BYTE, (off + j) % P);
    }
    nbc_round(s);
    return;
  }
  const MPI_Aint lo = first(pos - 1, bytes, nblk), len = first(pos, bytes, nblk) - lo;
  if (len) nbc_recv(s, data + lo, len, MPI_BYTE, root);
  nbc_round(s);
  nbc_direct_allgather(s, data, bytes, MPI_BYTE, nblk, pos - 1, off, 1, P);
}

const char *nbc_direct_own(nbc_sched_t *s, const void *in, const void *rbuf, const char *own,
                           MPI_Aint len, MPI_Datatype dt) {
  if (in != rbuf) return own;
  char *keep = nbc_alloc_elems(s, len, dt);
  if (!keep) return NULL;
  nbc_copy(s, own, keep, len, dt);
  nbc_round(s); /* local only: runs at the start */
  return keep;
}

void nbc_direct_reduce_scatter(nbc_sched_t *s, const char *in, MPI_Aint count, MPI_Datatype dt,
                               MPI_Op op, int nblk, int mine, int off, int stride, int P,
                               const char *own, char *dst) {
  const MPI_Aint ext = nbc_extent(dt);
  const MPI_Aint mlen = first(mine + 1, count, nblk) - first(mine, count, nblk);
  /* the others' contributions to my block, one block of mlen elements each */
  char *tmp = nbc_alloc_elems(s, mlen * (nblk - 1), dt);
  if (!tmp) return;
#define FROM(j) (tmp + (MPI_Aint)((j) < mine ? (j) : (j) - 1) * mlen * ext)
  for (int k = 1; k < nblk; ++k) {
    const int j = (mine + k) % nblk, peer = (off + j * stride) % P;
    const MPI_Aint lo = first(j, count, nblk), len = first(j + 1, count, nblk) - lo;
    if (len) nbc_send(s, in + lo * ext, len, dt, peer);
    if (mlen) nbc_recv(s, FROM(j), mlen, dt, peer);
  }
  if (mlen) { /* dst = x_0 op (x_1 op (... op x_(nblk-1))), built from the right */
    nbc_copy(s, mine == nblk - 1 ? own : FROM(nblk - 1), dst, mlen, dt);
    for (int j = nblk - 2; j >= 0; --j) nbc_reduce(s, j == mine ? own : FROM(j), dst, mlen, dt, op);
  }
#undef FROM
}

void nbc_build_allreduce_direct(nbc_sched_t *s, const void *in, void *rbuf, MPI_Aint count,
                                MPI_Datatype dt, MPI_Op op, int P) {
  const int me = s->me;
  const MPI_Aint ext = nbc_extent(dt);
  const MPI_Aint mlo = first(me, count, P), mlen = first(me + 1, count, P) - mlo;
  char *mine = (char *)rbuf + mlo * ext;
  const char *own = nbc_direct_own(s, in, rbuf, (const char *)in + mlo * ext, mlen, dt);
  if (!own) return;
  nbc_direct_reduce_scatter(s, in, count, dt, op, P, me, 0, 1, P, own, mine);
  nbc_round(s);
  nbc_direct_allgather(s, rbuf, count, dt, P, me, 0, 1, P);
}
