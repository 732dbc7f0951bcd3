/*
 * Schedules of MPI_Igather and MPI_Iscatter (nbc.h): binomial tree over the
 * positions of the order (root, root+1, ...), as the blocking binomial
 * gather / scatter (Thakur et al. 2005): position p holds the blocks of its
 * subtree [p, p + size(p)) as packed bytes, one block = scount x stype.
 * Gather: receive every child's subtree at once, pack the own block, send
 * the subtree to the parent; the root unpacks the blocks into recvbuf.
 * Scatter: the reverse.  Time: sum over levels k of T(2^k m).
 */
#include "nbc.h"
#include "tree.h"

/* Children positions of position p: p + 2^k for 2^k below p's lowest set
 * bit (every 2^k < P for the root), largest subtree first (tree.h). */
static int children(int p, int P, int *c) {
  int n = 0, top = 1;
  while (top < P) top <<= 1;
  const int low = p ? (p & -p) : top;
  for (int mask = low >> 1; mask >= 1; mask >>= 1)
    if (p + mask < P) c[n++] = p + mask;
  return n;
}

void nbc_build_gather(nbc_sched_t *s, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                      void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int root, int P) {
  const int me = s->me, pos = (me - root + P) % P;
  int size = 0;
  MPI_Aint blk;
  if (me == root) PMPI_Type_size(rtype, &size), blk = rcount * size;
  else PMPI_Type_size(stype, &size), blk = scount * size;
  if (blk == 0) return;
  const int sz = arcoll_binomial_subtree_size(pos, P);
  int c[32];
  const int nc = children(pos, P, c);
  char *tmp = (sz == 1 && me != root) ? nbc_contig(sbuf, scount, stype) : NULL;
  if (!tmp) {
    if (!(tmp = nbc_alloc(s, (MPI_Aint)sz * blk))) return;
    if (!(me == root && sbuf == MPI_IN_PLACE)) nbc_pack(s, sbuf, scount, stype, tmp);
  }
  for (int i = 0; i < nc; ++i)
    nbc_recv(s, tmp + (MPI_Aint)(c[i] - pos) * blk,
             (MPI_Aint)arcoll_binomial_subtree_size(c[i], P) * blk, MPI_BYTE,
             (c[i] + root) % P);
  if (me == root) {
    const MPI_Aint ext = nbc_extent(rtype) * rcount;
    for (int p = sbuf == MPI_IN_PLACE ? 1 : 0; p < P; ++p)
      nbc_unpack(s, tmp + (MPI_Aint)p * blk, (char *)rbuf + (MPI_Aint)((p + root) % P) * ext,
                 rcount, rtype);
  }
  nbc_round(s);
  if (me != root) {
    nbc_send(s, tmp, (MPI_Aint)sz * blk, MPI_BYTE, ((pos & (pos - 1)) + root) % P);
    nbc_round(s);
  }
}

void nbc_build_scatter(nbc_sched_t *s, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                       void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int root, int P) {
  const int me = s->me, pos = (me - root + P) % P;
  int size = 0;
  MPI_Aint blk;
  if (me == root) PMPI_Type_size(stype, &size), blk = scount * size;
  else PMPI_Type_size(rtype, &size), blk = rcount * size;
  if (blk == 0) return;
  const int sz = arcoll_binomial_subtree_size(pos, P);
  int c[32];
  const int nc = children(pos, P, c);
  char *tmp = (sz == 1 && me != root) ? nbc_contig(rbuf, rcount, rtype) : NULL;
  const int direct = tmp != NULL;
  if (!tmp && !(tmp = nbc_alloc(s, (MPI_Aint)sz * blk))) return;
  if (me == root) {
    const MPI_Aint ext = nbc_extent(stype) * scount;
    for (int p = rbuf == MPI_IN_PLACE ? 1 : 0; p < P; ++p)
      nbc_pack(s, (const char *)sbuf + (MPI_Aint)((p + root) % P) * ext, scount, stype,
               tmp + (MPI_Aint)p * blk);
  } else {
    nbc_recv(s, tmp, (MPI_Aint)sz * blk, MPI_BYTE, ((pos & (pos - 1)) + root) % P);
  }
  nbc_round(s);
  for (int i = 0; i < nc; ++i)
    nbc_send(s, tmp + (MPI_Aint)(c[i] - pos) * blk,
             (MPI_Aint)arcoll_binomial_subtree_size(c[i], P) * blk, MPI_BYTE,
             (c[i] + root) % P);
  if (!direct && !(me == root && rbuf == MPI_IN_PLACE)) nbc_unpack(s, tmp, rbuf, rcount, rtype);
  nbc_round(s);
}
