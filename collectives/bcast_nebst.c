/*
 * nEBST broadcast (seed 000_32450fa7292fe18a.txt: message in log P pieces over
 * edge-disjoint binomial trees, T = 3 log P (t_s + M/(B log P))): n rotated
 * binomial trees (tree_extra.h) driven by the multi-tree segmented broadcast
 * (bcast_multitree.h).  Departures and honoured schedule fields: bcast.h.
 */
#include <limits.h>
#include <stdlib.h>

#include "bcast.h"
#include "bcast_etc_util.h"
#include "bcast_multitree.h"
#include "bcast_tree.h"
#include "tree_extra.h"

int arcoll_bcast_nebst(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                       MPI_Comm comm, const arcoll_sched_t *s) {
  int *order, pos, P, rc, type_size;
  if ((rc = arcoll_bcast_begin(s, root, comm, count, datatype, &type_size, &order, &pos, &P)) !=
          MPI_SUCCESS ||
      !order)
    return rc;
  int n = arcoll_ceil_log2(P);
  if (s && s->k > 0) n = s->k;
  if (n > P - 1) n = P - 1; /* more trees than non-root ranks adds nothing */
  if ((MPI_Aint)n > count) n = (int)count;
  MPI_Aint seg;
  if (s && s->segment_bytes > 0)
    seg = arcoll_segment_count(s->segment_bytes, type_size, count);
  else
    seg = (count + n - 1) / n;
  if (seg > INT_MAX) seg = INT_MAX;
  arcoll_tree_t *trees = calloc((size_t)n, sizeof(*trees));
  if (!trees) {
    free(order);
    return MPI_ERR_NO_MEM;
  }
  for (int j = 0; j < n && rc == MPI_SUCCESS; ++j)
    rc = arcoll_tree_binomial_rotated(order, P, (int)((long)j * (P - 1) / n), order[pos],
                                      &trees[j]);
  if (rc == MPI_SUCCESS)
    rc = arcoll_bcast_multitree(buf, count, datatype, trees, n, seg, arcoll_sched_tag(s), comm);
  for (int j = 0; j < n; ++j) arcoll_tree_free(&trees[j]);
  free(trees);
  free(order);
  return rc;
}
