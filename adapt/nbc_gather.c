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

/* This rank's place in the binomial tree of root: its position, the bytes
 * of one block (count x type: the side this rank's block is described by),
 * its subtree size and children.  Returns 0 when blocks are empty (nothing
 * to schedule). */
typedef struct {
  int pos, sz, nc, c[32];
  MPI_Aint blk;
} tree_place_t;

static int tree_place(tree_place_t *t, int me, int root, int P, MPI_Aint count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  t->blk = count * size;
  if (t->blk == 0) return 0;
  t->pos = (me - root + P) % P;
  t->sz = arcoll_binomial_subtree_size(t->pos, P);
  t->nc = children(t->pos, P, t->c);
  return 1;
}

void nbc_build_gather(nbc_sched_t *s, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                      void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int root, int P) {
  const int me = s->me;
  tree_place_t t;
  if (!tree_place(&t, me, root, P, me == root ? rcount : scount, me == root ? rtype : stype))
    return;
  const int pos = t.pos;
  const MPI_Aint blk = t.blk;
  char *tmp = (t.sz == 1 && me != root) ? nbc_contig(sbuf, scount, stype) : NULL;
  if (!tmp) {
    if (!(tmp = nbc_alloc(s, (MPI_Aint)t.sz * blk))) return;
    if (!(me == root && sbuf == MPI_IN_PLACE)) nbc_pack(s, sbuf, scount, stype, tmp);
  }
  for (int i = 0; i < t.nc; ++i)
    nbc_recv(s, tmp + (MPI_Aint)(t.c[i] - pos) * blk,
             (MPI_Aint)arcoll_binomial_subtree_size(t.c[i], P) * blk, MPI_BYTE,
             (t.c[i] + root) % P);
  if (me == root) {
    const MPI_Aint ext = nbc_extent(rtype) * rcount;
    for (int p = sbuf == MPI_IN_PLACE ? 1 : 0; p < P; ++p)
      nbc_unpack(s, tmp + (MPI_Aint)p * blk, (char *)rbuf + (MPI_Aint)((p + root) % P) * ext,
                 rcount, rtype);
  }
  nbc_round(s);
  if (me != root) {
    nbc_send(s, tmp, (MPI_Aint)t.sz * blk, MPI_BYTE, ((pos & (pos - 1)) + root) % P);
    nbc_round(s);
  }
}

void nbc_build_scatter(nbc_sched_t *s, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                       void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int root, int P) {
  const int me = s->me;
  tree_place_t t;
  if (!tree_place(&t, me, root, P, me == root ? scount : rcount, me == root ? stype : rtype))
    return;
  const int pos = t.pos;
  const MPI_Aint blk = t.blk;
  char *tmp = (t.sz == 1 && me != root) ? nbc_contig(rbuf, rcount, rtype) : NULL;
  const int direct = tmp != NULL;
  if (!tmp && !(tmp = nbc_alloc(s, (MPI_Aint)t.sz * blk))) return;
  if (me == root) {
    const MPI_Aint ext = nbc_extent(stype) * scount;
    for (int p = rbuf == MPI_IN_PLACE ? 1 : 0; p < P; ++p)
      nbc_pack(s, (const char *)sbuf + (MPI_Aint)((p + root) % P) * ext, scount, stype,
               tmp + (MPI_Aint)p * blk);
  } else {
    nbc_recv(s, tmp, (MPI_Aint)t.sz * blk, MPI_BYTE, ((pos & (pos - 1)) + root) % P);
  }
  nbc_round(s);
  for (int i = 0; i < t.nc; ++i)
    nbc_send(s, tmp + (MPI_Aint)(t.c[i] - pos) * blk,
             (MPI_Aint)arcoll_binomial_subtree_size(t.c[i], P) * blk, MPI_BYTE,
             (t.c[i] + root) % P);
  if (!direct && !(me == root && rbuf == MPI_IN_PLACE)) nbc_unpack(s, tmp, rbuf, rcount, rtype);
  nbc_round(s);
}
