/*
 * Compressed pipelined chain broadcast (bcast.h arcoll_bcast_compressed;
 * seed 004_045dc3534e1f0a8b.txt, ZipMPI).  The root decides per call
 * (compress_decide.h: the codec and, when it compresses in auto, the
 * segment size from the sampled ratio) and sends every segment as one
 * message
 *   [4-byte header: stream codec, segment encoding, segment size / 1 KiB
 *    (16 bits, little endian)][payload]
 * down the chain order[0] -> order[1] -> ... -> order[P-1]; payload =
 * the segment compressed, or stored raw (stream codec RAW, or a segment that
 * does not shrink), so a message is at most 4 + segment bytes.  Its length
 * is the message's MPI_Get_count minus the header.  Receivers learn the
 * codec and the segment size from the first message (no agreement round),
 * forward each message as received (no recompression) before decompressing
 * it into their buffer, so compression at the root, transfer and
 * decompression of different segments overlap.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bcast.h"
#include "bcast_etc_util.h"
#include "compress_decide.h"

#define HDR 4
#define UNIT ARCOLL_COMPRESS_SEG_UNIT
/* Messages in flight per rank (staging slots).  2, not more: under SMPI
 * concurrent messages share a link fairly, so W in flight delay the first
 * segment of every hop W-fold (forced zstd, 1 MiB text, slow20, 8 / 20 KiB
 * segments: W = 8 103 / 91 ms, 4 79 / 63 ms, 2 75 / 54 ms). */
#define W 2

/* The schedule's segment size, 64 KiB when unsegmented, rounded down to a
 * multiple of UNIT within [1 KiB, ARCOLL_COMPRESS_SEG_MAX] (codecs need
 * context; the staging slots must stay small; the header carries it in
 * units of UNIT). */
static MPI_Aint seg_size(const arcoll_sched_t *s) {
  MPI_Aint seg = s && s->segment_bytes > 0 ? s->segment_bytes : 65536;
  if (seg > ARCOLL_COMPRESS_SEG_MAX) seg = ARCOLL_COMPRESS_SEG_MAX;
  seg = seg / UNIT * UNIT;
  return seg < UNIT ? UNIT : seg;
}

/* Root: decide, then compress and send the segments. */
static int root_send(const char *data, MPI_Aint n, int child, int P, MPI_Comm comm,
                     const arcoll_sched_t *s, int tag) {
  arcoll_compress_decision_t d;
  const arcoll_codec_t codec = arcoll_compress_decide(data, n, P, seg_size(s), &d);
  arcoll_compress_record(&d);
  const MPI_Aint seg = d.seg, nseg = (n + seg - 1) / seg;
  size_t cap = (size_t)(seg < n ? seg : n);
  if (codec != ARCOLL_CODEC_RAW && arcoll_codec_bound(codec, cap) > cap)
    cap = arcoll_codec_bound(codec, cap);
  cap += HDR;
  char *stage = malloc(cap * W);
  MPI_Request sreq[W];
  int rc = MPI_SUCCESS;
  if (!stage) return MPI_ERR_NO_MEM;
  for (int i = 0; i < W; ++i) sreq[i] = MPI_REQUEST_NULL;
  for (MPI_Aint i = 0; i < nseg; ++i) {
    const int slot = (int)(i % W);
    char *m = stage + (size_t)slot * cap;
    if ((rc = MPI_Wait(&sreq[slot], MPI_STATUS_IGNORE)) != MPI_SUCCESS) break;
    const char *src = data + i * seg;
    const size_t sl = (size_t)(i == nseg - 1 ? n - i * seg : seg);
    size_t len = codec == ARCOLL_CODEC_RAW ? 0
                                           : arcoll_codec_compress(codec, src, sl, m + HDR, cap - HDR);
    m[0] = (char)codec, m[1] = (char)(len ? codec : ARCOLL_CODEC_RAW);
    m[2] = (char)((seg / UNIT) & 0xff), m[3] = (char)((seg / UNIT) >> 8);
    if (!len) memcpy(m + HDR, src, len = sl);
    if ((rc = MPI_Isend(m, (int)(len + HDR), MPI_BYTE, child, tag, comm, &sreq[slot])) !=
        MPI_SUCCESS)
      break;
  }
  rc = arcoll_wait_all(W, sreq, rc);
  free(stage);
  return rc;
}

/* Receiver: the first message gives the codec and the segment size; every
 * message is forwarded to child (if any) as received, then decompressed. */
