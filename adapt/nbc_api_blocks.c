/*
 * libarcoll: MPI_Igather, MPI_Iscatter, MPI_Iallgather, MPI_Ialltoall (+ _c)
 * and the persistent MPI_Allgather_init, MPI_Alltoall_init (+ _c; MPI 4
 * only) as schedules (nbc.h).  Checks as the blocking forms (blocks.c,
 * unrooted_blocks.c; adapt/DISPATCH.md "Passed to PMPI"); all blocks together
 * above INT_MAX bytes go to PMPI.
 */
#include <limits.h>

#include "nbc.h"

/* (count, type, buf) usable for a block of *bytes bytes (set) */
static int side_ok(const void *buf, MPI_Aint count, MPI_Datatype dt, MPI_Aint *bytes) {
  int tsize;
  if (count < 0 || count > INT_MAX || !arcoll_type_ok(dt, &tsize) ||
      !arcoll_buf_ok(buf, count, tsize, dt))
    return 0;
  *bytes = count * (MPI_Aint)tsize;
  return 1;
}

/* c = gather or scatter */
static int rooted(arcoll_coll_t c, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                  void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                  MPI_Request *req) {
  int P, me, rc;
  MPI_Aint sb = 0, rb = 0;
  if (!nbc_handles(c, comm, req, &P) || root < 0 || root >= P) return ARCOLL_USE_PMPI;
  PMPI_Comm_rank(comm, &me);
  const int gather = c == ARCOLL_COLL_GATHER;
  /* the root's full side (gather: receive, scatter: send) and its own block */
  const void *full = gather ? rbuf : sbuf;
  const void *own = gather ? sbuf : rbuf;
  if (me == root) {
    if (!(gather ? side_ok(rbuf, rcount, rtype, &rb) : side_ok(sbuf, scount, stype, &sb)))
      return ARCOLL_USE_PMPI;
    if (own != MPI_IN_PLACE &&
        (!(gather ? side_ok(sbuf, scount, stype, &sb) : side_ok(rbuf, rcount, rtype, &rb)) ||
         sb != rb || (own == full && sb > 0)))
      return ARCOLL_USE_PMPI;
  } else if (own == MPI_IN_PLACE ||
             !(gather ? side_ok(sbuf, scount, stype, &sb) : side_ok(rbuf, rcount, rtype, &rb))) {
    return ARCOLL_USE_PMPI;
  }
  const MPI_Aint blk = gather ? (me == root ? rb : sb) : (me == root ? sb : rb);
  if ((double)blk * P > INT_MAX) return ARCOLL_USE_PMPI;
  nbc_sched_t *s = nbc_begin(comm, 0, &rc);
  if (!s) return arcoll_finish(comm, rc);
  if (gather) nbc_build_gather(s, sbuf, scount, stype, rbuf, rcount, rtype, root, P);
  else nbc_build_scatter(s, sbuf, scount, stype, rbuf, rcount, rtype, root, P);
  return nbc_end(comm, s, 0, req);
}

/* c = allgather or alltoall */
static int unrooted(arcoll_coll_t c, const void *sbuf, MPI_Aint scount, MPI_Datatype stype,
                    void *rbuf, MPI_Aint rcount, MPI_Datatype rtype, MPI_Comm comm,
                    int persistent, MPI_Request *req) {
  int P, rc;
  MPI_Aint sb = 0, rb = 0;
  if (!nbc_handles(c, comm, req, &P) || !side_ok(rbuf, rcount, rtype, &rb))
    return ARCOLL_USE_PMPI;
  if (sbuf != MPI_IN_PLACE && (!side_ok(sbuf, scount, stype, &sb) || sb != rb ||
                               (sbuf == rbuf && rb > 0)))
    return ARCOLL_USE_PMPI;
  if (c == ARCOLL_COLL_ALLGATHER && sbuf != MPI_IN_PLACE && rb > 0) {
    int me;
    PMPI_Comm_rank(comm, &me); /* send buffer = own block of recvbuf: MPICH's alias error */
    if ((const char *)sbuf == (char *)rbuf + (MPI_Aint)me * rcount * nbc_extent(rtype))
      return ARCOLL_USE_PMPI;
  }
  if (c == ARCOLL_COLL_ALLTOALL && sbuf == MPI_IN_PLACE && nbc_extent(rtype) < 0)
    return ARCOLL_USE_PMPI;
  if ((double)rb * P > INT_MAX || (double)rcount * P > INT_MAX) return ARCOLL_USE_PMPI;
  nbc_sched_t *s = nbc_begin(comm, persistent, &rc);
  if (!s) return arcoll_finish(comm, rc);
  if (c == ARCOLL_COLL_ALLGATHER)
    nbc_build_allgather(s, sbuf, scount, stype, rbuf, rcount, rtype, P);
  else
    nbc_build_alltoall(s, sbuf, scount, stype, rbuf, rcount, rtype, P);
  return nbc_end(comm, s, persistent, req);
}

