/* Streams in chunks, packing of any size, one-block messages; see
 * gatherv_stream.h. */
#include "gatherv_stream.h"

#include <limits.h>
#include <stdlib.h>

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

int arcoll_vs_irecv(char *buf, MPI_Aint bytes, MPI_Aint chunk, int src, int tag, MPI_Comm comm,
                    MPI_Request *req) {
  const MPI_Aint nmsg = arcoll_vs_nmsg(bytes, chunk);
  int rc = MPI_SUCCESS;
  for (MPI_Aint i = 0; i < nmsg; ++i) {
    const MPI_Aint n = i + 1 < nmsg ? chunk : bytes - i * chunk;
    req[i] = MPI_REQUEST_NULL;
    /* the last message may be up to chunk - 1 bytes long: a longer stream
     * than expected then fails with MPI_ERR_TRUNCATE on this receive */
    if (rc == MPI_SUCCESS)
      rc = MPI_Irecv(buf + i * chunk, (int)n, MPI_BYTE, src, tag, comm, &req[i]);
  }
  return rc;
}

int arcoll_vs_recv_any(char **buf, MPI_Aint *cap, MPI_Aint *used, MPI_Aint chunk, int src, int tag,
                       MPI_Comm comm) {
  for (;;) {
    MPI_Status st;
    int n = 0, rc;
    /* MPI_Probe + MPI_Recv, not MPI_Mprobe (SMPI does not implement it):
     * nothing else receives from (src, tag) on this communicator meanwhile,
     * since MPI forbids concurrent collectives on one communicator */
    if ((rc = MPI_Probe(src, tag, comm, &st)) != MPI_SUCCESS) return rc;
    if ((rc = MPI_Get_count(&st, MPI_BYTE, &n)) != MPI_SUCCESS) return rc;
    if (n < 0 || n > chunk) return MPI_ERR_TRUNCATE; /* MPI_UNDEFINED or a foreign message */
    if (*used + n > *cap) {
      MPI_Aint c = *cap * 2 > *used + n ? *cap * 2 : *used + n;
      char *p = realloc(*buf, (size_t)c + 1);
      if (!p) return MPI_ERR_NO_MEM;
      *buf = p, *cap = c;
    }
    rc = MPI_Recv(*buf + *used, n, MPI_BYTE, src, tag, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    *used += n;
    if (n < chunk) return MPI_SUCCESS;
  }
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
