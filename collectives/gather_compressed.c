/*
 * Compressed linear gather (gather.h arcoll_gather_compressed; seed
 * 004_045dc3534e1f0a8b.txt, ZipMPI).  Every non-root rank packs its block
 * (derived types: MPI_Pack), decides for it alone (compress_decide.h, gather
 * shape: its block is one of the P-1 that cross the root's link together;
 * each sender compresses its own once, the root decompresses them one
 * after another), and sends it to the root as one block message
 * (compress_block.h: header with codec and compressed length).  The root
 * keeps up to ARCOLL_GATHER_COMPRESSED_WINDOW receives posted (in the order
 * of positions after it), decodes each message as it completes
 * (MPI_Waitany) straight into its block of recvbuf (through a scratch block
 * and MPI_Unpack for a non-contiguous recvtype), and reposts the slot for
 * the next source, so decompression overlaps the remaining transfers.
 */
#include <limits.h>
#include <stdlib.h>

#include "bcast_etc_util.h"
#include "compress_block.h"
#include "compress_decide.h"
#include "gather.h"

/* Non-root: pack, decide, encode and send the block of m bytes. */
static int send_block(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype, size_t m,
                      int P, int root, int tag, MPI_Comm comm) {
  const size_t cap = arcoll_zblock_cap(ARCOLL_CODEC_ZSTD, m) > arcoll_zblock_cap(ARCOLL_CODEC_LZ4, m)
                         ? arcoll_zblock_cap(ARCOLL_CODEC_ZSTD, m)
                         : arcoll_zblock_cap(ARCOLL_CODEC_LZ4, m);
  char *own = malloc(m), *msg = malloc(cap);
  int rc = MPI_SUCCESS, pos = 0;
  if (!own || !msg) rc = MPI_ERR_NO_MEM;
  else rc = MPI_Pack(sendbuf, (int)sendcount, sendtype, own, (int)m, &pos, comm);
  if (rc == MPI_SUCCESS) {
    const arcoll_compress_shape_t sh = {1, P - 1, 0, 1};
    arcoll_compress_decision_t d;
    arcoll_codec_t codec =
        arcoll_compress_decide_shape(own, (MPI_Aint)m, (MPI_Aint)m, &sh, (MPI_Aint)m * (P - 1), &d);
    if (m > ARCOLL_CODEC_MAX_BYTES) codec = d.codec = ARCOLL_CODEC_RAW; /* beyond the codecs */
    arcoll_compress_record(&d);
    const size_t len = arcoll_zblock_encode(codec, own, m, msg, cap);
    rc = MPI_Send(msg, (int)len, MPI_BYTE, root, tag, comm);
  }
  free(own), free(msg);
  return rc;
}

/* Root: receive and decode the P-1 other blocks, window slots at a time. */
static int recv_blocks(void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, size_t m,
                       int P, int root, int tag, MPI_Comm comm) {
  const int nslot = P - 1 < ARCOLL_GATHER_COMPRESSED_WINDOW ? P - 1 : ARCOLL_GATHER_COMPRESSED_WINDOW;
  const size_t cap = ARCOLL_ZBLOCK_HDR + m; /* the largest message (compress_block.h) */
  MPI_Aint lb, extent;
  MPI_Type_get_extent(recvtype, &lb, &extent);
  char *stage = malloc(cap * (size_t)nslot), *tmp = malloc(m);
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)nslot);
  int *src = malloc(sizeof(int) * (size_t)nslot), rc = MPI_SUCCESS, next = 1, done = 0;
  if (!stage || !tmp || !req || !src) rc = MPI_ERR_NO_MEM;
  for (int i = 0; i < nslot; ++i) req[i] = MPI_REQUEST_NULL;
  /* sources in position order after the root: root+1, root+2, ... */
  for (int i = 0; i < nslot && rc == MPI_SUCCESS; ++i, ++next) {
    src[i] = (root + next) % P;
    rc = MPI_Irecv(stage + (size_t)i * cap, (int)cap, MPI_BYTE, src[i], tag, comm, &req[i]);
  }
  while (rc == MPI_SUCCESS && done < P - 1) {
    int i = MPI_UNDEFINED, cnt = 0;
    MPI_Status st;
    if ((rc = MPI_Waitany(nslot, req, &i, &st)) != MPI_SUCCESS || i == MPI_UNDEFINED) {
      if (rc == MPI_SUCCESS) rc = MPI_ERR_INTERN;
      break;
    }
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    char *msg = stage + (size_t)i * cap;
    rc = arcoll_zblock_decode(msg, cnt, m, tmp, (char *)recvbuf + (MPI_Aint)src[i] * recvcount * extent,
                              recvcount, recvtype, comm);
    ++done;
    if (rc == MPI_SUCCESS && next < P) {
      src[i] = (root + next++) % P;
      rc = MPI_Irecv(msg, (int)cap, MPI_BYTE, src[i], tag, comm, &req[i]);
    }
  }
  if (rc != MPI_SUCCESS && req) /* nothing may stay posted */
    for (int i = 0; i < nslot; ++i)
      if (req[i] != MPI_REQUEST_NULL) MPI_Cancel(&req[i]), MPI_Wait(&req[i], MPI_STATUS_IGNORE);
  free(stage), free(tmp), free(req), free(src);
  return rc;
}

int arcoll_gather_compressed(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm, const arcoll_sched_t *s) {
  int me, P, tsize, rc;
  if ((rc = MPI_Comm_rank(comm, &me)) != MPI_SUCCESS || (rc = MPI_Comm_size(comm, &P)) != MPI_SUCCESS)
    return rc;
  if (root < 0 || root >= P) return MPI_ERR_ROOT;
  const int at_root = me == root;
  const MPI_Aint count = at_root ? recvcount : sendcount;
  if ((rc = MPI_Type_size(at_root ? recvtype : sendtype, &tsize)) != MPI_SUCCESS) return rc;
  const MPI_Aint bb = count * (MPI_Aint)tsize; /* bytes of one block, equal on every rank */
  if (count <= 0 || tsize == 0) return MPI_SUCCESS;
  if (count > INT_MAX || bb > INT_MAX - ARCOLL_ZBLOCK_HDR ||
      (sendbuf != MPI_IN_PLACE && sendcount > INT_MAX))
    return MPI_ERR_COUNT; /* int counts of MPI_Pack and the messages */
  const int tag = arcoll_sched_tag(s);
  if (!at_root) return send_block(sendbuf, sendcount, sendtype, (size_t)bb, P, root, tag, comm);
  if (sendbuf != MPI_IN_PLACE) { /* the root's own block */
    MPI_Aint lb, extent;
    MPI_Type_get_extent(recvtype, &lb, &extent);
    rc = arcoll_local_copy(sendbuf, sendcount, sendtype,
                           (char *)recvbuf + (MPI_Aint)root * recvcount * extent, recvcount,
                           recvtype, comm);
    if (rc != MPI_SUCCESS) return rc;
  }
  return P > 1 ? recv_blocks(recvbuf, recvcount, recvtype, (size_t)bb, P, root, tag, comm)
               : MPI_SUCCESS;
}
