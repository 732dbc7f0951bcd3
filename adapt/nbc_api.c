/*
 * libarcoll: MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce, MPI_Ibarrier (+ _c) and
 * the persistent MPI_Bcast_init, MPI_Reduce_init, MPI_Allreduce_init (+ _c;
 * MPI 4 only) as schedules (nbc.h).  Checks as the blocking forms (dispatch.h,
 * adapt/DISPATCH.md "Passed to PMPI"): anything arcoll does not run (ARCOLL_NONBLOCKING=off,
 * mode pmpi of the collective, intercommunicators, one rank, invalid
 * arguments, more than INT_MAX bytes or elements) goes to PMPI.
 */
#include <limits.h>

#include "arcoll.h"
#include "nbc.h"

static long long g_started = 0; /* schedules built (arcoll_nbc_schedules) */

ARCOLL_EXPORT long long arcoll_nbc_schedules(void) { return g_started; }

static int g_last_rounds = 0; /* arcoll_nbc_last_rounds */
ARCOLL_EXPORT int arcoll_nbc_last_rounds(void) { return g_last_rounds; }

/* The state and a new schedule of comm; NULL with *rc set on failure. */
ARCOLL_HIDDEN nbc_sched_t *nbc_begin(MPI_Comm comm, int persistent, int *rc) {
  arcoll_comm_state_t *st = arcoll_state(comm, rc);
  if (!st) return NULL;
  nbc_sched_t *s = nbc_new(st, persistent);
  if (!s) *rc = MPI_ERR_NO_MEM;
  else ++g_started;
  return s;
}

/* Start (nonblocking) or register (persistent) s; errors to comm's handler. */
ARCOLL_HIDDEN int nbc_end(MPI_Comm comm, nbc_sched_t *s, int persistent, MPI_Request *req) {
  g_last_rounds = s->nrounds;
  return arcoll_finish(comm, persistent ? nbc_persist_register(s, req)
                                        : nbc_start_nonblocking(s, req));
}

/* 1 if arcoll runs collective c on comm (P ranks): enabled, intracommunicator,
 * P > 1, and comm has its arcoll state already (MPI_COMM_WORLD from MPI_Init,
 * any other communicator from its first blocking collective that arcoll ran).
 * Creating a state is a collective call (PMPI_Comm_split): done here it would
 * deadlock a correct program that starts nonblocking collectives on two new
 * communicators in different orders on different ranks.  Every rank sees the
 * same answer: states are created by the same blocking calls on all ranks,
 * and MPI orders a communicator's collectives alike on all ranks. */
ARCOLL_HIDDEN int nbc_handles(arcoll_coll_t c, MPI_Comm comm, MPI_Request *req, int *P) {
  return req && arcoll_nbc_enabled() && arcoll_intra(c, comm, P) && arcoll_state_peek(comm);
}

static int bcast(void *buf, MPI_Aint count, MPI_Datatype dt, int root, MPI_Comm comm,
                 int persistent, MPI_Request *req) {
  int P, tsize, rc;
  if (!nbc_handles(ARCOLL_COLL_BCAST, comm, req, &P) || count < 0 || root < 0 || root >= P ||
      !arcoll_type_ok(dt, &tsize) || !arcoll_buf_ok(buf, count, tsize, dt) ||
      count * (MPI_Aint)tsize > INT_MAX)
    return ARCOLL_USE_PMPI;
  nbc_sched_t *s = nbc_begin(comm, persistent, &rc);
  if (!s) return arcoll_finish(comm, rc);
  nbc_build_bcast(s, buf, count, dt, root, P);
  return nbc_end(comm, s, persistent, req);
}

/* root < 0: allreduce */
static int reduction(const void *sbuf, void *rbuf, MPI_Aint count, MPI_Datatype dt, MPI_Op op,
                     int root, MPI_Comm comm, int persistent, MPI_Request *req) {
  int P, tsize, rc, commut, me = 0;
  const arcoll_coll_t c = root < 0 ? ARCOLL_COLL_ALLREDUCE : ARCOLL_COLL_REDUCE;
  if (!nbc_handles(c, comm, req, &P) || count < 0 || count > INT_MAX || root >= P ||
      !arcoll_type_ok(dt, &tsize) || !arcoll_op_ok(op, dt, &commut) ||
      count * (MPI_Aint)tsize > INT_MAX)
    return ARCOLL_USE_PMPI;
  PMPI_Comm_rank(comm, &me);
  const int gets = root < 0 || me == root; /* rbuf significant here */
  if ((sbuf == MPI_IN_PLACE && !gets) || (gets && sbuf == rbuf && count > 0) ||
      !arcoll_buf_ok(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, tsize, dt) ||
      (gets && !arcoll_buf_ok(rbuf, count, tsize, dt)))
    return ARCOLL_USE_PMPI;
  nbc_sched_t *s = nbc_begin(comm, persistent, &rc);
  if (!s) return arcoll_finish(comm, rc);
  if (root < 0) nbc_build_allreduce(s, sbuf, rbuf, count, dt, op, P);
  else nbc_build_reduce(s, sbuf, rbuf, count, dt, op, root, P);
  return nbc_end(comm, s, persistent, req);
}

