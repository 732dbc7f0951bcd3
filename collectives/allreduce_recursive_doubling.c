/* Recursive-doubling allreduce (Thakur, Rabenseifner, Gropp 2005; MPICH
 * MPIR_Allreduce_intra_recursive_doubling).  See allreduce.h. */
#include <stdlib.h>

#include "allreduce.h"
#include "reduce_util.h"

int arcoll_allreduce_recursive_doubling(const void *sendbuf, void *recvbuf, MPI_Aint count,
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                        const arcoll_sched_t *s) {
  int rc, done;
  arcoll_red_call_t c;
  if ((rc = arcoll_red_begin(sendbuf, recvbuf, count, datatype, comm, s, 1, &c, &done)) !=
          MPI_SUCCESS ||
      done)
    return rc;
  const int P = c.P, me = c.me, tag = c.tag;
  const arcoll_red_typeinfo_t ti = c.ti;
  const int commut = arcoll_red_op_commutative(op);
  int *map = NULL, mypos = me;
  if (commut && (rc = arcoll_red_pos_map(s ? s->order : NULL, P, -1, me, &map, &mypos)) != MPI_SUCCESS)
    return rc;
#define RANK(p) (map ? map[p] : (p))
  arcoll_red_tmpbuf_t T = {0};
  if ((rc = arcoll_red_tmpbuf_alloc(&ti, count, &T)) != MPI_SUCCESS) goto done;
  void *acc = recvbuf, *tmp = T.buf;
  const int P2 = arcoll_floor_pow2(P), rem = P - P2;
  int newpos;
  /* Fold: even position 2i sends to 2i+1, which computes x_2i op x_2i+1. */
  if (mypos < 2 * rem) {
    if (mypos % 2 == 0) {
      if ((rc = arcoll_red_send(acc, count, RANK(mypos + 1), datatype, &ti, tag, comm)) != MPI_SUCCESS)
        goto done;
      newpos = -1;
    } else {
      if ((rc = arcoll_red_recv(tmp, count, RANK(mypos - 1), datatype, &ti, tag, comm)) != MPI_SUCCESS)
        goto done;
      if ((rc = arcoll_red_local(tmp, acc, count, datatype, op, &ti)) != MPI_SUCCESS) goto done;
      newpos = mypos / 2;
    }
  } else {
    newpos = mypos - rem;
  }
  if (newpos >= 0) {
    for (int mask = 1; mask < P2; mask <<= 1) {
      int np = newpos ^ mask;
      int ppos = np < rem ? 2 * np + 1 : np + rem;
      rc = arcoll_red_sendrecv(acc, count, RANK(ppos), tmp, count, RANK(ppos), datatype, &ti,
                               tag, comm);
      if (rc != MPI_SUCCESS) goto done;
      if (commut || ppos < mypos) { /* partner holds lower ranks: tmp op acc */
        rc = arcoll_red_local(tmp, acc, count, datatype, op, &ti);
      } else { /* acc op tmp, result left in tmp: swap */
        rc = arcoll_red_local(acc, tmp, count, datatype, op, &ti);
        void *x = acc; acc = tmp; tmp = x;
      }
      if (rc != MPI_SUCCESS) goto done;
    }
  }
  /* Unfold: odd positions return the result to their even partner. */
  if (mypos < 2 * rem) {
    if (mypos % 2) rc = arcoll_red_send(acc, count, RANK(mypos - 1), datatype, &ti, tag, comm);
    else rc = arcoll_red_recv(recvbuf, count, RANK(mypos + 1), datatype, &ti, tag, comm);
    if (rc != MPI_SUCCESS) goto done;
  }
  if (newpos >= 0 && acc != recvbuf) rc = arcoll_red_copy(acc, recvbuf, count, datatype, &ti);
done:
#undef RANK
  arcoll_red_tmpbuf_free(&T);
  free(map);
  return rc;
}
