/* The k-nomial reduce (reduce_knomial.c) whose late ranks are detached by
 * their tree parent (reduce_detach.h): MPI_PACKED messages, the data then,
 * when something is announced, n and n ints. */
#include <stdlib.h>

#include "reduce_detach.h"
#include "tree_extra.h"

/* One received message: its data into `data` (count x dt), its trailer into
 * out[*nout..] (announced positions, forwarded up) and *waited (the marker). */
static int unpack_msg(const char *msg, int n, void *data, MPI_Aint count, MPI_Datatype dt,
                      MPI_Comm comm, int P, int *out, int *nout, int *waited) {
  int pos = 0, ne = 0, rc = PMPI_Unpack(msg, n, &pos, data, (int)count, dt, comm);
  *waited = 0;
  if (rc != MPI_SUCCESS || pos >= n) return rc;
  if ((rc = PMPI_Unpack(msg, n, &pos, &ne, 1, MPI_INT, comm)) != MPI_SUCCESS) return rc;
  for (int e = 0; e < ne && rc == MPI_SUCCESS; ++e) {
    int v = 0;
    rc = PMPI_Unpack(msg, n, &pos, &v, 1, MPI_INT, comm);
    if (v == ARCOLL_RED_DETACH_WAITED) *waited = 1;
    else if (v > 0 && v < P && *nout < P) out[(*nout)++] = v;
  }
  return rc;
}

