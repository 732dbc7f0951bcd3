/* Streams in chunks, packing of any size, one-block messages; see
 * gatherv_stream.h. */
#include "gatherv_stream.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define VS_MAX_CHUNK ((MPI_Aint)1 << 30)

MPI_Aint arcoll_vs_chunk(const arcoll_sched_t *s) {
  return s && s->segment_bytes > 0 && s->segment_bytes < VS_MAX_CHUNK ? s->segment_bytes
                                                                     : VS_MAX_CHUNK;
}

int arcoll_vs_send(const char *buf, MPI_Aint bytes, MPI_Aint chunk, int dest, int tag,
                   MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  for (MPI_Aint at = 0; rc == MPI_SUCCESS; at += chunk) {
    const MPI_Aint n = bytes - at < chunk ? bytes - at : chunk;
    rc = MPI_Send(buf + at, (int)n, MPI_BYTE, dest, tag, comm);
    if (n < chunk) break;
  }
  return rc;
}

/* nmsg receives of buf[0..bytes) from src: chunk bytes each, the last one
 * the rest (bytes - (nmsg - 1) chunk, at most chunk).  After an error the
 * remaining requests are MPI_REQUEST_NULL. */
static int irecv_pieces(char *buf, MPI_Aint bytes, MPI_Aint chunk, MPI_Aint nmsg, int src, int tag,
                        MPI_Comm comm, MPI_Request *req) {
  int rc = MPI_SUCCESS;
  for (MPI_Aint i = 0; i < nmsg; ++i) {
    const MPI_Aint n = i + 1 < nmsg ? chunk : bytes - i * chunk;
    req[i] = MPI_REQUEST_NULL;
    if (rc == MPI_SUCCESS)
      rc = MPI_Irecv(buf + i * chunk, (int)n, MPI_BYTE, src, tag, comm, &req[i]);
  }
  return rc;
}

int arcoll_vs_irecv(char *buf, MPI_Aint bytes, MPI_Aint chunk, int src, int tag, MPI_Comm comm,
                    MPI_Request *req) {
  /* the last message may be up to chunk - 1 bytes long: a longer stream
   * than expected then fails with MPI_ERR_TRUNCATE on this receive */
  return irecv_pieces(buf, bytes, chunk, arcoll_vs_nmsg(bytes, chunk), src, tag, comm, req);
}

MPI_Aint arcoll_vs_first(MPI_Aint chunk) { return chunk < 65536 ? chunk : 65536; }

/* The pieces after the first message: chunk bytes each, the last shorter
 * (none when rest is 0); both sides know rest. */
static int send_rest(const char *buf, MPI_Aint rest, MPI_Aint chunk, int dest, int tag,
                     MPI_Comm comm) {
  int rc = MPI_SUCCESS;
  for (MPI_Aint at = 0; at < rest && rc == MPI_SUCCESS; at += chunk)
    rc = MPI_Send(buf + at, (int)(rest - at < chunk ? rest - at : chunk), MPI_BYTE, dest, tag, comm);
  return rc;
}

static MPI_Aint rest_nmsg(MPI_Aint rest, MPI_Aint chunk) { return (rest + chunk - 1) / chunk; }

static int irecv_rest(char *buf, MPI_Aint rest, MPI_Aint chunk, int src, int tag, MPI_Comm comm,
                      MPI_Request *req) {
  return irecv_pieces(buf, rest, chunk, rest_nmsg(rest, chunk), src, tag, comm, req);
}

int arcoll_vs_send_sized(const char *buf, MPI_Aint bytes, MPI_Aint chunk, int dest, int tag,
                         MPI_Comm comm) {
  const MPI_Aint f = arcoll_vs_first(chunk), first = bytes < f ? bytes : f;
  char *msg = malloc((size_t)(ARCOLL_VS_HEADER + first));
  if (!msg) return MPI_ERR_NO_MEM;
  const int64_t total = (int64_t)bytes;
  memcpy(msg, &total, ARCOLL_VS_HEADER);
  if (first) memcpy(msg + ARCOLL_VS_HEADER, buf, (size_t)first);
  int rc = MPI_Send(msg, (int)(ARCOLL_VS_HEADER + first), MPI_BYTE, dest, tag, comm);
  free(msg);
  if (rc == MPI_SUCCESS) rc = send_rest(buf + first, bytes - first, chunk, dest, tag, comm);
  return rc;
}

