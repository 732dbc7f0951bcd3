/* Prologue of the reduce_scatter_block algorithms; see
 * reduce_scatter_block_prep.h. */
#include "reduce_scatter_block_prep.h"

#include <string.h>

int arcoll_rsb_begin(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                     MPI_Comm comm, const arcoll_sched_t *s, int use_order, arcoll_rsb_t *r,
                     int *done) {
  memset(r, 0, sizeof *r);
  int rc = arcoll_red_call_init(count, dt, comm, s ? s->tag : 0, &r->c, done);
  if (rc != MPI_SUCCESS || *done) return rc;
  r->in = sendbuf == MPI_IN_PLACE ? (const char *)recvbuf : (const char *)sendbuf;
  r->blk = count * r->c.ti.extent;
  if (r->c.P == 1) {
    *done = 1;
    return arcoll_red_copy(r->in, recvbuf, count, dt, &r->c.ti);
  }
  return arcoll_red_pos_map(use_order && s ? s->order : NULL, r->c.P, -1, r->c.me, &r->map,
                            &r->pos);
}
