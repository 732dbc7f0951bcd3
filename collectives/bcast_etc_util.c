/* Helpers of group bcast_etc; see bcast_etc_util.h. */
#include "bcast_etc_util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int arcoll_order_resolve(const arcoll_sched_t *s, int root, MPI_Comm comm, int **order_out,
                         int *pos_out, int *P_out) {
  int P, me, rc;
  *order_out = NULL;
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Comm_rank(comm, &me)) != MPI_SUCCESS) return rc;
  int *order = malloc(sizeof(int) * (size_t)P);
  char *seen = calloc((size_t)P, 1);
  if (!order || !seen) {
    free(order);
    free(seen);
    return MPI_ERR_NO_MEM;
  }
  int pos = -1;
  for (int i = 0; i < P; ++i) {
    int r = (s && s->order) ? s->order[i] : (root + i) % P;
    if (r < 0 || r >= P || seen[r]) {
      free(order);
      free(seen);
      return MPI_ERR_ARG;
    }
    seen[r] = 1;
    order[i] = r;
    if (r == me) pos = i;
  }
  free(seen);
  if (order[0] != root || pos < 0) {
    free(order);
    return MPI_ERR_ARG;
  }
  *order_out = order;
  *pos_out = pos;
  *P_out = P;
  return MPI_SUCCESS;
}

MPI_Aint arcoll_block_start(MPI_Aint count, int n, int i) {
  MPI_Aint q = count / n, r = count % n;
  return (MPI_Aint)i * q + (i < r ? i : r);
}

int arcoll_local_copy(const void *src, MPI_Aint scount, MPI_Datatype stype, void *dst,
                      MPI_Aint rcount, MPI_Datatype rtype, MPI_Comm comm) {
  int ssize, rc, bytes = 0, pos = 0;
  if ((rc = MPI_Type_size(stype, &ssize)) != MPI_SUCCESS) return rc;
  if (scount == 0 || ssize == 0) return MPI_SUCCESS;
  if (scount > INT_MAX || rcount > INT_MAX) return MPI_ERR_COUNT;
  if ((rc = MPI_Pack_size((int)scount, stype, comm, &bytes)) != MPI_SUCCESS) return rc;
  void *tmp = malloc((size_t)bytes);
  if (!tmp) return MPI_ERR_NO_MEM;
  rc = MPI_Pack(src, (int)scount, stype, tmp, bytes, &pos, comm);
  if (rc == MPI_SUCCESS) {
    int upos = 0;
    rc = MPI_Unpack(tmp, pos, &upos, dst, (int)rcount, rtype, comm);
  }
  free(tmp);
  return rc;
}

int arcoll_span_dup(const void *buf, MPI_Aint count, MPI_Datatype dt, void **raw,
                    void **shifted) {
  MPI_Aint lb, extent, tlb, textent;
  int rc;
  *raw = *shifted = NULL;
  if ((rc = MPI_Type_get_extent(dt, &lb, &extent)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_get_true_extent(dt, &tlb, &textent)) != MPI_SUCCESS) return rc;
  MPI_Aint span = count > 0 ? (count - 1) * extent + textent : 0;
  if (span < 0) span = 0; /* negative extents: not supported here */
  char *p = malloc((size_t)span + 1);
  if (!p) return MPI_ERR_NO_MEM;
  if (span > 0) memcpy(p, (const char *)buf + tlb, (size_t)span);
  *raw = p;
  *shifted = p - tlb;
  return MPI_SUCCESS;
}

#include "bcast_tree.h"
#include "tree.h"

static int along(arcoll_tree_builder build, arcoll_tree_builder_k build_k,
                 arcoll_tree_builder_k2 build_k2, int k, int k2, void *buf, MPI_Aint count,
                 MPI_Datatype datatype, int root, MPI_Comm comm, const arcoll_sched_t *s) {
  int *order, pos, P, rc;
  if ((rc = arcoll_order_resolve(s, root, comm, &order, &pos, &P)) != MPI_SUCCESS) return rc;
  arcoll_tree_t tree;
  rc = build_k2 ? build_k2(order, P, k, k2, order[pos], &tree)
       : build_k ? build_k(order, P, k, order[pos], &tree)
                 : build(order, P, order[pos], &tree);
  free(order);
  if (rc != MPI_SUCCESS) return rc;
  rc = arcoll_bcast_tree(buf, count, datatype, &tree, s ? s->segment_bytes : 0,
                         arcoll_sched_tag(s), comm);
  arcoll_tree_free(&tree);
  return rc;
}

int arcoll_bcast_along(arcoll_tree_builder build, void *buf, MPI_Aint count,
                       MPI_Datatype datatype, int root, MPI_Comm comm,
                       const arcoll_sched_t *s) {
  return along(build, NULL, NULL, 0, 0, buf, count, datatype, root, comm, s);
}

int arcoll_bcast_along_k(arcoll_tree_builder_k build, int k, void *buf, MPI_Aint count,
                         MPI_Datatype datatype, int root, MPI_Comm comm,
                         const arcoll_sched_t *s) {
  return along(NULL, build, NULL, k, 0, buf, count, datatype, root, comm, s);
}

int arcoll_bcast_along_k2(arcoll_tree_builder_k2 build, int k, int k2, void *buf, MPI_Aint count,
                          MPI_Datatype datatype, int root, MPI_Comm comm,
                          const arcoll_sched_t *s) {
  return along(NULL, NULL, build, k, k2, buf, count, datatype, root, comm, s);
}

int arcoll_blocks_begin(const arcoll_sched_t *s, int root, MPI_Comm comm, MPI_Aint root_count,
                        MPI_Datatype root_type, MPI_Aint count, MPI_Datatype type, MPI_Aint *bb,
                        int **order_out, int *pos_out, int *P_out, int *use_linear) {
  int me, rc, size;
  *bb = 0;
  *use_linear = 0;
  *order_out = NULL;
  if ((rc = MPI_Comm_rank(comm, &me)) != MPI_SUCCESS) return rc;
  const MPI_Aint cnt = me == root ? root_count : count;
  if ((rc = MPI_Type_size(me == root ? root_type : type, &size)) != MPI_SUCCESS) return rc;
  *bb = cnt * size;
  if (*bb == 0) return MPI_SUCCESS;
  if ((rc = arcoll_order_resolve(s, root, comm, order_out, pos_out, P_out)) != MPI_SUCCESS) return rc;
  if (*bb * *P_out > INT_MAX || cnt > INT_MAX) {
    free(*order_out);
    *order_out = NULL;
    *use_linear = 1;
  }
  return MPI_SUCCESS;
}

int arcoll_bcast_begin(const arcoll_sched_t *s, int root, MPI_Comm comm, MPI_Aint count,
                       MPI_Datatype datatype, int *type_size, int **order_out, int *pos_out,
                       int *P_out) {
  int rc;
  *order_out = NULL;
  if (count <= 0) return MPI_SUCCESS;
  if ((rc = MPI_Type_size(datatype, type_size)) != MPI_SUCCESS) return rc;
  if (*type_size == 0) return MPI_SUCCESS;
  if ((rc = arcoll_order_resolve(s, root, comm, order_out, pos_out, P_out)) != MPI_SUCCESS) return rc;
  if (*P_out == 1) {
    free(*order_out);
    *order_out = NULL;
  }
  return MPI_SUCCESS;
}
