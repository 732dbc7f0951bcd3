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
  /* per tree t: receive slots rreq[t W + i] (segment j in slot j % W),
   * send slots sreq[(t W + i) maxch + c] (the sends of segment j in slot
   * j % W), got[t] = segments received (all of them at the root), fwd[t] =
   * segments forwarded (segment s = t + j ntrees) */
  MPI_Request *rreq = malloc(sizeof(MPI_Request) * (size_t)ntrees * W);
  MPI_Request *sreq = malloc(sizeof(MPI_Request) * (size_t)ntrees * W * (size_t)(maxch + 1));
  MPI_Request *wait = malloc(sizeof(MPI_Request) * (size_t)ntrees * (size_t)(maxch + 1));
  int *wt = malloc(sizeof(int) * (size_t)ntrees * (size_t)(maxch + 1)); /* wait[i]'s tree */
  int *wc = malloc(sizeof(int) * (size_t)ntrees * (size_t)(maxch + 1)); /* its child, -1: receive */
  MPI_Aint *got = malloc(sizeof(MPI_Aint) * (size_t)ntrees);
  MPI_Aint *fwd = malloc(sizeof(MPI_Aint) * (size_t)ntrees);
  if (!rreq || !sreq || !wait || !wt || !wc || !got || !fwd) {
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
    fwd[t] = 0;
    got[t] = trees[t].parent < 0 ? NSEG(t) : 0;
    if (trees[t].parent < 0) continue;
    for (MPI_Aint j = 0; j < NSEG(t) && j < W; ++j) {
      MPI_Aint s = SEG(t, j);
      rc = MPI_Irecv(SEG_PTR(s), SEG_LEN(s), datatype, trees[t].parent, TAG(t), comm,
                     &rreq[t * W + j]);
      if (rc != MPI_SUCCESS) goto done;
    }
  }
  for (;;) {
    /* forward every received segment whose send slot is free, the smallest
     * segment first (the root: the segments in order) */
    for (;;) {
      int t = -1;
      for (int u = 0; u < ntrees; ++u) {
        if (fwd[u] >= got[u] || trees[u].nchildren == 0) continue;
        const int slot = u * W + (int)(fwd[u] % W), nch = trees[u].nchildren;
        int free_slot = 1; /* its sends seen complete by the MPI_Waitany below */
        for (int c = 0; c < nch; ++c) free_slot &= sreq[slot * maxch + c] == MPI_REQUEST_NULL;
        if (free_slot && (t < 0 || SEG(u, fwd[u]) < SEG(t, fwd[t]))) t = u;
      }
      if (t < 0) break;
      const MPI_Aint s = SEG(t, fwd[t]);
      const int slot = t * W + (int)(fwd[t] % W);
      for (int c = 0; c < trees[t].nchildren; ++c) {
        rc = MPI_Isend(SEG_PTR(s), SEG_LEN(s), datatype, trees[t].children[c], TAG(t), comm,
                       &sreq[slot * maxch + c]);
        if (rc != MPI_SUCCESS) goto done;
      }
      ++fwd[t];
    }
    /* then wait for the next receive of any tree or, where a received
     * segment waits for its send slot, for that slot's sends: a blocked send
     * slot of one tree never stops the other trees' receives (a rank
     * blocked on tree 0's slot while its tree-1 child waits the same way on
     * it would deadlock when the sends need a posted receive, as MPICH/UCX
     * sends of 16 KiB do) */
    int nw = 0, idx = -1;
    for (int u = 0; u < ntrees; ++u) {
      if (got[u] < NSEG(u)) {
        wait[nw] = rreq[u * W + (int)(got[u] % W)];
        wt[nw] = u, wc[nw++] = -1;
      }
      if (fwd[u] < got[u])
        for (int c = 0; c < trees[u].nchildren; ++c) {
          wait[nw] = sreq[(u * W + (int)(fwd[u] % W)) * maxch + c];
          wt[nw] = u, wc[nw++] = c;
        }
    }
    if (nw == 0) break; /* everything received and forwarded */
    if ((rc = MPI_Waitany(nw, wait, &idx, MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
    if (idx == MPI_UNDEFINED) continue;
    const int u = wt[idx];
    if (wc[idx] >= 0) { /* one send of u's blocking slot done */
      sreq[(u * W + (int)(fwd[u] % W)) * maxch + wc[idx]] = MPI_REQUEST_NULL;
    } else { /* u's segment got[u] is here: post the receive W segments on */
      const MPI_Aint j = got[u]++;
      rreq[u * W + (int)(j % W)] = MPI_REQUEST_NULL;
      if (j + W < NSEG(u)) {
        MPI_Aint s2 = SEG(u, j + W);
        rc = MPI_Irecv(SEG_PTR(s2), SEG_LEN(s2), datatype, trees[u].parent, TAG(u), comm,
                       &rreq[u * W + (int)(j % W)]);
        if (rc != MPI_SUCCESS) goto done;
      }
    }
  }
  if (maxch > 0) rc = arcoll_wait_all(ntrees * W * maxch, sreq, MPI_SUCCESS);
done:
  free(rreq);
  free(sreq);
  free(wait);
  free(wt);
  free(wc);
  free(got);
  free(fwd);
  return rc;
#undef SEG
#undef NSEG
#undef SEG_PTR
#undef SEG_LEN
#undef TAG
}
