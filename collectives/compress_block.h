/**
 * @file compress_block.h
 * @brief Internal to collectives/: the message of one compressed block of
 *        the compressed gather and alltoall (gather_compressed.c,
 *        alltoall_compressed.c; seed 004_045dc3534e1f0a8b.txt, ZipMPI).
 *
 * A block of m packed bytes travels as one message
 *   [8-byte header: sender's codec, block encoding, 0, 0, payload length
 *    (32 bits, little endian)][payload]
 * where the encoding is the sender's codec, or RAW when the block did not
 * shrink (then payload = the m bytes); the sender's codec is its decision
 * (compress_decide.h), kept for introspection.  A message is at most
 * ARCOLL_ZBLOCK_HDR + m bytes.  Sizes in bytes.
 */
#ifndef ARCOLL_COLLECTIVES_COMPRESS_BLOCK_H
#define ARCOLL_COLLECTIVES_COMPRESS_BLOCK_H

#include <mpi.h>
#include <stddef.h>

#include "compress_codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Header bytes of a block message. */
#define ARCOLL_ZBLOCK_HDR 8

/** Capacity (bytes) of a buffer that encodes blocks of m bytes with codec
 *  (room for the codec's worst case, which then falls back to RAW). */
size_t arcoll_zblock_cap(arcoll_codec_t codec, size_t m);

/**
 * Encode the m bytes at src with codec (RAW: stored) into msg, of capacity
 * cap >= arcoll_zblock_cap(codec, m).  Returns the message's length in bytes
 * (header included, at most ARCOLL_ZBLOCK_HDR + m).
 */
size_t arcoll_zblock_encode(arcoll_codec_t codec, const void *src, size_t m, char *msg,
                            size_t cap);

/**
 * Decode a received block message (msg, cnt bytes) of a block of m packed
 * bytes into (buf, count, type): straight into buf when type is contiguous,
 * else through tmp (m bytes of scratch) and MPI_Unpack.  count must fit an
 * int.  Returns MPI_SUCCESS, MPI_ERR_TRUNCATE (message shorter than its
 * header, unknown encoding, length field not cnt - header) or MPI_ERR_OTHER
 * (corrupt payload, or one that does not decode to exactly m bytes), or an
 * error of MPI_Unpack.
 */
int arcoll_zblock_decode(const char *msg, int cnt, size_t m, char *tmp, void *buf,
                         MPI_Aint count, MPI_Datatype type, MPI_Comm comm);

/** The sender's codec recorded in a block message's header (no check). */
static inline arcoll_codec_t arcoll_zblock_codec(const char *msg) {
  return (arcoll_codec_t)(unsigned char)msg[0];
}

#ifdef __cplusplus
}
#endif
#endif
