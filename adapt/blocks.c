/*
 * libarcoll: the dispatch shared by MPI_Gather and MPI_Scatter (gather.c,
 * scatter.c): the root holds P blocks (gather: the receive arguments;
 * scatter: the send arguments), every rank one block (gather: send; scatter:
 * receive; MPI_IN_PLACE allowed at the root).  The size used for the choice
 * is one block's bytes, the same on every rank by MPI's type-signature rule.
 * Same algorithm signature (arcoll_gather_fn == arcoll_scatter_fn).
 * Dispatch and PMPI cases: dispatch.h, adapt/DISPATCH.md.
 */
#include <limits.h>
#include <mpi.h>

#include "dispatch_blocks.h"
#include "late_order.h"
#include "online_pacing.h"
#include "gather.h"

/* Bytes of one block, or -1 (go to PMPI): the root's P-block buffer `all`
 * and this rank's own block `one` as given by the caller. */
static MPI_Aint block_bytes(int is_root, const void *all, MPI_Aint acount, MPI_Datatype atype,
                            const void *one, MPI_Aint ocount, MPI_Datatype otype) {
  int asize = 0, osize = 0;
  MPI_Aint bytes;
  if (is_root) {
    if (acount < 0 || !arcoll_type_ok(atype, &asize)) return -1;
    bytes = acount * (MPI_Aint)asize;
    if (!arcoll_buf_ok(all, acount, asize, atype)) return -1;
    if (one != MPI_IN_PLACE) {
      if (ocount < 0 || !arcoll_type_ok(otype, &osize)) return -1;
      if (ocount * (MPI_Aint)osize != bytes || !arcoll_buf_ok(one, ocount, osize, otype) ||
          (bytes > 0 && one == all))
        return -1; /* truncation / buffer / alias errors: MPICH reports them */
    }
  } else {
    if (one == MPI_IN_PLACE || ocount < 0 || !arcoll_type_ok(otype, &osize)) return -1;
    bytes = ocount * (MPI_Aint)osize;
    if (!arcoll_buf_ok(one, ocount, osize, otype)) return -1;
  }
  return bytes;
}

int arcoll_rooted_blocks(arcoll_coll_t C, const void *sendbuf, MPI_Aint scount,
                         MPI_Datatype stype, void *recvbuf, MPI_Aint rcount, MPI_Datatype rtype,
                         int root, MPI_Comm comm, const void *ret_addr) {
  int P, me, rc;
  if (!arcoll_intra(C, comm, &P)) return ARCOLL_USE_PMPI;
  if (root < 0 || root >= P) return ARCOLL_USE_PMPI;
  PMPI_Comm_rank(comm, &me);
  const int gather = C == ARCOLL_COLL_GATHER;
  const MPI_Aint bytes =
      gather ? block_bytes(me == root, recvbuf, rcount, rtype, sendbuf, scount, stype)
             : block_bytes(me == root, sendbuf, scount, stype, recvbuf, rcount, rtype);
  if (bytes < 0 || bytes > INT_MAX) return ARCOLL_USE_PMPI; /* int counts per block */
  if (bytes == 0) {
    arcoll_note(C, &arcoll_none_desc);
    return MPI_SUCCESS;
  }
  arcoll_comm_state_t *st = arcoll_state(comm, &rc);
  if (!st) return arcoll_finish(comm, rc);
  const arcoll_cached_t *ch = arcoll_choose(st, C, bytes, 1);
  if (!ch || !ch->algo) return ARCOLL_USE_PMPI;
  arcoll_note(C, ch->algo);
  /* late ranks: leaves (scatter), leaves nearest the root (gather); late_order.c */
  arcoll_late_call_t lc;
  if ((rc = arcoll_late_begin(st, C, ch, root, 1, bytes, &lc)) != MPI_SUCCESS) return arcoll_finish(comm, rc);
  /* a scatter whose root moved: smallest subtree first (gather.h) */
  const int moved = C == ARCOLL_COLL_SCATTER && st->scatter_last_root1 && st->scatter_last_root1 != root + 1;
  if (C == ARCOLL_COLL_SCATTER) st->scatter_last_root1 = root + 1;
  const arcoll_sched_t s = {lc.order, ch->segment_bytes, moved ? ARCOLL_SCATTER_SMALLEST_FIRST : ch->k,
                            ARCOLL_TAG(C)};
  const double t0 = arcoll_online_t0(ch);
  if (ch->ex && C == ARCOLL_COLL_SCATTER) arcoll_explorer_note_root(ch->ex, root); /* online_pacing.h */
  rc = ((arcoll_gather_fn)ch->algo->fn)(sendbuf, scount, stype, recvbuf, rcount, rtype, root, st->priv, &s);
  st->scatter_root = root; /* read by a rooted decision (choice.c) */
  rc = arcoll_online_done(st, ch, t0, rc);
  if (rc == MPI_SUCCESS) rc = arcoll_late_end(st, ch, root, ret_addr, &lc);
  return arcoll_finish(comm, rc);
}
