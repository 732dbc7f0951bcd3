/*
 * Schedule of MPI_Ibcast / MPI_Bcast_init (nbc.h), bytes moved as MPI_BYTE
 * (contiguous data in place, anything else packed at the root and unpacked
 * at the others), over positions p = (rank - root) mod P.
 *  - binomial tree (collectives/tree.h): receive from the parent, then send
 *    to every child at once; ceil(log2 P) rounds; the root's link carries
 *    log2 P copies (seed 000: L (t_s + M/B), here ~ L(L+1)/2 M/B at the root
 *    with concurrent sends);
 *  - blocks of ARCOLL_NBC_DIRECT_BLOCK bytes or more among P - 1 ranks
 *    (P > 2): the direct schedule of nbc_direct.c (2 rounds); with more
 *    than ARCOLL_NBC_DIRECT_MAX_P blocks, when P has a divisor 2 <= a <=
 *    sqrt(P) and blocks of P / a give ARCOLL_NBC_DIRECT_BLOCK bytes, the
 *    two-level one of nbc_grid.c (4 rounds);
 *  - else from ARCOLL_NBC_BCAST_SCATTER_BYTES with P a power of two: binomial
 *    scatter of P blocks of ceil(M/P) bytes (one child per round), then
 *    recursive-doubling
 *    allgather in place (van de Geijn; Thakur et al. 2005: 2 log2 P t_s +
 *    2 (P-1)/P M/B), up to 3 log2 P rounds.
 */
#include <stdlib.h>
#include <string.h>

#include "nbc.h"
#include "tree.h"

/** Smallest broadcast (bytes) run as scatter + allgather (P = 2^k > 2). */
#define ARCOLL_NBC_BCAST_SCATTER_BYTES 65536

static void binomial(nbc_sched_t *s, char *data, MPI_Aint bytes, int root, int P) {
  int *order = malloc((size_t)P * sizeof *order);
  arcoll_tree_t tree = {0};
  if (!order) {
    s->err = MPI_ERR_NO_MEM;
    return;
  }
  for (int i = 0; i < P; ++i) order[i] = (root + i) % P;
  int rc = arcoll_tree_binomial(order, P, s->me, &tree);
  free(order);
  if (rc != MPI_SUCCESS) {
    s->err = rc;
    return;
  }
  if (tree.parent >= 0) {
    nbc_recv(s, data, bytes, MPI_BYTE, tree.parent);
    nbc_round(s);
  }
  for (int i = 0; i < tree.nchildren; ++i) nbc_send(s, data, bytes, MPI_BYTE, tree.children[i]);
  nbc_round(s);
  arcoll_tree_free(&tree);
}

/* data: P * blk bytes (the message padded), complete at the root */
static void scatter_allgather(nbc_sched_t *s, char *data, MPI_Aint blk, int root, int P) {
  const int pos = (s->me - root + P) % P;
#define RANK(p) (((p) + root) % P)
  /* scatter: position p receives blocks [p, p + lowbit(p)) from p - lowbit(p) */
  const int low = pos ? (pos & -pos) : P;
  if (pos) {
    nbc_recv(s, data + (MPI_Aint)pos * blk, (MPI_Aint)low * blk, MPI_BYTE, RANK(pos - low));
    nbc_round(s);
  }
  /* one child per round, largest subtree first: sent together they would
   * share the link and the largest, whose subtree waits longest, would
   * arrive last (SMPI P = 64, 1 MiB: 2.86 -> see adapt/NONBLOCKING.md) */
  for (int mask = low >> 1; mask >= 1; mask >>= 1) {
    nbc_send(s, data + (MPI_Aint)(pos + mask) * blk, (MPI_Aint)mask * blk, MPI_BYTE,
             RANK(pos + mask));
    nbc_round(s);
  }
  /* allgather: after the step of `mask` every position holds its aligned
   * group of 2 mask blocks */
  for (int mask = 1; mask < P; mask <<= 1) {
    const int mine = pos & ~(mask - 1), theirs = mine ^ mask;
    nbc_send(s, data + (MPI_Aint)mine * blk, (MPI_Aint)mask * blk, MPI_BYTE, RANK(pos ^ mask));
    nbc_recv(s, data + (MPI_Aint)theirs * blk, (MPI_Aint)mask * blk, MPI_BYTE, RANK(pos ^ mask));
    nbc_round(s);
  }
#undef RANK
}

void nbc_build_bcast(nbc_sched_t *s, void *buf, MPI_Aint count, MPI_Datatype dt, int root,
                     int P) {
  int tsize = 0;
  PMPI_Type_size(dt, &tsize);
  const MPI_Aint bytes = count * tsize;
  if (bytes == 0) return;
  const int direct = P > 2 && nbc_direct_fits(bytes, P - 1);
  const int grid = direct ? 0 : nbc_grid_rows(bytes, P - 1, P);
  const int scatter = !direct && !grid && bytes >= ARCOLL_NBC_BCAST_SCATTER_BYTES && P > 2 &&
                      !(P & (P - 1));
  const MPI_Aint blk = (bytes + P - 1) / P;
  char *user = nbc_contig(buf, count, dt);
  char *data = user;
  if (!user || (scatter && blk * P != bytes)) data = nbc_alloc(s, scatter ? blk * P : bytes);
  if (!data) return;
  if (s->me == root && data != user) {
    if (user) nbc_copy(s, user, data, bytes, MPI_BYTE);
    else nbc_pack(s, buf, count, dt, data);
    nbc_round(s);
  }
  if (direct) nbc_build_bcast_direct(s, data, bytes, root, P);
  else if (grid) nbc_build_bcast_grid(s, data, bytes, root, P, grid);
  else if (scatter) scatter_allgather(s, data, blk, root, P);
  else binomial(s, data, bytes, root, P);
  if (s->me != root && data != user) {
    if (user) nbc_copy(s, data, user, bytes, MPI_BYTE);
    else nbc_unpack(s, data, buf, count, dt);
    nbc_round(s);
  }
}
