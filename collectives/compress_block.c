/* Block messages of the compressed gather / alltoall; see compress_block.h. */
#include "compress_block.h"

#include <string.h>

size_t arcoll_zblock_cap(arcoll_codec_t codec, size_t m) {
  const size_t b = codec == ARCOLL_CODEC_RAW ? m : arcoll_codec_bound(codec, m);
  return ARCOLL_ZBLOCK_HDR + (b > m ? b : m);
}

size_t arcoll_zblock_encode(arcoll_codec_t codec, const void *src, size_t m, char *msg,
                            size_t cap) {
  size_t len = codec == ARCOLL_CODEC_RAW
                   ? 0
                   : arcoll_codec_compress(codec, src, m, msg + ARCOLL_ZBLOCK_HDR,
                                           cap - ARCOLL_ZBLOCK_HDR);
  msg[0] = (char)codec, msg[1] = (char)(len ? codec : ARCOLL_CODEC_RAW), msg[2] = msg[3] = 0;
  if (!len) {
    if (m) memcpy(msg + ARCOLL_ZBLOCK_HDR, src, m);
    len = m;
  }
  for (int i = 0; i < 4; ++i) msg[4 + i] = (char)((len >> (8 * i)) & 0xff);
  return ARCOLL_ZBLOCK_HDR + len;
}

int arcoll_zblock_decode(const char *msg, int cnt, size_t m, char *tmp, void *buf,
                         MPI_Aint count, MPI_Datatype type, MPI_Comm comm) {
  if (cnt < ARCOLL_ZBLOCK_HDR || (unsigned char)msg[1] >= ARCOLL_CODEC_COUNT)
    return MPI_ERR_TRUNCATE;
  size_t len = 0;
  for (int i = 0; i < 4; ++i) len |= (size_t)(unsigned char)msg[4 + i] << (8 * i);
  if (len != (size_t)cnt - ARCOLL_ZBLOCK_HDR) return MPI_ERR_TRUNCATE;
  int tsize;
  MPI_Aint lb, extent, tlb, textent;
  MPI_Type_size(type, &tsize);
  MPI_Type_get_extent(type, &lb, &extent);
  MPI_Type_get_true_extent(type, &tlb, &textent);
  const int contiguous = (MPI_Aint)tsize == extent && extent == textent;
  char *out = contiguous ? (char *)buf + tlb : tmp;
  if (arcoll_codec_decompress((arcoll_codec_t)(unsigned char)msg[1], msg + ARCOLL_ZBLOCK_HDR, len,
                              out, m) != 0)
    return MPI_ERR_OTHER;
  if (contiguous) return MPI_SUCCESS;
  int pos = 0;
  return MPI_Unpack(tmp, (int)m, &pos, buf, (int)count, type, comm);
}
