/*
 * Schedule of MPI_Ibcast / MPI_Bcast_init (nbc.h): binomial tree over the
 * order (root, root+1, ...) built by collectives/tree.h, bytes moved as
 * MPI_BYTE (contiguous data in place, anything else packed at the root and
 * unpacked at the others).  Rounds: receive from the parent; send to every
 * child at once (largest subtree first).  Time (seed 000, linear model):
 * ceil(log2 P) (t_s + M/B), plus one progress call per level.
 */
#include <stdlib.h>

#include "nbc.h"
#include "tree.h"

void nbc_build_bcast(nbc_sched_t *s, void *buf, MPI_Aint count, MPI_Datatype dt, int root,
                     int P) {
  int tsize = 0;
  PMPI_Type_size(dt, &tsize);
  const MPI_Aint bytes = count * tsize;
  if (bytes == 0) return;
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
  char *data = nbc_contig(buf, count, dt);
  const int packed = data == NULL;
  if (packed) data = nbc_alloc(s, bytes);
  if (data) {
    if (packed && s->me == root) {
      nbc_pack(s, buf, count, dt, data);
      nbc_round(s);
    }
    if (tree.parent >= 0) {
      nbc_recv(s, data, bytes, MPI_BYTE, tree.parent);
      nbc_round(s);
    }
    for (int i = 0; i < tree.nchildren; ++i) nbc_send(s, data, bytes, MPI_BYTE, tree.children[i]);
    if (packed && s->me != root) nbc_unpack(s, data, buf, count, dt);
    nbc_round(s);
  }
  arcoll_tree_free(&tree);
}
