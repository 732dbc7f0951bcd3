/* Generic segmented broadcast along a tree; see bcast_tree.h. */
#include "bcast_tree.h"
#include "coll.h"

#include <limits.h>
#include <stdlib.h>

MPI_Aint arcoll_segment_count(MPI_Aint segment_bytes, int type_size, MPI_Aint count) {
  MPI_Aint sc = count;
  if (segment_bytes > 0 && type_size > 0) {
    sc = segment_bytes / type_size;
    if (sc < 1) sc = 1;
  }
  if (sc > count) sc = count;
  if (sc > INT_MAX) sc = INT_MAX;
  if (sc < 1) sc = 1;
  return sc;
}

#define W ARCOLL_BCAST_TREE_WINDOW

/* MPI_Wait on each request (avoids MPI_STATUSES_IGNORE, which GCC's access
 * attributes on MPICH's prototypes flag). */
int arcoll_bcast_tree(void *buf, MPI_Aint count, MPI_Datatype datatype,
                      const arcoll_tree_t *tree, MPI_Aint segment_bytes, int tag,
                      MPI_Comm comm) {
  int rc = MPI_SUCCESS, type_size = 0;
  MPI_Aint lb, extent;
  if (count <= 0) return MPI_SUCCESS;
  if ((rc = MPI_Type_size(datatype, &type_size)) != MPI_SUCCESS) return rc;
  if (type_size == 0) return MPI_SUCCESS;
  if ((rc = MPI_Type_get_extent(datatype, &lb, &extent)) != MPI_SUCCESS) return rc;
  if (tree->size <= 1) return MPI_SUCCESS;

  const MPI_Aint sc = arcoll_segment_count(segment_bytes, type_size, count);
  const MPI_Aint nseg = (count + sc - 1) / sc;
  const int nch = tree->nchildren;
  const int is_root = tree->parent < 0;
  MPI_Request rreq[W];
  MPI_Request *sreq = NULL; /* [W][nch] */
  for (int i = 0; i < W; ++i) rreq[i] = MPI_REQUEST_NULL;
  if (nch > 0) {
    sreq = malloc(sizeof(MPI_Request) * (size_t)W * (size_t)nch);
    if (!sreq) return MPI_ERR_NO_MEM;
    for (int i = 0; i < W * nch; ++i) sreq[i] = MPI_REQUEST_NULL;
  }
#define SEG_PTR(s) ((char *)buf + (MPI_Aint)(s) * sc * extent)
#define SEG_LEN(s) ((int)((s) == nseg - 1 ? count - (MPI_Aint)(s) * sc : sc))
  if (!is_root) {
    for (MPI_Aint s = 0; s < nseg && s < W; ++s) {
      rc = MPI_Irecv(SEG_PTR(s), SEG_LEN(s), datatype, tree->parent, tag, comm,
                     &rreq[s % W]);
      if (rc != MPI_SUCCESS) goto done;
    }
  }
  for (MPI_Aint s = 0; s < nseg; ++s) {
    int slot = (int)(s % W);
    if (!is_root) {
      if ((rc = MPI_Wait(&rreq[slot], MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
      if (s + W < nseg) {
        rc = MPI_Irecv(SEG_PTR(s + W), SEG_LEN(s + W), datatype, tree->parent, tag,
                       comm, &rreq[slot]);
        if (rc != MPI_SUCCESS) goto done;
      }
    }
    if (nch > 0) {
      /* free the slot: sends of segment s - W */
      rc = arcoll_wait_all(nch, &sreq[slot * nch], MPI_SUCCESS);
      if (rc != MPI_SUCCESS) goto done;
      for (int c = 0; c < nch; ++c) {
        rc = MPI_Isend(SEG_PTR(s), SEG_LEN(s), datatype, tree->children[c], tag, comm,
                       &sreq[slot * nch + c]);
        if (rc != MPI_SUCCESS) goto done;
      }
    }
  }
  if (nch > 0) rc = arcoll_wait_all(W * nch, sreq, MPI_SUCCESS);
done:
  free(sreq);
  return rc;
#undef SEG_PTR
#undef SEG_LEN
}
