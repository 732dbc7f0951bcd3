/* Shared parts of the alltoallv algorithms; see alltoallv_prep.h. */
#include "alltoallv_prep.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_etc_util.h"
#include "reduce_util.h"

static int side(void *buf, const MPI_Aint *cnt, const MPI_Aint *dsp, MPI_Datatype t,
                arcoll_a2av_side_t *x) {
  MPI_Aint lb;
  int rc;
  x->buf = buf;
  x->cnt = cnt;
  x->dsp = dsp;
  x->type = t;
  if ((rc = MPI_Type_size(t, &x->size)) != MPI_SUCCESS) return rc;
  return MPI_Type_get_extent(t, &lb, &x->ext);
}

int arcoll_a2av_begin(const void *sendbuf, const MPI_Aint *scounts, const MPI_Aint *sdispls,
                      MPI_Datatype stype, void *recvbuf, const MPI_Aint *rcounts,
                      const MPI_Aint *rdispls, MPI_Datatype rtype, MPI_Comm comm,
                      const arcoll_sched_t *s, arcoll_a2av_t *a) {
  int rc;
  memset(a, 0, sizeof *a);
  a->tag = s ? s->tag : 0;
  a->inplace = sendbuf == MPI_IN_PLACE;
  if ((rc = MPI_Comm_size(comm, &a->P)) != MPI_SUCCESS ||
      (rc = MPI_Comm_rank(comm, &a->me)) != MPI_SUCCESS ||
      (rc = side(recvbuf, rcounts, rdispls, rtype, &a->r)) != MPI_SUCCESS)
    return rc;
  if (a->inplace) a->s = a->r;
  else if ((rc = side((void *)sendbuf, scounts, sdispls, stype, &a->s)) != MPI_SUCCESS)
    return rc;
  return arcoll_red_pos_map(s ? s->order : NULL, a->P, -1, a->me, &a->map, &a->pos);
}

void arcoll_a2av_end(arcoll_a2av_t *a) {
  free(a->map);
  a->map = NULL;
}

int arcoll_a2av_msgtype(MPI_Aint count, MPI_Datatype dt, int *n, MPI_Datatype *t) {
  *t = dt;
  *n = (int)count;
  if (count <= INT_MAX) return MPI_SUCCESS;
  MPI_Datatype run, parts[2];
  MPI_Aint lb, ext, disp[2];
  int lens[2], rc;
  if ((rc = MPI_Type_get_extent(dt, &lb, &ext)) != MPI_SUCCESS ||
      (rc = MPI_Type_contiguous(INT_MAX, dt, &run)) != MPI_SUCCESS)
    return rc;
  const MPI_Aint runs = count / INT_MAX;
  lens[0] = (int)runs;
  lens[1] = (int)(count % INT_MAX);
  disp[0] = 0;
  disp[1] = runs * INT_MAX * ext;
  parts[0] = run;
  parts[1] = dt;
  rc = MPI_Type_create_struct(2, lens, disp, parts, t);
  MPI_Type_free(&run);
  if (rc == MPI_SUCCESS) rc = MPI_Type_commit(t);
  *n = 1;
  return rc;
}

void arcoll_a2av_msgtype_free(MPI_Datatype dt, MPI_Datatype *t) {
  if (*t != dt) MPI_Type_free(t);
}

int arcoll_a2av_post(const arcoll_a2av_t *a, int send, int rank, MPI_Comm comm,
                     MPI_Request *req) {
  const arcoll_a2av_side_t *x = send ? &a->s : &a->r;
  *req = MPI_REQUEST_NULL;
  if (x->cnt[rank] == 0 || x->size == 0) return MPI_SUCCESS;
  MPI_Datatype t;
  int n, rc = arcoll_a2av_msgtype(x->cnt[rank], x->type, &n, &t);
  if (rc != MPI_SUCCESS) return rc;
  char *at = x->buf + x->dsp[rank] * x->ext;
  rc = send ? MPI_Isend(at, n, t, rank, a->tag, comm, req)
            : MPI_Irecv(at, n, t, rank, a->tag, comm, req);
  arcoll_a2av_msgtype_free(x->type, &t);
  return rc;
}

int arcoll_a2av_self(const arcoll_a2av_t *a, MPI_Comm comm) {
  const int me = a->me;
  if (a->inplace || a->r.cnt[me] == 0 || a->r.size == 0) return MPI_SUCCESS;
  const void *src = a->s.buf + a->s.dsp[me] * a->s.ext;
  void *dst = a->r.buf + a->r.dsp[me] * a->r.ext;
  if (a->s.cnt[me] <= INT_MAX && a->r.cnt[me] <= INT_MAX)
    return arcoll_local_copy(src, a->s.cnt[me], a->s.type, dst, a->r.cnt[me], a->r.type, comm);
  MPI_Request req[2]; /* blocks above INT_MAX elements: a message to itself */
  int rc = arcoll_a2av_post(a, 0, me, comm, &req[0]);
  if (rc == MPI_SUCCESS) rc = arcoll_a2av_post(a, 1, me, comm, &req[1]);
  else req[1] = MPI_REQUEST_NULL;
  return arcoll_wait_all(2, req, rc);
}
