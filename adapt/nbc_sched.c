/*
 * Building schedules of nonblocking / persistent collectives (nbc.h): ops
 * appended to the current round, temporaries owned by the schedule.
 */
#include <stdlib.h>
#include <string.h>

#include "nbc.h"

nbc_sched_t *nbc_new(arcoll_comm_state_t *st, int persistent) {
  nbc_sched_t *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->comm = st->priv;
  s->me = st->me;
  s->user = MPI_REQUEST_NULL;
  s->persistent = persistent;
  if (persistent) {
    const unsigned k = st->pnbc_seq++ % ARCOLL_NBC_TAGS;
    s->tag = ARCOLL_PNBC_TAG_BASE + (int)k;
    s->self_tag = ARCOLL_PNBC_SELF_TAG_BASE + (int)k;
  } else {
    s->tag = ARCOLL_NBC_TAG_BASE + (int)(st->nbc_seq++ % ARCOLL_NBC_TAGS);
  }
  return s;
}

static nbc_op_t *push(nbc_sched_t *s) {
  if (s->err) return NULL;
  if (s->nops == s->capops) {
    int cap = s->capops ? 2 * s->capops : 16;
    nbc_op_t *o = realloc(s->ops, (size_t)cap * sizeof *o);
    if (!o) {
      s->err = MPI_ERR_NO_MEM;
      return NULL;
    }
    s->ops = o, s->capops = cap;
  }
  nbc_op_t *o = &s->ops[s->nops++];
  memset(o, 0, sizeof *o);
  return o;
}

static void add(nbc_sched_t *s, nbc_kind_t k, const void *src, void *buf, MPI_Aint count,
                MPI_Datatype dt, int peer, MPI_Op op) {
  nbc_op_t *o = push(s);
  if (!o) return;
  o->kind = k, o->src = src, o->buf = buf, o->count = count, o->dt = dt, o->peer = peer;
  o->op = op;
}

void nbc_send(nbc_sched_t *s, const void *buf, MPI_Aint count, MPI_Datatype dt, int peer) {
  add(s, NBC_SEND, buf, NULL, count, dt, peer, MPI_OP_NULL);
}
void nbc_recv(nbc_sched_t *s, void *buf, MPI_Aint count, MPI_Datatype dt, int peer) {
  add(s, NBC_RECV, NULL, buf, count, dt, peer, MPI_OP_NULL);
}
void nbc_reduce(nbc_sched_t *s, const void *in, void *inout, MPI_Aint count, MPI_Datatype dt,
                MPI_Op op) {
  add(s, NBC_REDUCE, in, inout, count, dt, -1, op);
}
void nbc_copy(nbc_sched_t *s, const void *src, void *dst, MPI_Aint count, MPI_Datatype dt) {
  if (src != dst) add(s, NBC_COPY, src, dst, count, dt, -1, MPI_OP_NULL);
}
void nbc_pack(nbc_sched_t *s, const void *src, MPI_Aint count, MPI_Datatype dt, void *bytes) {
  add(s, NBC_PACK, src, bytes, count, dt, -1, MPI_OP_NULL);
}
void nbc_unpack(nbc_sched_t *s, const void *bytes, void *dst, MPI_Aint count, MPI_Datatype dt) {
  add(s, NBC_UNPACK, bytes, dst, count, dt, -1, MPI_OP_NULL);
}

void nbc_round(nbc_sched_t *s) {
  if (s->err) return;
  const int first = s->nrounds ? s->round_end[s->nrounds - 1] : 0;
  if (s->nops == first) return; /* empty round */
  if (s->nrounds == s->caprounds) {
    int cap = s->caprounds ? 2 * s->caprounds : 8;
    int *r = realloc(s->round_end, (size_t)cap * sizeof *r);
    if (!r) {
      s->err = MPI_ERR_NO_MEM;
      return;
    }
    s->round_end = r, s->caprounds = cap;
  }
  int ncomm = 0;
  for (int i = first; i < s->nops; ++i)
    ncomm += s->ops[i].kind == NBC_SEND || s->ops[i].kind == NBC_RECV;
  if (ncomm > s->maxcomm) {
    MPI_Request *q = realloc(s->reqs, (size_t)ncomm * sizeof *q);
    if (!q) {
      s->err = MPI_ERR_NO_MEM;
      return;
    }
    s->reqs = q, s->maxcomm = ncomm;
  }
  s->round_end[s->nrounds++] = s->nops;
}

void *nbc_alloc(nbc_sched_t *s, MPI_Aint bytes) {
  if (s->err) return NULL;
  if (s->ntmp == s->captmp) {
    int cap = s->captmp ? 2 * s->captmp : 4;
    void **t = realloc(s->tmp, (size_t)cap * sizeof *t);
    if (!t) {
      s->err = MPI_ERR_NO_MEM;
      return NULL;
    }
    s->tmp = t, s->captmp = cap;
  }
  void *p = malloc(bytes > 0 ? (size_t)bytes : 1);
  if (!p) {
    s->err = MPI_ERR_NO_MEM;
    return NULL;
  }
  return s->tmp[s->ntmp++] = p;
}

void *nbc_alloc_elems(nbc_sched_t *s, MPI_Aint count, MPI_Datatype dt) {
  MPI_Aint lb, extent, tlb, textent;
  PMPI_Type_get_extent(dt, &lb, &extent);
  PMPI_Type_get_true_extent(dt, &tlb, &textent);
  if (count <= 0) return nbc_alloc(s, 1);
  MPI_Aint span = textent + (count - 1) * (extent < 0 ? -extent : extent);
  char *p = nbc_alloc(s, span);
  if (!p) return NULL;
  /* the element at index 0 starts true_lb after its address; negative
   * extents place later elements below it */
  MPI_Aint shift = extent < 0 ? (count - 1) * -extent : 0;
  return p - tlb + shift;
}

void nbc_free(nbc_sched_t *s) {
  if (!s) return;
  for (int i = 0; i < s->ntmp; ++i) free(s->tmp[i]);
  free(s->tmp);
  free(s->ops);
  free(s->round_end);
  free(s->reqs);
  free(s);
}