#define IROOTED(Name, COUNT_T, C)                                                               \
  ARCOLL_EXPORT int Name(const void *sbuf, COUNT_T scount, MPI_Datatype stype, void *rbuf,     \
                         COUNT_T rcount, MPI_Datatype rtype, int root, MPI_Comm comm,          \
                         MPI_Request *req) {                                                    \
    int rc = rooted(C, sbuf, (MPI_Aint)scount, stype, rbuf, (MPI_Aint)rcount, rtype, root,      \
                    comm, req);                                                                 \
    return rc != ARCOLL_USE_PMPI                                                                \
               ? rc                                                                             \
               : P##Name(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req);           \
  }
#define IUNROOTED(Name, COUNT_T, C)                                                             \
  ARCOLL_EXPORT int Name(const void *sbuf, COUNT_T scount, MPI_Datatype stype, void *rbuf,     \
                         COUNT_T rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req) { \
    int rc = unrooted(C, sbuf, (MPI_Aint)scount, stype, rbuf, (MPI_Aint)rcount, rtype, comm, 0, \
                      req);                                                                     \
    return rc != ARCOLL_USE_PMPI ? rc                                                           \
                                 : P##Name(sbuf, scount, stype, rbuf, rcount, rtype, comm, req); \
  }

IROOTED(MPI_Igather, int, ARCOLL_COLL_GATHER)
IROOTED(MPI_Iscatter, int, ARCOLL_COLL_SCATTER)
IUNROOTED(MPI_Iallgather, int, ARCOLL_COLL_ALLGATHER)
IUNROOTED(MPI_Ialltoall, int, ARCOLL_COLL_ALLTOALL)
#if MPI_VERSION >= 4
IROOTED(MPI_Igather_c, MPI_Count, ARCOLL_COLL_GATHER)
IROOTED(MPI_Iscatter_c, MPI_Count, ARCOLL_COLL_SCATTER)
IUNROOTED(MPI_Iallgather_c, MPI_Count, ARCOLL_COLL_ALLGATHER)
IUNROOTED(MPI_Ialltoall_c, MPI_Count, ARCOLL_COLL_ALLTOALL)

#define UNROOTED_INIT(Name, COUNT_T, C)                                                         \
  ARCOLL_EXPORT int Name(const void *sbuf, COUNT_T scount, MPI_Datatype stype, void *rbuf,     \
                         COUNT_T rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Info info,     \
                         MPI_Request *req) {                                                    \
    int rc = unrooted(C, sbuf, (MPI_Aint)scount, stype, rbuf, (MPI_Aint)rcount, rtype, comm, 1, \
                      req);                                                                     \
    return rc != ARCOLL_USE_PMPI                                                                \
               ? rc                                                                             \
               : P##Name(sbuf, scount, stype, rbuf, rcount, rtype, comm, info, req);           \
  }
UNROOTED_INIT(MPI_Allgather_init, int, ARCOLL_COLL_ALLGATHER)
UNROOTED_INIT(MPI_Allgather_init_c, MPI_Count, ARCOLL_COLL_ALLGATHER)
UNROOTED_INIT(MPI_Alltoall_init, int, ARCOLL_COLL_ALLTOALL)
UNROOTED_INIT(MPI_Alltoall_init_c, MPI_Count, ARCOLL_COLL_ALLTOALL)
#endif