int arcoll_vs_recv_sized(char **buf, MPI_Aint *cap, MPI_Aint *used, MPI_Aint chunk, int src,
                         int tag, MPI_Comm comm) {
  const MPI_Aint f = arcoll_vs_first(chunk);
  char *msg = malloc((size_t)(ARCOLL_VS_HEADER + f));
  if (!msg) return MPI_ERR_NO_MEM;
  MPI_Status st;
  int n = 0, rc = MPI_Recv(msg, (int)(ARCOLL_VS_HEADER + f), MPI_BYTE, src, tag, comm, &st);
  if (rc == MPI_SUCCESS) rc = MPI_Get_count(&st, MPI_BYTE, &n);
  int64_t total = -1;
  if (rc == MPI_SUCCESS && n >= ARCOLL_VS_HEADER) memcpy(&total, msg, ARCOLL_VS_HEADER);
  const MPI_Aint first = n - ARCOLL_VS_HEADER;
  /* a foreign or inconsistent message (ranks passing different counts) */
  if (rc == MPI_SUCCESS && (total < 0 || first != (total < f ? total : f))) rc = MPI_ERR_TRUNCATE;
  if (rc == MPI_SUCCESS && *used + total > *cap) {
    MPI_Aint c = *cap * 2 > *used + total ? *cap * 2 : *used + (MPI_Aint)total;
    char *p = realloc(*buf, (size_t)c + 1);
    if (!p) rc = MPI_ERR_NO_MEM;
    else *buf = p, *cap = c;
  }
  if (rc == MPI_SUCCESS) {
    if (first) memcpy(*buf + *used, msg + ARCOLL_VS_HEADER, (size_t)first);
    const MPI_Aint rest = (MPI_Aint)total - first;
    MPI_Request *req = rest ? malloc(sizeof(MPI_Request) * (size_t)rest_nmsg(rest, chunk)) : NULL;
    if (rest && !req) rc = MPI_ERR_NO_MEM;
    else if (rest) {
      rc = irecv_rest(*buf + *used + first, rest, chunk, src, tag, comm, req);
      rc = arcoll_wait_all(rest_nmsg(rest, chunk), req, rc);
    }
    free(req);
    if (rc == MPI_SUCCESS) *used += (MPI_Aint)total;
  }
  free(msg);
  return rc;
}

MPI_Aint arcoll_vs_sized_nreq(MPI_Aint bytes, MPI_Aint chunk) {
  const MPI_Aint f = arcoll_vs_first(chunk);
  return 1 + rest_nmsg(bytes - (bytes < f ? bytes : f), chunk);
}

int arcoll_vs_irecv_sized(char *buf, MPI_Aint bytes, char *first_msg, MPI_Aint chunk, int src,
                          int tag, MPI_Comm comm, MPI_Request *req) {
  const MPI_Aint f = arcoll_vs_first(chunk), first = bytes < f ? bytes : f;
  req[0] = MPI_REQUEST_NULL;
  int rc = MPI_Irecv(first_msg, (int)(ARCOLL_VS_HEADER + first), MPI_BYTE, src, tag, comm, &req[0]);
  const MPI_Aint rest = bytes - first;
  if (rest) {
    int rc2 = irecv_rest(buf + first, rest, chunk, src, tag, comm, req + 1);
    if (rc == MPI_SUCCESS) rc = rc2;
  }
  return rc;
}

int arcoll_vs_sized_done(char *buf, MPI_Aint bytes, const char *first_msg, MPI_Aint chunk) {
  const MPI_Aint f = arcoll_vs_first(chunk), first = bytes < f ? bytes : f;
  int64_t total;
  memcpy(&total, first_msg, ARCOLL_VS_HEADER);
  if (total != (int64_t)bytes) return MPI_ERR_TRUNCATE;
  if (first) memcpy(buf, first_msg + ARCOLL_VS_HEADER, (size_t)first);
  return MPI_SUCCESS;
}

