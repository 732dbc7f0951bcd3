/* The detaching reduce's state and its parent's rule (reduce_detach.h); the
 * tree body is reduce_knomial_detach.c. */
#include "reduce_detach.h"

#include <stdlib.h>

int arcoll_red_detach_room(char **buf, size_t *cap, size_t bytes) {
  if (bytes <= *cap) return MPI_SUCCESS;
  char *b = realloc(*buf, bytes);
  if (!b) return MPI_ERR_NO_MEM;
  *buf = b, *cap = bytes;
  return MPI_SUCCESS;
}

int arcoll_red_detach_init(arcoll_red_detach_t *d, int P, int mypos, int parent_rank,
                           double late_s, int calls_needed, int tag, MPI_Comm comm) {
  *d = (arcoll_red_detach_t){0};
  d->P = P, d->asked = -1, d->late_s = late_s;
  d->calls_needed = calls_needed >= 1 ? calls_needed : 1;
  d->tag = tag, d->comm = comm, d->notice = MPI_REQUEST_NULL, d->sent = MPI_REQUEST_NULL;
  d->view = calloc((size_t)P, 1);
  d->late = calloc((size_t)P, sizeof *d->late);
  d->child = malloc(sizeof(int) * (size_t)P);
  d->out = malloc(sizeof(int) * (size_t)(P + 2));
  d->req = malloc(sizeof(MPI_Request) * (size_t)P);
  if (!d->view || !d->late || !d->child || !d->out || !d->req) {
    arcoll_red_detach_free(d);
    return MPI_ERR_NO_MEM;
  }
  int rc = MPI_SUCCESS;
  if (mypos > 0 && parent_rank >= 0)
    rc = PMPI_Irecv(&d->notice_buf, 1, MPI_INT, parent_rank, tag, comm, &d->notice);
  if (rc != MPI_SUCCESS) arcoll_red_detach_free(d);
  return rc;
}

void arcoll_red_detach_free(arcoll_red_detach_t *d) {
  if (d->notice != MPI_REQUEST_NULL) { /* never came: cancelled (or it completes now) */
    int done = 0;
    PMPI_Test(&d->notice, &done, MPI_STATUS_IGNORE);
    if (!done) {
      PMPI_Cancel(&d->notice);
      PMPI_Wait(&d->notice, MPI_STATUS_IGNORE);
    }
  }
  /* a notice the child never took: a small eager send, complete locally */
  if (d->sent != MPI_REQUEST_NULL) PMPI_Wait(&d->sent, MPI_STATUS_IGNORE);
  free(d->view), free(d->late), free(d->child), free(d->out), free(d->req);
  free(d->rbuf), free(d->sbuf);
  d->view = NULL, d->late = NULL, d->child = NULL, d->out = NULL, d->req = NULL;
  d->rbuf = NULL, d->sbuf = NULL, d->rbuf_cap = 0, d->sbuf_cap = 0;
}

int arcoll_red_detach_observe(arcoll_red_detach_t *d, int c, double waited_s, int c_waited) {
  if (c <= 0 || c >= d->P || d->view[c]) return 0;
  if (!(waited_s > d->late_s) || c_waited) {
    d->late[c] = 0;
    return 0;
  }
  if (d->late[c] < 0xffff) ++d->late[c];
  /* one notice at a time: the next once the child asked before has detached */
  return (d->asked < 0 || d->view[d->asked]) && d->late[c] >= d->calls_needed &&
         d->children_detached < ARCOLL_RED_DETACH_PER_PARENT;
}
