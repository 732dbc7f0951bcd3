/*
 * Compressed ring allgather (allgather.h arcoll_allgather_compressed; seed
 * 004_045dc3534e1f0a8b.txt, ZipMPI).  Every rank packs its block to bytes
 * and decides for it alone (compress_decide.h: the ring is a chain of P-1
 * hops of one segment, the block's owner is its root), so blocks carry their
 * own codec: one message [4-byte header: codec, codec, 0, 0][bytes] per block
 * and ring step.  Step t: position q sends to q+1 the message of block
 * q - t (its own at t = 0, then the one it received at t - 1, forwarded as
 * received: no recompression) and receives block q - t - 1 from q - 1; it
 * decompresses a block while the next step's transfer runs.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "allgather.h"
#include "bcast_etc_util.h"
#include "compress_decide.h"

#define HDR 4

/* Unpack n packed bytes into block r of recvbuf. */
static int put_block(const char *bytes, int n, void *recvbuf, MPI_Aint recvcount,
                     MPI_Datatype recvtype, MPI_Aint extent, int r, MPI_Comm comm) {
  int pos = 0;
  return MPI_Unpack(bytes, n, &pos, (char *)recvbuf + (MPI_Aint)r * recvcount * extent,
                    (int)recvcount, recvtype, comm);
}

int arcoll_allgather_compressed(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                                void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, const arcoll_sched_t *s) {
  int tsize, rc, *order = NULL, pos, P, n = 0;
  MPI_Aint lb, extent;
  if (recvcount < 0 || recvcount > INT_MAX || sendcount > INT_MAX) return MPI_ERR_COUNT;
  if ((rc = MPI_Type_size(recvtype, &tsize)) != MPI_SUCCESS) return rc;
  if (recvcount == 0 || tsize == 0) return MPI_SUCCESS;
  if ((MPI_Aint)tsize * recvcount > INT_MAX / 2) return MPI_ERR_COUNT;
  MPI_Type_get_extent(recvtype, &lb, &extent);
  if ((rc = arcoll_order_resolve(s, s && s->order ? s->order[0] : 0, comm, &order, &pos, &P)) !=
      MPI_SUCCESS)
    return rc;
  const int me = order[pos], tag = arcoll_sched_tag(s);
  const size_t m = (size_t)tsize * (size_t)recvcount;
  size_t cap = m;
  for (int c = 1; c < ARCOLL_CODEC_COUNT; ++c) {
    size_t b = arcoll_codec_bound((arcoll_codec_t)c, m);
    if (b > cap) cap = b;
  }
  cap += HDR;
  /* own: packed own block; msg[2]: the message sent / received (swapped each step) */
  char *own = malloc(m), *msg[2] = {malloc(cap), malloc(cap)};
  if (!own || !msg[0] || !msg[1]) {
    rc = MPI_ERR_NO_MEM;
    goto out;
  }
  if (sendbuf == MPI_IN_PLACE)
    rc = MPI_Pack((char *)recvbuf + (MPI_Aint)me * recvcount * extent, (int)recvcount, recvtype,
                  own, (int)m, &n, comm);
  else
    rc = MPI_Pack(sendbuf, (int)sendcount, sendtype, own, (int)m, &n, comm);
  if (rc != MPI_SUCCESS) goto out;
  if (sendbuf != MPI_IN_PLACE &&
      (rc = put_block(own, (int)m, recvbuf, recvcount, recvtype, extent, me, comm)) != MPI_SUCCESS)
    goto out;
  if (P > 1) {
    arcoll_compress_decision_t d;
    const arcoll_codec_t codec = arcoll_compress_decide_min(own, (MPI_Aint)m, P, (MPI_Aint)m,
                                                               (MPI_Aint)m * (P - 1), &d);
    arcoll_compress_record(&d);
    size_t len = codec == ARCOLL_CODEC_RAW ? 0 : arcoll_codec_compress(codec, own, m, msg[0] + HDR,
                                                                        cap - HDR);
    msg[0][0] = (char)codec, msg[0][1] = (char)(len ? codec : ARCOLL_CODEC_RAW);
    msg[0][2] = msg[0][3] = 0;
    if (!len) memcpy(msg[0] + HDR, own, len = m);
    int slen = (int)(len + HDR);
    const int next = order[(pos + 1) % P], prev = order[(pos + P - 1) % P];
    MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    /* step t: receive into msg[(t+1)%2], send msg[t%2]; the next step is
     * posted before this step's block is decompressed (overlap) */
    if ((rc = MPI_Irecv(msg[1], (int)cap, MPI_BYTE, prev, tag, comm, &rq[0])) == MPI_SUCCESS)
      rc = MPI_Isend(msg[0], slen, MPI_BYTE, next, tag, comm, &rq[1]);
    for (int t = 0; t < P - 1 && rc == MPI_SUCCESS; ++t) {
      MPI_Status st;
      int cnt = 0;
      char *in = msg[(t + 1) % 2];
      if ((rc = MPI_Wait(&rq[0], &st)) != MPI_SUCCESS) break;
      if ((rc = MPI_Wait(&rq[1], MPI_STATUS_IGNORE)) != MPI_SUCCESS) break;
      MPI_Get_count(&st, MPI_BYTE, &cnt);
      if (cnt < HDR || (unsigned char)in[1] >= ARCOLL_CODEC_COUNT) {
        rc = MPI_ERR_TRUNCATE;
        break;
      }
      if (t + 1 < P - 1) { /* forward what arrived, receive the next block */
        if ((rc = MPI_Irecv(msg[t % 2], (int)cap, MPI_BYTE, prev, tag, comm, &rq[0])) !=
                MPI_SUCCESS ||
            (rc = MPI_Isend(in, cnt, MPI_BYTE, next, tag, comm, &rq[1])) != MPI_SUCCESS)
          break;
      }
      const int from = order[(pos + P - t - 1) % P];
      if (arcoll_codec_decompress((arcoll_codec_t)in[1], in + HDR, (size_t)cnt - HDR, own, m)) {
        rc = MPI_ERR_OTHER; /* corrupt or truncated block */
        break;
      }
      rc = put_block(own, (int)m, recvbuf, recvcount, recvtype, extent, from, comm);
    }
    if (rc != MPI_SUCCESS) { /* nothing may stay posted */
      if (rq[0] != MPI_REQUEST_NULL) MPI_Cancel(&rq[0]), MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
      rc = arcoll_wait_all(1, &rq[1], rc);
    }
  }
out:
  free(own), free(msg[0]), free(msg[1]), free(order);
  return rc;
}
