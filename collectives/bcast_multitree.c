/* Segmented broadcast over several trees; see bcast_multitree.h. */
#include "bcast_multitree.h"
#include "coll.h"

#include <stdlib.h>

#define W ARCOLL_BCAST_MULTITREE_WINDOW

int arcoll_bcast_multitree(void *buf, MPI_Aint count, MPI_Datatype datatype,
                           const arcoll_tree_t *trees, int ntrees, MPI_Aint seg_count,
                           int tag, MPI_Comm comm) {
  int rc, type_size;
  MPI_Aint lb, extent;
  if (count <= 0 || ntrees < 1 || trees[0].size <= 1) return MPI_SUCCESS;
  if (tag < 0 || tag + (long)ARCOLL_BCAST_MULTITREE_TAG_STRIDE * (ntrees - 1) > 32767)
    return MPI_ERR_TAG;
  if ((rc = MPI_Type_size(datatype, &type_size)) != MPI_SUCCESS) return rc;
  if (type_size == 0) return MPI_SUCCESS;
  if ((rc = MPI_Type_get_extent(datatype, &lb, &extent)) != MPI_SUCCESS) return rc;
  if (seg_count < 1) seg_count = 1;
  const MPI_Aint nseg = (count + seg_count - 1) / seg_count;
  int maxch = 0;
  for (int t = 0; t < ntrees; ++t)
    if (trees[t].nchildren > maxch) maxch = trees[t].nchildren;
  /* per tree t: receive slots rreq[t W + i], send slots sreq[(t W + i) maxch + c],
   * next segment index j to complete (segment s = t + j ntrees) */
  MPI_Request *rreq = malloc(sizeof(MPI_Request) * (size_t)ntrees * W);
  MPI_Request *sreq = malloc(sizeof(MPI_Request) * (size_t)ntrees * W * (size_t)(maxch + 1));
  MPI_Request *heads = malloc(sizeof(MPI_Request) * (size_t)ntrees);
  MPI_Aint *next = malloc(sizeof(MPI_Aint) * (size_t)ntrees);
  if (!rreq || !sreq || !heads || !next) {
    rc = MPI_ERR_NO_MEM;
    goto done;
  }
  for (int i = 0; i < ntrees * W; ++i) rreq[i] = MPI_REQUEST_NULL;
  for (int i = 0; i < ntrees * W * (maxch + 1); ++i) sreq[i] = MPI_REQUEST_NULL;
#define SEG(t, j) ((MPI_Aint)(t) + (MPI_Aint)(j) * ntrees)
#define NSEG(t) (nseg > (t) ? (nseg - (t) + ntrees - 1) / ntrees : 0)
#define SEG_PTR(s) ((char *)buf + (MPI_Aint)(s) * seg_count * extent)
#define SEG_LEN(s) ((int)((s) == nseg - 1 ? count - (MPI_Aint)(s) * seg_count : seg_count))
#define TAG(t) (tag + ARCOLL_BCAST_MULTITREE_TAG_STRIDE * (t))
  rc = MPI_SUCCESS;
  for (int t = 0; t < ntrees; ++t) {
    next[t] = 0;
    if (trees[t].parent < 0) continue;
    for (MPI_Aint j = 0; j < NSEG(t) && j < W; ++j) {
      MPI_Aint s = SEG(t, j);
      rc = MPI_Irecv(SEG_PTR(s), SEG_LEN(s), datatype, trees[t].parent, TAG(t), comm,
                     &rreq[t * W + j]);
      if (rc != MPI_SUCCESS) goto done;
    }
  }
  for (;;) {
    /* the tree whose next segment is here (the root: the next segment in order) */
    int t = -1;
    if (trees[0].parent < 0) { /* root of every tree */
      MPI_Aint best = -1;
      for (int u = 0; u < ntrees; ++u)
        if (next[u] < NSEG(u) && (best < 0 || SEG(u, next[u]) < best)) best = SEG(u, next[u]), t = u;
      if (t < 0) break;
    } else {
      for (int u = 0; u < ntrees; ++u)
        heads[u] = next[u] < NSEG(u) ? rreq[u * W + next[u] % W] : MPI_REQUEST_NULL;
      if ((rc = MPI_Waitany(ntrees, heads, &t, MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
      if (t == MPI_UNDEFINED) break;
      rreq[t * W + next[t] % W] = heads[t];
    }
    const MPI_Aint j = next[t]++, s = SEG(t, j);
    const int slot = t * W + (int)(j % W);
    const arcoll_tree_t *tr = &trees[t];
    if (tr->parent >= 0 && j + W < NSEG(t)) {
      MPI_Aint s2 = SEG(t, j + W);
      rc = MPI_Irecv(SEG_PTR(s2), SEG_LEN(s2), datatype, tr->parent, TAG(t), comm, &rreq[slot]);
      if (rc != MPI_SUCCESS) goto done;
    }
    if (tr->nchildren > 0) { /* free the slot (sends of segment j - W of this tree) */
      rc = arcoll_wait_all(tr->nchildren, &sreq[slot * maxch], MPI_SUCCESS);
      if (rc != MPI_SUCCESS) goto done;
      for (int c = 0; c < tr->nchildren; ++c) {
        rc = MPI_Isend(SEG_PTR(s), SEG_LEN(s), datatype, tr->children[c], TAG(t), comm,
                       &sreq[slot * maxch + c]);
        if (rc != MPI_SUCCESS) goto done;
      }
    }
  }
  if (maxch > 0) rc = arcoll_wait_all(ntrees * W * maxch, sreq, MPI_SUCCESS);
done:
  free(rreq);
  free(sreq);
  free(heads);
  free(next);
  return rc;
#undef SEG
#undef NSEG
#undef SEG_PTR
#undef SEG_LEN
#undef TAG
}
