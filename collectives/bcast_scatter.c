/* The binomial scatter phase of the scatter + allgather broadcasts
 * (scatter_ring, scatter_rdb); see bcast_scatter.h. */
#include "bcast_scatter.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bcast.h"
#include "tree.h"

static int scatter_pieces(void *buf, MPI_Aint count, MPI_Datatype datatype, MPI_Aint extent,
                          const int *order, int pos, int P, int tag, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
#define START(q) arcoll_block_start(count, P, (q))
#define PTR(q) ((char *)buf + START(q) * extent)
  const int lowbit = pos & -pos;
  if (pos > 0) {
    const int size = arcoll_binomial_subtree_size(pos, P);
    const MPI_Aint n = START(pos + size) - START(pos);
    rc = MPI_Recv(PTR(pos), (int)n, datatype, order[pos & (pos - 1)], tag, comm,
                  MPI_STATUS_IGNORE);
  }
  /* children pos + 2^j (2^j < lowbit, or < P at the root), largest subtree first */
  int top = 1;
  while (top * 2 < (pos == 0 ? P : lowbit)) top *= 2;
  for (int d = top; d >= 1 && rc == MPI_SUCCESS; d /= 2) {
    const int c = pos + d;
    if (c >= P || (pos > 0 && d >= lowbit)) continue;
    const int size = arcoll_binomial_subtree_size(c, P);
    const MPI_Aint n = START(c + size) - START(c);
    rc = MPI_Send(PTR(c), (int)n, datatype, order[c], tag, comm);
  }
#undef START
#undef PTR
  return rc;
}

int arcoll_bcast_scatter_begin(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                               MPI_Comm comm, const arcoll_sched_t *s, arcoll_scatter_bcast_t *sb) {
  int rc, type_size;
  MPI_Aint lb;
  memset(sb, 0, sizeof *sb);
  if (count <= 0) return MPI_SUCCESS;
  if ((rc = MPI_Type_size(datatype, &type_size)) != MPI_SUCCESS) return rc;
  if (type_size == 0) return MPI_SUCCESS;
  if ((rc = MPI_Type_get_extent(datatype, &lb, &sb->extent)) != MPI_SUCCESS) return rc;
  if (count > INT_MAX) { /* a subtree range may not fit in one message */
    arcoll_sched_t bs = {s ? s->order : NULL, (MPI_Aint)INT_MAX * type_size, 0,
                         arcoll_sched_tag(s)};
    return arcoll_bcast_binomial(buf, count, datatype, root, comm, &bs);
  }
  if ((rc = arcoll_order_resolve(s, root, comm, &sb->order, &sb->pos, &sb->P)) != MPI_SUCCESS)
    return rc;
  sb->tag = arcoll_sched_tag(s);
  rc = scatter_pieces(buf, count, datatype, sb->extent, sb->order, sb->pos, sb->P, sb->tag, comm);
  if (rc != MPI_SUCCESS) {
    free(sb->order);
    sb->order = NULL;
  }
  return rc;
}
