/* Rabenseifner allreduce: recursive-halving reduce-scatter + recursive-doubling
 * allgather (Rabenseifner 2004; Thakur, Rabenseifner, Gropp 2005), in either
 * dimension order (reduce_scatter_halving.h).  See allreduce.h. */
#include <stdlib.h>

#include "allreduce.h"
#include "reduce_scatter_halving.h"
#include "reduce_util.h"

static int rabenseifner(const void *sendbuf, void *recvbuf, MPI_Aint count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const arcoll_sched_t *s,
                        int order) {
  int rc, done;
  arcoll_red_call_t c;
  if (!arcoll_red_op_commutative(op)) return MPI_ERR_OP;
  if ((rc = arcoll_red_begin(sendbuf, recvbuf, count, datatype, comm, s, 1, &c, &done)) !=
          MPI_SUCCESS ||
      done)
    return rc;
  const int P = c.P, me = c.me, tag = c.tag;
  const arcoll_red_typeinfo_t ti = c.ti;
  int *map = NULL, *nrank = NULL, mypos;
  if ((rc = arcoll_red_pos_map(s ? s->order : NULL, P, -1, me, &map, &mypos)) != MPI_SUCCESS)
    return rc;
  arcoll_red_tmpbuf_t T = {0};
  if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &T)) != MPI_SUCCESS) goto done;
  const int P2 = arcoll_floor_pow2(P), rem = P - P2;
  nrank = malloc(sizeof(int) * (size_t)P2);
  if (!nrank) { rc = MPI_ERR_NO_MEM; goto done; }
  for (int i = 0; i < P2; ++i) nrank[i] = map[i < rem ? 2 * i + 1 : i + rem];
  int newpos;
  if (mypos < 2 * rem) { /* fold: even -> odd */
    if (mypos % 2 == 0) {
      rc = arcoll_red_send(recvbuf, count, map[mypos + 1], datatype, &ti, tag, comm);
      newpos = -1;
    } else {
      rc = arcoll_red_recv(T.buf, count, map[mypos - 1], datatype, &ti, tag, comm);
      if (rc == MPI_SUCCESS) rc = arcoll_red_local(T.buf, recvbuf, count, datatype, op, &ti);
      newpos = mypos / 2;
    }
    if (rc != MPI_SUCCESS) goto done;
  } else {
    newpos = mypos - rem;
  }
  if (newpos >= 0) {
    rc = arcoll_reduce_scatter_halving(recvbuf, T.buf, count, datatype, op, &ti, newpos, P2,
                                       nrank, order, tag, comm, s ? s->step_s : NULL);
    if (rc != MPI_SUCCESS) goto done;
    /* Allgather by recursive doubling: the halving steps undone in reverse,
     * each member sending the range it held after step i + 1 and receiving
     * its partner's (the other half of the range after step i). */
    for (int i = arcoll_rs_steps(P2) - 1; i >= 0; --i) {
      int pnew = newpos ^ arcoll_rs_mask(P2, order, i), lo, hi, plo, phi;
      arcoll_rs_range(P2, order, newpos, i + 1, &lo, &hi);
      arcoll_rs_range(P2, order, pnew, i + 1, &plo, &phi);
      MPI_Aint sd = arcoll_rs_block(count, P2, lo), sn = arcoll_rs_block(count, P2, hi) - sd;
      MPI_Aint rd = arcoll_rs_block(count, P2, plo), rn = arcoll_rs_block(count, P2, phi) - rd;
      rc = arcoll_red_sendrecv(ARCOLL_RED_ELEM(recvbuf, sd, &ti), sn, nrank[pnew],
                               ARCOLL_RED_ELEM(recvbuf, rd, &ti), rn, nrank[pnew], datatype, &ti,
                               tag, comm);
      if (rc != MPI_SUCCESS) goto done;
    }
  }
  if (mypos < 2 * rem) { /* unfold: odd -> even */
    if (mypos % 2) rc = arcoll_red_send(recvbuf, count, map[mypos - 1], datatype, &ti, tag, comm);
    else rc = arcoll_red_recv(recvbuf, count, map[mypos + 1], datatype, &ti, tag, comm);
  }
done:
  arcoll_red_tmpbuf_free(&T);
  free(nrank);
  free(map);
  return rc;
}

int arcoll_allreduce_rabenseifner(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  const arcoll_sched_t *s) {
  return rabenseifner(sendbuf, recvbuf, count, datatype, op, comm, s, ARCOLL_RS_NEAR_FIRST);
}

int arcoll_allreduce_rabenseifner_far(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      const arcoll_sched_t *s) {
  return rabenseifner(sendbuf, recvbuf, count, datatype, op, comm, s, ARCOLL_RS_FAR_FIRST);
}
