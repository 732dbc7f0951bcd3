/*
 * Compressed pipelined chain broadcast (bcast.h arcoll_bcast_compressed;
 * seed 004_045dc3534e1f0a8b.txt, ZipMPI).  The root decides per call
 * (compress_decide.h) and sends every segment as one message
 *   [4-byte header: stream codec, segment encoding, 0, 0][payload]
 * down the chain order[0] -> order[1] -> ... -> order[P-1]; payload =
 * the segment compressed, or stored raw (stream codec RAW, or a segment that
 * does not shrink).  Its length is the message's MPI_Get_count minus the
 * header.  Inner ranks forward each message as received (no recompression)
 * before decompressing it into their buffer, so compression at the root,
 * transfer and decompression of different segments overlap.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bcast.h"
#include "bcast_etc_util.h"
#include "compress_decide.h"

#define HDR 4
/* Messages in flight per rank (staging slots).  2, not more: under SMPI
 * concurrent messages share a link fairly, so W in flight delay the first
 * segment of every hop W-fold (forced zstd, 1 MiB text, slow20, 8 / 20 KiB
 * segments: W = 8 103 / 91 ms, 4 79 / 63 ms, 2 75 / 54 ms). */
#define W 2

/* Segment size: the schedule's, 64 KiB when unsegmented, within [1 KiB, 1 MiB]
 * (codecs need context; the staging slots must stay small). */
static MPI_Aint seg_size(const arcoll_sched_t *s, MPI_Aint n) {
  MPI_Aint seg = s && s->segment_bytes > 0 ? s->segment_bytes : 65536;
  if (seg < 1024) seg = 1024;
  if (seg > (1 << 20)) seg = 1 << 20;
  return seg < n ? seg : n;
}

/* The broadcast of n bytes at data over the chain (pos in order, P ranks). */
static int chain_bytes(char *data, MPI_Aint n, const int *order, int pos, int P, MPI_Comm comm,
                       const arcoll_sched_t *s, int tag) {
  const MPI_Aint seg = seg_size(s, n), nseg = (n + seg - 1) / seg;
  const int parent = pos > 0 ? order[pos - 1] : -1, child = pos + 1 < P ? order[pos + 1] : -1;
  size_t cap = (size_t)seg;
  for (int c = 1; c < ARCOLL_CODEC_COUNT; ++c) {
    size_t b = arcoll_codec_bound((arcoll_codec_t)c, (size_t)seg);
    if (b > cap) cap = b;
  }
  cap += HDR;
  char *stage = malloc(cap * W);
  MPI_Request rreq[W], sreq[W];
  int rc = MPI_SUCCESS;
  if (!stage) return MPI_ERR_NO_MEM;
  for (int i = 0; i < W; ++i) rreq[i] = sreq[i] = MPI_REQUEST_NULL;
#define SEGLEN(i) ((size_t)((i) == nseg - 1 ? n - (i) * seg : seg))
  arcoll_compress_decision_t d;
  if (parent < 0) { /* root: decide, compress, send */
    const arcoll_codec_t codec = arcoll_compress_decide(data, n, P, seg, &d);
    arcoll_compress_record(&d);
    for (MPI_Aint i = 0; i < nseg && child >= 0; ++i) {
      const int slot = (int)(i % W);
      char *m = stage + (size_t)slot * cap;
      if ((rc = MPI_Wait(&sreq[slot], MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto out;
      const char *src = data + i * seg;
      size_t len = codec == ARCOLL_CODEC_RAW
                       ? 0 : arcoll_codec_compress(codec, src, SEGLEN(i), m + HDR, cap - HDR);
      m[0] = (char)codec, m[1] = (char)(len ? codec : ARCOLL_CODEC_RAW), m[2] = m[3] = 0;
      if (!len) memcpy(m + HDR, src, len = SEGLEN(i));
      if ((rc = MPI_Isend(m, (int)(len + HDR), MPI_BYTE, child, tag, comm, &sreq[slot])) !=
          MPI_SUCCESS)
        goto out;
    }
  } else { /* receive, forward, decompress */
    for (MPI_Aint i = 0; i < nseg && i < W; ++i)
      if ((rc = MPI_Irecv(stage + (size_t)i * cap, (int)cap, MPI_BYTE, parent, tag, comm,
                          &rreq[i])) != MPI_SUCCESS)
        goto out;
    for (MPI_Aint i = 0; i < nseg; ++i) {
      const int slot = (int)(i % W);
      char *m = stage + (size_t)slot * cap;
      MPI_Status st;
      int cnt = 0;
      if ((rc = MPI_Wait(&rreq[slot], &st)) != MPI_SUCCESS) goto out;
      MPI_Get_count(&st, MPI_BYTE, &cnt);
      if (cnt < HDR || (unsigned char)m[1] >= ARCOLL_CODEC_COUNT) {
        rc = MPI_ERR_TRUNCATE;
        goto out;
      }
      if (i == 0) {
        memset(&d, 0, sizeof d);
        d.codec = (arcoll_codec_t)m[0], d.ratio = 1.0, d.t_raw_s = d.t_codec_s = -1.0;
        d.bytes = n, d.root = 0;
        arcoll_compress_record(&d);
      }
      if (child >= 0 &&
          (rc = MPI_Isend(m, cnt, MPI_BYTE, child, tag, comm, &sreq[slot])) != MPI_SUCCESS)
        goto out;
      if (arcoll_codec_decompress((arcoll_codec_t)m[1], m + HDR, (size_t)cnt - HDR,
                                  data + i * seg, SEGLEN(i)) != 0) {
        rc = MPI_ERR_OTHER; /* corrupt or truncated segment */
        goto out;
      }
      if (i + W < nseg) {
        if ((rc = MPI_Wait(&sreq[slot], MPI_STATUS_IGNORE)) != MPI_SUCCESS) goto out;
        if ((rc = MPI_Irecv(m, (int)cap, MPI_BYTE, parent, tag, comm, &rreq[slot])) !=
            MPI_SUCCESS)
          goto out;
      }
    }
  }
out:
  rc = arcoll_wait_all(W, sreq, rc);
  if (rc != MPI_SUCCESS) /* an error above: no receive may stay posted */
    for (int i = 0; i < W; ++i)
      if (rreq[i] != MPI_REQUEST_NULL) MPI_Cancel(&rreq[i]), MPI_Wait(&rreq[i], MPI_STATUS_IGNORE);
  free(stage);
  return rc;
#undef SEGLEN
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
