/*
 * Compressed linear alltoall (alltoall.h arcoll_alltoall_compressed; seed
 * 004_045dc3534e1f0a8b.txt, ZipMPI).  Every rank packs its P outgoing
 * blocks (derived types: MPI_Pack; MPI_IN_PLACE: from the copy of recvbuf
 * that arcoll_a2a_prepare makes), decides once for all of them
 * (compress_decide.h, alltoall shape: P-1 blocks leave through its link one
 * after another, it compresses them all), then runs the steps i = 1..P-1 of
 * the linear alltoall in batches of ARCOLL_ALLTOALL_THROTTLE: post the
 * batch's receives (from position pos - i), compress and send each block
 * to position pos + i as one block message (compress_block.h: header with
 * codec and compressed length; a block that does not shrink goes raw), so
 * the compression of a block overlaps the transfer of the previous ones,
 * then decode the received blocks as they complete (MPI_Waitany) into
 * recvbuf.  Blocks carry their codec, so ranks may decide differently.
 */
#include <limits.h>
#include <stdlib.h>

#include "alltoall.h"
#include "alltoall_prep.h"
#include "bcast_etc_util.h"
#include "compress_block.h"
#include "compress_decide.h"

#define B ARCOLL_ALLTOALL_THROTTLE

/* The P packed outgoing blocks of m bytes each, block q for rank q. */
static int pack_all(const arcoll_a2a_t *a, size_t m, MPI_Comm comm, char *packed) {
  int rc = MPI_SUCCESS;
  for (int q = 0; q < a->P && rc == MPI_SUCCESS; ++q) {
    int pos = 0;
    rc = MPI_Pack((const char *)a->sbuf + (MPI_Aint)q * a->sext * a->scount, a->scount, a->stype,
                  packed + (size_t)q * m, (int)m, &pos, comm);
  }
  return rc;
}

/* Batch of steps i0..i1-1: receive, compress + send, decode. */
static int batch(const arcoll_a2a_t *a, void *recvbuf, const char *packed, size_t m,
                 arcoll_codec_t codec, int i0, int i1, char *sstage, char *rstage, size_t scap,
                 char *tmp, MPI_Request *req, int tag, MPI_Comm comm) {
  const int P = a->P, n = i1 - i0;
  const size_t rcap = ARCOLL_ZBLOCK_HDR + m; /* the largest message */
  int src[B], rc = MPI_SUCCESS;
  for (int j = 0; j < 2 * n; ++j) req[j] = MPI_REQUEST_NULL;
  for (int j = 0; j < n && rc == MPI_SUCCESS; ++j) {
    src[j] = a->order[(a->pos - (i0 + j) + P) % P];
    rc = MPI_Irecv(rstage + (size_t)j * rcap, (int)rcap, MPI_BYTE, src[j], tag, comm, &req[j]);
  }
  for (int j = 0; j < n && rc == MPI_SUCCESS; ++j) {
    const int dst = a->order[(a->pos + i0 + j) % P];
    char *msg = sstage + (size_t)j * scap;
    const size_t len = arcoll_zblock_encode(codec, packed + (size_t)dst * m, m, msg, scap);
    rc = MPI_Isend(msg, (int)len, MPI_BYTE, dst, tag, comm, &req[n + j]);
  }
  for (int left = n; left > 0 && rc == MPI_SUCCESS; --left) {
    int j = MPI_UNDEFINED, cnt = 0;
    MPI_Status st;
    if ((rc = MPI_Waitany(n, req, &j, &st)) != MPI_SUCCESS) break;
    if (j == MPI_UNDEFINED) {
      rc = MPI_ERR_INTERN;
      break;
    }
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    rc = arcoll_zblock_decode(rstage + (size_t)j * rcap, cnt, m, tmp,
                              (char *)recvbuf + (MPI_Aint)src[j] * a->rext * a->rcount, a->rcount,
                              a->rtype, comm);
  }
  if (rc != MPI_SUCCESS) /* nothing may stay posted */
    for (int j = 0; j < n; ++j)
      if (req[j] != MPI_REQUEST_NULL) MPI_Cancel(&req[j]), MPI_Wait(&req[j], MPI_STATUS_IGNORE);
  return arcoll_wait_all(n, req + n, rc);
}

int arcoll_alltoall_compressed(const void *sendbuf, MPI_Aint sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Aint recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, const arcoll_sched_t *s) {
  arcoll_a2a_t a;
  int rc = arcoll_a2a_prepare(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              s, &a);
  if (rc == ARCOLL_A2A_NOTHING) return MPI_SUCCESS;
  if (rc != MPI_SUCCESS) return rc;
  const int P = a.P, tag = arcoll_sched_tag(s), me = a.order[a.pos];
  const size_t m = (size_t)a.bb;
  rc = arcoll_local_copy((const char *)a.sbuf + me * a.sext * a.scount, a.scount, a.stype,
                         (char *)recvbuf + me * a.rext * a.rcount, a.rcount, a.rtype, comm);
  if (P == 1 || rc != MPI_SUCCESS) {
    arcoll_a2a_done(&a);
    return rc;
  }
  if (m > (size_t)INT_MAX - ARCOLL_ZBLOCK_HDR || m * (size_t)P / (size_t)P != m) {
    arcoll_a2a_done(&a);
    return MPI_ERR_COUNT; /* int message counts */
  }
  const int nb = P - 1 < B ? P - 1 : B;
  char *packed = malloc(m * (size_t)P), *tmp = malloc(m);
  char *sstage = NULL, *rstage = malloc((ARCOLL_ZBLOCK_HDR + m) * (size_t)nb);
  MPI_Request *req = malloc(sizeof(MPI_Request) * 2 * B);
  if (!packed || !tmp || !rstage || !req) rc = MPI_ERR_NO_MEM;
  else rc = pack_all(&a, m, comm, packed);
  arcoll_codec_t codec = ARCOLL_CODEC_RAW;
  size_t scap = ARCOLL_ZBLOCK_HDR + m;
  if (rc == MPI_SUCCESS) {
    const arcoll_compress_shape_t sh = {1, P - 1, 1, 1};
    arcoll_compress_decision_t d;
    codec = arcoll_compress_decide_shape(packed, (MPI_Aint)(m * (size_t)P), (MPI_Aint)m, &sh,
                                         (MPI_Aint)m * (P - 1), &d);
    if (m > ARCOLL_CODEC_MAX_BYTES) codec = d.codec = ARCOLL_CODEC_RAW; /* beyond the codecs */
    arcoll_compress_record(&d);
    scap = arcoll_zblock_cap(codec, m);
    if (!(sstage = malloc(scap * (size_t)nb))) rc = MPI_ERR_NO_MEM;
  }
  for (int i0 = 1; i0 < P && rc == MPI_SUCCESS; i0 += B)
    rc = batch(&a, recvbuf, packed, m, codec, i0, i0 + B < P ? i0 + B : P, sstage, rstage, scap,
               tmp, req, tag, comm);
  free(packed), free(tmp), free(sstage), free(rstage), free(req);
  arcoll_a2a_done(&a);
  return rc;
}
