/* Helpers of the reduce/allreduce/scan algorithms; see reduce_util.h. */
#include "reduce_util.h"
#include "tree_extra.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int arcoll_red_typeinfo(MPI_Datatype dt, arcoll_red_typeinfo_t *ti) {
  int rc;
  if ((rc = MPI_Type_size(dt, &ti->size)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_get_extent(dt, &ti->lb, &ti->extent)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_get_true_extent(dt, &ti->true_lb, &ti->true_extent)) != MPI_SUCCESS)
    return rc;
  /* Contiguous: the type is a dense block and consecutive elements abut.  A
   * dense block is assumed only for predefined-looking layouts (size equals
   * true extent equals extent); a struct with holes has size < true extent. */
  ti->contiguous = ti->size == ti->true_extent && ti->extent == ti->true_extent &&
                   ti->size > 0;
  return MPI_SUCCESS;
}

int arcoll_red_tmpbuf_alloc(const arcoll_red_typeinfo_t *ti, MPI_Aint count, arcoll_red_tmpbuf_t *t) {
  t->buf = t->raw = NULL;
  /* the bytes count elements touch: from buf + lo, `bytes` long (a negative
   * extent puts the last element lowest) */
  const MPI_Aint n1 = count > 0 ? count - 1 : 0;
  const MPI_Aint lo = ti->true_lb + (ti->extent < 0 ? n1 * ti->extent : 0);
  MPI_Aint bytes = count > 0 ? ti->true_extent + n1 * (ti->extent < 0 ? -ti->extent : ti->extent) : 0;
  if (bytes < 0) bytes = 0;
  t->raw = malloc((size_t)bytes + 1); /* at least 1 */
  if (!t->raw) return MPI_ERR_NO_MEM;
  t->buf = (char *)t->raw - lo;
  return MPI_SUCCESS;
}

void arcoll_red_tmpbuf_free(arcoll_red_tmpbuf_t *t) {
  free(t->raw);
  t->raw = t->buf = NULL;
}

int arcoll_red_copy(const void *src, void *dst, MPI_Aint count, MPI_Datatype dt,
                      const arcoll_red_typeinfo_t *ti) {
  if (count <= 0 || src == dst || ti->size == 0) return MPI_SUCCESS;
  if (ti->contiguous) {
    memcpy((char *)dst + ti->true_lb, (const char *)src + ti->true_lb,
           (size_t)count * (size_t)ti->size);
    return MPI_SUCCESS;
  }
  /* Pack/unpack through a bounded staging buffer (about 1 MiB). */
  MPI_Aint chunk = (1 << 20) / ti->size;
  if (chunk < 1) chunk = 1;
  if (chunk > count) chunk = count;
  if (chunk > INT_MAX) chunk = INT_MAX;
  int psize = 0, rc = MPI_Pack_size((int)chunk, dt, MPI_COMM_SELF, &psize);
  if (rc != MPI_SUCCESS) return rc;
  char *stage = malloc((size_t)psize + 1);
  if (!stage) return MPI_ERR_NO_MEM;
  for (MPI_Aint done = 0; done < count && rc == MPI_SUCCESS; done += chunk) {
    int n = (int)(count - done < chunk ? count - done : chunk), pos = 0;
    rc = MPI_Pack(ARCOLL_RED_ELEM(src, done, ti), n, dt, stage, psize, &pos, MPI_COMM_SELF);
    if (rc != MPI_SUCCESS) break;
    int upos = 0;
    rc = MPI_Unpack(stage, pos, &upos, ARCOLL_RED_ELEM(dst, done, ti), n, dt, MPI_COMM_SELF);
  }
  free(stage);
  return rc;
}

int arcoll_red_local(const void *in, void *inout, MPI_Aint count, MPI_Datatype dt,
                        MPI_Op op, const arcoll_red_typeinfo_t *ti) {
  int rc = MPI_SUCCESS;
  for (MPI_Aint done = 0; done < count && rc == MPI_SUCCESS; done += INT_MAX) {
    MPI_Aint n = count - done < INT_MAX ? count - done : INT_MAX;
    rc = MPI_Reduce_local(ARCOLL_RED_ELEM(in, done, ti), ARCOLL_RED_ELEM(inout, done, ti), (int)n,
                          dt, op);
  }
  return rc;
}

int arcoll_red_op_commutative(MPI_Op op) {
  int c = 0;
  if (MPI_Op_commutative(op, &c) != MPI_SUCCESS) return 0;
  return c;
}

int arcoll_red_pos_map(const int *order, int P, int root, int me, int **map, int *mypos) {
  int *m = malloc(sizeof(int) * (size_t)(P > 0 ? P : 1));
  if (!m) return MPI_ERR_NO_MEM;
  int r0 = root < 0 ? 0 : root;
  *mypos = -1;
  if (order) {
    char *seen = calloc((size_t)P, 1);
    if (!seen) { free(m); return MPI_ERR_NO_MEM; }
    for (int i = 0; i < P; ++i) {
      int r = order[i];
      if (r < 0 || r >= P || seen[r]) { free(seen); free(m); return MPI_ERR_ARG; }
      seen[r] = 1;
      m[i] = r;
    }
    free(seen);
    if (root >= 0 && P > 0 && order[0] != root) { free(m); return MPI_ERR_ARG; }
  } else {
    for (int i = 0; i < P; ++i) m[i] = (r0 + i) % P;
  }
  for (int i = 0; i < P; ++i)
    if (m[i] == me) *mypos = i;
  if (*mypos < 0) { free(m); return MPI_ERR_ARG; }
  *map = m;
  return MPI_SUCCESS;
}

