/* Ring allreduce, segmented in phases (Thakur et al. 2005; Open MPI
 * ring_segmented).  See allreduce.h. */
#include <stdlib.h>

#include "allreduce.h"
#include "bcast_tree.h" /* arcoll_segment_count */
#include "reduce_scatter_halving.h" /* arcoll_rs_block */
#include "reduce_util.h"

int arcoll_allreduce_ring(const void *sendbuf, void *recvbuf, MPI_Aint count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                          const arcoll_sched_t *s) {
  int rc, done;
  arcoll_red_call_t c;
  if (!arcoll_red_op_commutative(op)) return MPI_ERR_OP;
  if ((rc = arcoll_red_begin(sendbuf, recvbuf, count, datatype, comm, s, 1, &c, &done)) !=
          MPI_SUCCESS ||
      done)
    return rc;
  const int P = c.P, me = c.me, tag = c.tag;
  const arcoll_red_typeinfo_t ti = c.ti;
  int *map = NULL, mypos;
  if ((rc = arcoll_red_pos_map(s ? s->order : NULL, P, -1, me, &map, &mypos)) != MPI_SUCCESS)
    return rc;
  const int right = map[(mypos + 1) % P], left = map[(mypos + P - 1) % P];
  /* phase length: P segments, or the whole message when unsegmented */
  MPI_Aint phase = count;
  if (s && s->segment_bytes > 0) {
    MPI_Aint sc = arcoll_segment_count(s->segment_bytes, ti.size, count);
    if (sc < count / P + 1) phase = sc * P;
  }
  arcoll_red_tmpbuf_t T = {0};
  MPI_Aint maxblk = (phase < count ? phase : count) / P + 1;
  if ((rc = arcoll_red_tmpbuf_alloc(&ti, maxblk, &T)) != MPI_SUCCESS) goto done;
  for (MPI_Aint off = 0; off < count; off += phase) {
    MPI_Aint n = count - off < phase ? count - off : phase;
    char *base = ARCOLL_RED_ELEM(recvbuf, off, &ti);
#define BD(b) arcoll_rs_block(n, P, (b))
#define BN(b) (arcoll_rs_block(n, P, (b) + 1) - arcoll_rs_block(n, P, (b)))
    for (int step = 0; step < P - 1; ++step) { /* reduce-scatter */
      int sb = ((mypos - step) % P + P) % P, rb = ((mypos - step - 1) % P + P) % P;
      rc = arcoll_red_sendrecv(ARCOLL_RED_ELEM(base, BD(sb), &ti), BN(sb), right, T.buf, BN(rb),
                               left, datatype, &ti, tag, comm);
      if (rc != MPI_SUCCESS) goto done;
      rc = arcoll_red_local(T.buf, ARCOLL_RED_ELEM(base, BD(rb), &ti), BN(rb), datatype, op, &ti);
      if (rc != MPI_SUCCESS) goto done;
    }
    for (int step = 0; step < P - 1; ++step) { /* allgather */
      int sb = ((mypos + 1 - step) % P + P) % P, rb = ((mypos - step) % P + P) % P;
      rc = arcoll_red_sendrecv(ARCOLL_RED_ELEM(base, BD(sb), &ti), BN(sb), right,
                               ARCOLL_RED_ELEM(base, BD(rb), &ti), BN(rb), left, datatype, &ti, tag,
                               comm);
      if (rc != MPI_SUCCESS) goto done;
    }
#undef BD
#undef BN
  }
done:
  arcoll_red_tmpbuf_free(&T);
  free(map);
  return rc;
}