#define IBCAST(Name, COUNT_T)                                                                   \
  ARCOLL_EXPORT int Name(void *buf, COUNT_T count, MPI_Datatype dt, int root, MPI_Comm comm,   \
                         MPI_Request *req) {                                                    \
    int rc = bcast(buf, (MPI_Aint)count, dt, root, comm, 0, req);                               \
    return rc != ARCOLL_USE_PMPI ? rc : P##Name(buf, count, dt, root, comm, req);               \
  }
#define IREDUCE(Name, COUNT_T)                                                                  \
  ARCOLL_EXPORT int Name(const void *sbuf, void *rbuf, COUNT_T count, MPI_Datatype dt,         \
                         MPI_Op op, int root, MPI_Comm comm, MPI_Request *req) {               \
    int rc = root < 0 ? ARCOLL_USE_PMPI                                                         \
                      : reduction(sbuf, rbuf, (MPI_Aint)count, dt, op, root, comm, 0, req);    \
    return rc != ARCOLL_USE_PMPI ? rc : P##Name(sbuf, rbuf, count, dt, op, root, comm, req);    \
  }
#define IALLREDUCE(Name, COUNT_T)                                                               \
  ARCOLL_EXPORT int Name(const void *sbuf, void *rbuf, COUNT_T count, MPI_Datatype dt,         \
                         MPI_Op op, MPI_Comm comm, MPI_Request *req) {                         \
    int rc = reduction(sbuf, rbuf, (MPI_Aint)count, dt, op, -1, comm, 0, req);                  \
    return rc != ARCOLL_USE_PMPI ? rc : P##Name(sbuf, rbuf, count, dt, op, comm, req);          \
  }

IBCAST(MPI_Ibcast, int)
IREDUCE(MPI_Ireduce, int)
IALLREDUCE(MPI_Iallreduce, int)
#if MPI_VERSION >= 4
IBCAST(MPI_Ibcast_c, MPI_Count)
IREDUCE(MPI_Ireduce_c, MPI_Count)
IALLREDUCE(MPI_Iallreduce_c, MPI_Count)
#endif

ARCOLL_EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req) {
  int P, rc;
  if (!nbc_handles(ARCOLL_COLL_BARRIER, comm, req, &P)) return PMPI_Ibarrier(comm, req);
  nbc_sched_t *s = nbc_begin(comm, 0, &rc);
  if (!s) return arcoll_finish(comm, rc);
  nbc_build_barrier(s, P);
  return nbc_end(comm, s, 0, req);
}

#if MPI_VERSION >= 4
#define BCAST_INIT(Name, COUNT_T)                                                               \
  ARCOLL_EXPORT int Name(void *buf, COUNT_T count, MPI_Datatype dt, int root, MPI_Comm comm,   \
                         MPI_Info info, MPI_Request *req) {                                     \
    int rc = bcast(buf, (MPI_Aint)count, dt, root, comm, 1, req);                               \
    return rc != ARCOLL_USE_PMPI ? rc : P##Name(buf, count, dt, root, comm, info, req);         \
  }
#define REDUCE_INIT(Name, COUNT_T)                                                              \
  ARCOLL_EXPORT int Name(const void *sbuf, void *rbuf, COUNT_T count, MPI_Datatype dt,         \
                         MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req) { \
    int rc = root < 0 ? ARCOLL_USE_PMPI                                                         \
                      : reduction(sbuf, rbuf, (MPI_Aint)count, dt, op, root, comm, 1, req);    \
    return rc != ARCOLL_USE_PMPI ? rc                                                           \
                                 : P##Name(sbuf, rbuf, count, dt, op, root, comm, info, req);  \
  }
#define ALLREDUCE_INIT(Name, COUNT_T)                                                           \
  ARCOLL_EXPORT int Name(const void *sbuf, void *rbuf, COUNT_T count, MPI_Datatype dt,         \
                         MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *req) {          \
    int rc = reduction(sbuf, rbuf, (MPI_Aint)count, dt, op, -1, comm, 1, req);                  \
    return rc != ARCOLL_USE_PMPI ? rc : P##Name(sbuf, rbuf, count, dt, op, comm, info, req);    \
  }
BCAST_INIT(MPI_Bcast_init, int)
BCAST_INIT(MPI_Bcast_init_c, MPI_Count)
REDUCE_INIT(MPI_Reduce_init, int)
REDUCE_INIT(MPI_Reduce_init_c, MPI_Count)
ALLREDUCE_INIT(MPI_Allreduce_init, int)
ALLREDUCE_INIT(MPI_Allreduce_init_c, MPI_Count)
#endif
