/* Prologue of the reduce_scatter algorithms; see reduce_scatter_prep.h. */
#include "reduce_scatter_prep.h"

#include <stdlib.h>
#include <string.h>

int arcoll_rsc_begin(const void *sendbuf, void *recvbuf, const MPI_Aint *counts,
                     MPI_Datatype dt, MPI_Comm comm, const arcoll_sched_t *s, int use_order,
                     arcoll_rsc_t *r, int *done) {
  memset(r, 0, sizeof *r);
  int P, rc;
  *done = 1;
  if ((rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS) return rc;
  if (!(r->disp = malloc(sizeof(MPI_Aint) * ((size_t)P + 1)))) return MPI_ERR_NO_MEM;
  r->disp[0] = 0;
  for (int q = 0; q < P; ++q) {
    r->disp[q + 1] = r->disp[q] + counts[q];
    if (counts[q] > r->maxcnt) r->maxcnt = counts[q];
  }
  r->cnt = counts;
  rc = arcoll_red_call_init(r->disp[P], dt, comm, s ? s->tag : 0, &r->c, done);
  if (rc != MPI_SUCCESS || *done) return rc;
  r->in = sendbuf == MPI_IN_PLACE ? (const char *)recvbuf : (const char *)sendbuf;
  if (r->c.P == 1) {
    *done = 1;
    return arcoll_red_copy(r->in, recvbuf, counts[0], dt, &r->c.ti);
  }
  return arcoll_red_pos_map(use_order && s ? s->order : NULL, r->c.P, -1, r->c.me, &r->map,
                            &r->pos);
}

void arcoll_rsc_end(arcoll_rsc_t *r) {
  free(r->disp);
  free(r->map);
  r->disp = NULL;
  r->map = NULL;
}