int arcoll_reduce_knomial_detach(const arcoll_red_tree_call_t *tc, void *recvbuf, MPI_Aint count,
                                 MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int k,
                                 arcoll_red_detach_t *d) {
  const int P = tc->c.P, tag = tc->c.tag, mypos = tc->mypos, *map = tc->map;
  const arcoll_red_typeinfo_t ti = tc->c.ti;
  int rc, psize = 0, isize = 0;
  if ((rc = PMPI_Pack_size((int)count, dt, comm, &psize)) != MPI_SUCCESS) return rc;
  if ((rc = PMPI_Pack_size(1, MPI_INT, comm, &isize)) != MPI_SUCCESS) return rc;
  const int room = psize + isize * (P + 2); /* n, up to P announcements and the marker */
  const int me_detached = mypos > 0 && d->view[mypos];
  int parent = -1, nout = 0, waited_any = 0;
  int *child = d->child, *out = d->out;
  MPI_Request *req = d->req;
  char *rbuf = NULL;
  arcoll_red_tmpbuf_t A = {0}, T = {0};
  void *acc = (void *)tc->in;
  /* tree children not detached, then at position 0 the detached (the view as `det`) */
  const int nchild = arcoll_red_knomial_links(mypos, P, k, d->view, child, &parent);
  for (int i = 0; i < nchild; ++i) req[i] = MPI_REQUEST_NULL;
  if (nchild && (rc = arcoll_red_detach_room(&d->rbuf, &d->rbuf_cap, (size_t)nchild * (size_t)room)) !=
                    MPI_SUCCESS)
    goto done;
  rbuf = d->rbuf;
  for (int i = 0; i < nchild; ++i)
    if ((rc = PMPI_Irecv(rbuf + (size_t)i * room, room, MPI_PACKED, map[child[i]], tag, comm,
                         &req[i])) != MPI_SUCCESS)
      goto done;
  if (mypos == 0) { /* the root (commutative op: position 0) accumulates in recvbuf */
    if ((rc = arcoll_red_copy(tc->in, recvbuf, count, dt, &ti)) != MPI_SUCCESS) goto done;
    acc = recvbuf;
  } else if (nchild) {
    if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &A)) != MPI_SUCCESS) goto done;
    if ((rc = arcoll_red_copy(tc->in, A.buf, count, dt, &ti)) != MPI_SUCCESS) goto done;
    acc = A.buf;
  }
  if (nchild && (rc = arcoll_red_tmpbuf_alloc(&ti, count, &T)) != MPI_SUCCESS) goto done;
  /* the waits of an inner node, child by child (the root asks nobody and sends no marker:
   * untimed); one clock reading per child, each wait counted from the previous one */
  const int sampled = d->calls++ % ARCOLL_RED_DETACH_SAMPLE == 0; /* the same calls everywhere */
  const int timed = mypos > 0 && nchild > 0 && (sampled || d->watching);
  int late_child = 0;
  double t_prev = timed ? PMPI_Wtime() : 0.0;
  for (int i = 0; i < nchild; ++i) {
    MPI_Status status;
    int n = 0, c_waited = 0;
    if ((rc = PMPI_Wait(&req[i], &status)) != MPI_SUCCESS) goto done;
    double waited = 0.0;
    if (timed) {
      const double t = PMPI_Wtime();
      waited = t - t_prev, t_prev = t;
    }
    if ((rc = PMPI_Get_count(&status, MPI_PACKED, &n)) != MPI_SUCCESS) goto done;
    rc = unpack_msg(rbuf + (size_t)i * room, n, T.buf, count, dt, comm, P, out, &nout, &c_waited);
    if (rc != MPI_SUCCESS) goto done;
    if ((rc = arcoll_red_local(T.buf, acc, count, dt, op, &ti)) != MPI_SUCCESS) goto done;
    if (waited > d->late_s) waited_any = 1;
    if (!timed) continue;
    late_child |= waited > d->late_s && !c_waited;
    /* a tree child's lateness (the root's children hold only the root: none asked) */
    if (arcoll_red_detach_observe(d, child[i], waited, c_waited)) {
      /* the last notice (one int, eager) has left long before; its buffer is reused */
      if (d->sent != MPI_REQUEST_NULL && (rc = PMPI_Wait(&d->sent, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
        goto done;
      d->asked = child[i], d->sent_buf = 1;
      if ((rc = PMPI_Isend(&d->sent_buf, 1, MPI_INT, map[child[i]], d->tag, d->comm, &d->sent)) !=
          MPI_SUCCESS)
        goto done;
    }
  }
  if (timed) d->watching = late_child;
  if (mypos > 0 && !me_detached && d->notice != MPI_REQUEST_NULL) { /* my parent's notice */
    int got = 0;
    if ((rc = PMPI_Test(&d->notice, &got, MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto done;
    if (got && nout < P) out[nout++] = mypos;
  }
  if (waited_any) out[nout++] = ARCOLL_RED_DETACH_WAITED;
  if (mypos > 0) {
    const int size = psize + (nout ? isize * (nout + 1) : 0);
    int pos = 0;
    if ((rc = arcoll_red_detach_room(&d->sbuf, &d->sbuf_cap, (size_t)size)) != MPI_SUCCESS) goto done;
    char *sbuf = d->sbuf;
    rc = PMPI_Pack(acc, (int)count, dt, sbuf, size, &pos, comm);
    if (rc == MPI_SUCCESS && nout) rc = PMPI_Pack(&nout, 1, MPI_INT, sbuf, size, &pos, comm);
    if (rc == MPI_SUCCESS && nout) rc = PMPI_Pack(out, nout, MPI_INT, sbuf, size, &pos, comm);
    if (rc == MPI_SUCCESS) rc = PMPI_Send(sbuf, pos, MPI_PACKED, map[parent], tag, comm);
    if (rc != MPI_SUCCESS) goto done;
  }
  /* from the next call on: every announced position sends to position 0 - the root takes
   * them all, a parent stops waiting for its own children (a child announces only itself);
   * my own announcement is among them */
  for (int e = 0; e < nout; ++e) {
    const int a = out[e], ap = a > 0 ? arcoll_knomial_parent_pos(a, k) : -1;
    if (a > 0 && !d->view[a] && (mypos == 0 || ap == mypos || a == mypos)) {
      d->view[a] = 1, ++d->detached;
      if (mypos > 0 && ap == mypos) ++d->children_detached;
    }
  }
done:
  for (int i = 0; i < nchild; ++i)
    if (req[i] != MPI_REQUEST_NULL) { /* only after an error */
      PMPI_Cancel(&req[i]);
      PMPI_Wait(&req[i], MPI_STATUS_IGNORE);
    }
  arcoll_red_tmpbuf_free(&A);
  arcoll_red_tmpbuf_free(&T);
  return rc;
}