static int recv_forward(char *data, MPI_Aint n, int parent, int child, MPI_Comm comm, int tag) {
  /* the largest message: one segment of at most min(n, SEG_MAX) + header */
  const size_t cap = (size_t)(n < ARCOLL_COMPRESS_SEG_MAX ? n : ARCOLL_COMPRESS_SEG_MAX) + HDR;
  char *stage = malloc(cap * W);
  MPI_Request rreq[W], sreq[W];
  MPI_Aint seg = 0, nseg = 1;
  int rc = MPI_SUCCESS;
  if (!stage) return MPI_ERR_NO_MEM;
  for (int i = 0; i < W; ++i) rreq[i] = sreq[i] = MPI_REQUEST_NULL;
  rc = MPI_Irecv(stage, (int)cap, MPI_BYTE, parent, tag, comm, &rreq[0]);
  for (MPI_Aint i = 0; i < nseg && rc == MPI_SUCCESS; ++i) {
    const int slot = (int)(i % W);
    char *m = stage + (size_t)slot * cap;
    MPI_Status st;
    int cnt = 0;
    if ((rc = MPI_Wait(&rreq[slot], &st)) != MPI_SUCCESS) break;
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    if (cnt < HDR || (unsigned char)m[1] >= ARCOLL_CODEC_COUNT) {
      rc = MPI_ERR_TRUNCATE;
      break;
    }
    if (i == 0) { /* the root's decision: codec and segment size */
      seg = ((MPI_Aint)(unsigned char)m[2] | (MPI_Aint)(unsigned char)m[3] << 8) * UNIT;
      if (seg < UNIT || seg > ARCOLL_COMPRESS_SEG_MAX || (unsigned char)m[0] >= ARCOLL_CODEC_COUNT) {
        rc = MPI_ERR_TRUNCATE;
        break;
      }
      nseg = (n + seg - 1) / seg;
      arcoll_compress_decision_t d = {(arcoll_codec_t)m[0], 1.0, -1.0, -1.0, n, 0, seg};
      arcoll_compress_record(&d);
      for (int j = 1; j < W && j < nseg && rc == MPI_SUCCESS; ++j)
        rc = MPI_Irecv(stage + (size_t)j * cap, (int)cap, MPI_BYTE, parent, tag, comm, &rreq[j]);
      if (rc != MPI_SUCCESS) break;
    }
    if (child >= 0 &&
        (rc = MPI_Isend(m, cnt, MPI_BYTE, child, tag, comm, &sreq[slot])) != MPI_SUCCESS)
      break;
    const size_t sl = (size_t)(i == nseg - 1 ? n - i * seg : seg);
    if (arcoll_codec_decompress((arcoll_codec_t)m[1], m + HDR, (size_t)cnt - HDR, data + i * seg,
                                sl) != 0) {
      rc = MPI_ERR_OTHER; /* corrupt or truncated segment */
      break;
    }
    if (i + W < nseg) {
      if ((rc = MPI_Wait(&sreq[slot], MPI_STATUS_IGNORE)) != MPI_SUCCESS) break;
      rc = MPI_Irecv(m, (int)cap, MPI_BYTE, parent, tag, comm, &rreq[slot]);
    }
  }
  rc = arcoll_wait_all(W, sreq, rc);
  if (rc != MPI_SUCCESS) /* an error above: no receive may stay posted */
    for (int i = 0; i < W; ++i)
      if (rreq[i] != MPI_REQUEST_NULL) MPI_Cancel(&rreq[i]), MPI_Wait(&rreq[i], MPI_STATUS_IGNORE);
  free(stage);
  return rc;
}

/* The broadcast of n > 0 bytes at data over the chain (pos in order, P ranks). */
static int chain_bytes(char *data, MPI_Aint n, const int *order, int pos, int P, MPI_Comm comm,
                       const arcoll_sched_t *s, int tag) {
  const int child = pos + 1 < P ? order[pos + 1] : -1;
  if (pos == 0) return child < 0 ? MPI_SUCCESS : root_send(data, n, child, P, comm, s, tag);
  return recv_forward(data, n, order[pos - 1], child, comm, tag);
}

int arcoll_bcast_compressed(void *buf, MPI_Aint count, MPI_Datatype datatype, int root,
                            MPI_Comm comm, const arcoll_sched_t *s) {
  int tsize, *order = NULL, pos, P, rc;
  MPI_Aint lb, extent, tlb, textent;
  if ((rc = arcoll_bcast_begin(s, root, comm, count, datatype, &tsize, &order, &pos, &P)) !=
          MPI_SUCCESS || !order)
    return rc;
  const MPI_Aint n = count * (MPI_Aint)tsize;
  MPI_Type_get_extent(datatype, &lb, &extent);
  MPI_Type_get_true_extent(datatype, &tlb, &textent);
  if ((MPI_Aint)tsize == extent && extent == textent) { /* the bytes are contiguous */
    rc = chain_bytes((char *)buf + tlb, n, order, pos, P, comm, s, arcoll_sched_tag(s));
  } else if (count > INT_MAX || n > INT_MAX) {
    rc = MPI_ERR_COUNT; /* packing below takes int counts */
  } else { /* derived, non-contiguous: pack at the root, unpack elsewhere */
    char *tmp = malloc((size_t)n);
    int ipos = 0;
    if (!tmp) rc = MPI_ERR_NO_MEM;
    else if (pos == 0) rc = MPI_Pack(buf, (int)count, datatype, tmp, (int)n, &ipos, comm);
    if (rc == MPI_SUCCESS)
      rc = chain_bytes(tmp, n, order, pos, P, comm, s, arcoll_sched_tag(s));
    if (rc == MPI_SUCCESS && pos != 0)
      rc = MPI_Unpack(tmp, (int)n, &ipos, buf, (int)count, datatype, comm);
    free(tmp);
  }
  free(order);
  return rc;
}
