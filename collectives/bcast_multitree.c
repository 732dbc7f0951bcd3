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
  if ((rc = MPI_Type_size(datatype, &type_size)) != MPI_SUCCESS) return rc;
  if (type_size == 0) return MPI_SUCCESS;
  if ((rc = MPI_Type_get_extent(datatype, &lb, &extent)) != MPI_SUCCESS) return rc;
  if (seg_count < 1) seg_count = 1;
  const MPI_Aint nseg = (count + seg_count - 1) / seg_count;
  int maxch = 0;
  for (int t = 0; t < ntrees; ++t)
    if (trees[t].nchildren > maxch) maxch = trees[t].nchildren;
  MPI_Request rreq[W];
  for (int i = 0; i < W; ++i) rreq[i] = MPI_REQUEST_NULL;
  MPI_Request *sreq = NULL; /* [W][maxch] */
  if (maxch > 0) {
    sreq = malloc(sizeof(MPI_Request) * (size_t)W * (size_t)maxch);
    if (!sreq) return MPI_ERR_NO_MEM;
    for (int i = 0; i < W * maxch; ++i) sreq[i] = MPI_REQUEST_NULL;
  }
#define SEG_PTR(s) ((char *)buf + (MPI_Aint)(s) * seg_count * extent)
#define SEG_LEN(s) ((int)((s) == nseg - 1 ? count - (MPI_Aint)(s) * seg_count : seg_count))
#define TREE(s) (&trees[(s) % ntrees])
  rc = MPI_SUCCESS;
  for (MPI_Aint s = 0; s < nseg && s < W; ++s) {
    const arcoll_tree_t *t = TREE(s);
    if (t->parent >= 0) {
      rc = MPI_Irecv(SEG_PTR(s), SEG_LEN(s), datatype, t->parent, tag, comm, &rreq[s]);
      if (rc != MPI_SUCCESS) goto done;
    }
  }
  for (MPI_Aint s = 0; s < nseg; ++s) {
    const int slot = (int)(s % W);
    const arcoll_tree_t *t = TREE(s);
    if ((rc = MPI_Wait(&rreq[slot], MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
    if (s + W < nseg) {
      const arcoll_tree_t *tn = TREE(s + W);
      if (tn->parent >= 0) {
        rc = MPI_Irecv(SEG_PTR(s + W), SEG_LEN(s + W), datatype, tn->parent, tag, comm,
                       &rreq[slot]);
        if (rc != MPI_SUCCESS) goto done;
      }
    }
    if (maxch > 0) {
      rc = arcoll_wait_all(maxch, &sreq[slot * maxch], MPI_SUCCESS);
      if (rc != MPI_SUCCESS) goto done;
      for (int c = 0; c < t->nchildren; ++c) {
        rc = MPI_Isend(SEG_PTR(s), SEG_LEN(s), datatype, t->children[c], tag, comm,
                       &sreq[slot * maxch + c]);
        if (rc != MPI_SUCCESS) goto done;
      }
    }
  }
  if (maxch > 0) rc = arcoll_wait_all(W * maxch, sreq, MPI_SUCCESS);
done:
  free(sreq);
  return rc;
#undef SEG_PTR
#undef SEG_LEN
#undef TREE
}