static int piece(MPI_Aint count, MPI_Aint done) {
  MPI_Aint n = count - done;
  return (int)(n < INT_MAX ? n : INT_MAX);
}

int arcoll_red_sendrecv(const void *sbuf, MPI_Aint scount, int dst, void *rbuf,
                        MPI_Aint rcount, int src, MPI_Datatype dt, const arcoll_red_typeinfo_t *ti,
                        int tag, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  MPI_Aint sd = 0, rd = 0;
  do { /* at least one exchange even when both counts are 0 (keeps partners matched) */
    int sn = sd < scount ? piece(scount, sd) : 0, rn = rd < rcount ? piece(rcount, rd) : 0;
    rc = MPI_Sendrecv(ARCOLL_RED_ELEM(sbuf, sd, ti), sn, dt, dst, tag, ARCOLL_RED_ELEM(rbuf, rd, ti),
                      rn, dt, src, tag, comm, MPI_STATUS_IGNORE);
    sd += sn;
    rd += rn;
  } while (rc == MPI_SUCCESS && (sd < scount || rd < rcount));
  return rc;
}

int arcoll_red_send(const void *buf, MPI_Aint count, int dst, MPI_Datatype dt,
                    const arcoll_red_typeinfo_t *ti, int tag, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  MPI_Aint d = 0;
  do {
    int n = piece(count, d);
    rc = MPI_Send(ARCOLL_RED_ELEM(buf, d, ti), n, dt, dst, tag, comm);
    d += n;
  } while (rc == MPI_SUCCESS && d < count);
  return rc;
}

int arcoll_red_recv(void *buf, MPI_Aint count, int src, MPI_Datatype dt,
                    const arcoll_red_typeinfo_t *ti, int tag, MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  MPI_Aint d = 0;
  do {
    int n = piece(count, d);
    rc = MPI_Recv(ARCOLL_RED_ELEM(buf, d, ti), n, dt, src, tag, comm, MPI_STATUS_IGNORE);
    d += n;
  } while (rc == MPI_SUCCESS && d < count);
  return rc;
}

int arcoll_red_call_init(MPI_Aint count, MPI_Datatype dt, MPI_Comm comm, int tag,
                         arcoll_red_call_t *c, int *done) {
  int rc;
  *done = 1;
  if (count <= 0) return MPI_SUCCESS;
  if ((rc = MPI_Comm_size(comm, &c->P)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Comm_rank(comm, &c->me)) != MPI_SUCCESS) return rc;
  if ((rc = arcoll_red_typeinfo(dt, &c->ti)) != MPI_SUCCESS) return rc;
  if (c->ti.size == 0) return MPI_SUCCESS;
  c->tag = tag;
  *done = 0;
  return MPI_SUCCESS;
}

int arcoll_red_begin(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                     MPI_Comm comm, const arcoll_sched_t *s, int allreduce,
                     arcoll_red_call_t *c, int *done) {
  int rc = arcoll_red_call_init(count, dt, comm, s ? s->tag : 0, c, done);
  if (rc != MPI_SUCCESS || *done) return rc;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if ((allreduce || c->P == 1) &&
      (rc = arcoll_red_copy(in, recvbuf, count, dt, &c->ti)) != MPI_SUCCESS)
    return rc;
  *done = c->P == 1;
  return MPI_SUCCESS;
}

int arcoll_red_tree_begin(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                          MPI_Op op, int root, MPI_Comm comm, const arcoll_sched_t *s,
                          arcoll_red_tree_call_t *t, int *done) {
  t->map = NULL;
  int rc = arcoll_red_begin(sendbuf, recvbuf, count, dt, comm, s, 0, &t->c, done);
  if (rc != MPI_SUCCESS || *done) return rc;
  t->in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  t->commut = arcoll_red_op_commutative(op);
  t->mypos = t->c.me;
  t->top_is_root = t->commut || root == 0;
  if (t->commut) /* tree over the positions of the order, root at position 0 */
    return arcoll_red_pos_map(s ? s->order : NULL, t->c.P, root, t->c.me, &t->map, &t->mypos);
  return MPI_SUCCESS;
}

int arcoll_red_knomial_links(int mypos, int P, int k, const unsigned char *det, int *child,
                             int *parent) {
  int n = 0;
  *parent = mypos > 0 ? (det && det[mypos] ? 0 : arcoll_knomial_parent_pos(mypos, k)) : -1;
  for (long u = 1; u < P && mypos % (u * k) == 0; u *= k)
    for (int j = 1; j < k; ++j) {
      const long c = mypos + j * u;
      if (c < P && !(det && det[c])) {
        if (child) child[n] = (int)c;
        ++n;
      }
    }
  if (det && mypos == 0)
    for (int p = 1; p < P; ++p)
      if (det[p]) {
        if (child) child[n] = p;
        ++n;
      }
  return n;
}
