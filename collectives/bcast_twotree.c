/*
 * Two-tree broadcast, simplified variant of Sanders, Speck, Träff 2009
 * ("Two-tree algorithms for full bandwidth broadcast, reduction and scan"):
 * two complementary binary trees (tree_extra.h, arcoll_tree_twotree), even
 * segments down tree 1 and odd segments down tree 2 (bcast_multitree.h).
 * Cost, departures and honoured schedule fields: bcast.h.
 */
#include <limits.h>
#include <stdlib.h>

#include "bcast.h"
#include "bcast_etc_util.h"
#include "bcast_multitree.h"
#include "bcast_tree.h"
#include "tree_extra.h"

int arcoll_bcast_twotree(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                         MPI_Comm comm, const arcoll_sched_t *s) {
  int *order, pos, P, rc, type_size;
  if ((rc = arcoll_bcast_begin(s, root, comm, count, datatype, &type_size, &order, &pos, &P)) !=
          MPI_SUCCESS ||
      !order)
    return rc;
  MPI_Aint seg;
  if (s && s->segment_bytes > 0)
    seg = arcoll_segment_count(s->segment_bytes, type_size, count);
  else
    seg = (count + 1) / 2;
  if (seg > INT_MAX) seg = INT_MAX;
  arcoll_tree_t trees[2] = {{0}, {0}};
  rc = arcoll_tree_twotree(order, P, 0, order[pos], &trees[0]);
  if (rc == MPI_SUCCESS) rc = arcoll_tree_twotree(order, P, 1, order[pos], &trees[1]);
  if (rc == MPI_SUCCESS)
    rc = arcoll_bcast_multitree(buf, count, datatype, trees, 2, seg, arcoll_sched_tag(s), comm);
  arcoll_tree_free(&trees[0]);
  arcoll_tree_free(&trees[1]);
  free(order);
  return rc;
}