/* Pack (pack != 0) or unpack count elements of t at buf from / into bytes,
 * in batches of whole elements of at most 2^30 bytes each. */
static int batches(int pack, const void *buf, MPI_Aint count, MPI_Datatype t, char *bytes,
                   MPI_Comm comm) {
  int size, rc;
  MPI_Aint lb, ext;
  if ((rc = MPI_Type_size(t, &size)) != MPI_SUCCESS) return rc;
  if (count == 0 || size == 0) return MPI_SUCCESS;
  if ((rc = MPI_Type_get_extent(t, &lb, &ext)) != MPI_SUCCESS) return rc;
  const MPI_Aint per = VS_MAX_CHUNK / size > 0 ? VS_MAX_CHUNK / size : 1;
  for (MPI_Aint i = 0; i < count && rc == MPI_SUCCESS; i += per) {
    const MPI_Aint n = count - i < per ? count - i : per;
    char *elem = (char *)buf + i * ext, *at = bytes + i * size;
    int p = 0;
    if (n * size > INT_MAX) return MPI_ERR_COUNT; /* one element above 2 GiB */
    rc = pack ? MPI_Pack(elem, (int)n, t, at, (int)(n * size), &p, comm)
              : MPI_Unpack(at, (int)(n * size), &p, elem, (int)n, t, comm);
  }
  return rc;
}

int arcoll_vs_pack(const void *buf, MPI_Aint count, MPI_Datatype t, char *out, MPI_Comm comm) {
  return batches(1, buf, count, t, out, comm);
}

int arcoll_vs_unpack(const char *in, void *buf, MPI_Aint count, MPI_Datatype t, MPI_Comm comm) {
  return batches(0, buf, count, t, (char *)in, comm);
}

int arcoll_vs_copy(const void *src, MPI_Aint scount, MPI_Datatype stype, void *dst,
                   MPI_Aint rcount, MPI_Datatype rtype, MPI_Comm comm) {
  int ss, rs, rc;
  if ((rc = MPI_Type_size(stype, &ss)) != MPI_SUCCESS) return rc;
  if ((rc = MPI_Type_size(rtype, &rs)) != MPI_SUCCESS) return rc;
  const MPI_Aint bytes = scount * (MPI_Aint)ss;
  if (bytes != rcount * (MPI_Aint)rs) return MPI_ERR_TRUNCATE;
  if (bytes == 0) return MPI_SUCCESS;
  char *tmp = malloc((size_t)bytes);
  if (!tmp) return MPI_ERR_NO_MEM;
  rc = arcoll_vs_pack(src, scount, stype, tmp, comm);
  if (rc == MPI_SUCCESS) rc = arcoll_vs_unpack(tmp, dst, rcount, rtype, comm);
  free(tmp);
  return rc;
}

int arcoll_vs_isend_block(const void *buf, MPI_Aint count, MPI_Datatype t, int dest, int tag,
                          MPI_Comm comm, MPI_Request *req) {
  if (count <= INT_MAX) return MPI_Isend(buf, (int)count, t, dest, tag, comm, req);
#if MPI_VERSION >= 4
  return MPI_Isend_c(buf, (MPI_Count)count, t, dest, tag, comm, req);
#else
  return MPI_ERR_COUNT;
#endif
}

int arcoll_vs_irecv_block(void *buf, MPI_Aint count, MPI_Datatype t, int src, int tag,
                          MPI_Comm comm, MPI_Request *req) {
  if (count <= INT_MAX) return MPI_Irecv(buf, (int)count, t, src, tag, comm, req);
#if MPI_VERSION >= 4
  return MPI_Irecv_c(buf, (MPI_Count)count, t, src, tag, comm, req);
#else
  return MPI_ERR_COUNT;
#endif
}
