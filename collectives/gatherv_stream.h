/**
 * @file gatherv_stream.h
 * @brief Internal to the gatherv / scatterv algorithms (gatherv.h): byte
 *        streams in chunks, packing of blocks of any size, and messages of
 *        one block in its user datatype whatever its count.
 *
 * A stream of n bytes travels as n / chunk + 1 MPI_BYTE messages (every one
 * chunk bytes but the last, which is shorter, maybe empty): a receiver that
 * does not know n stops at the first short message.  chunk <= INT_MAX.
 * Packing assumes MPI_Pack writes count x type size bytes (a homogeneous
 * run: MPICH, SMPI), as the binomial gather / scatter of gather.h do.
 */
#ifndef ARCOLL_COLLECTIVES_GATHERV_STREAM_H
#define ARCOLL_COLLECTIVES_GATHERV_STREAM_H

#include <mpi.h>

#include "coll.h"

/** Chunk of a schedule's streams: s->segment_bytes when in (0, 2^30], else 2^30. */
MPI_Aint arcoll_vs_chunk(const arcoll_sched_t *s);

/** Messages of a stream of `bytes` bytes: bytes / chunk + 1. */
static inline MPI_Aint arcoll_vs_nmsg(MPI_Aint bytes, MPI_Aint chunk) { return bytes / chunk + 1; }

/** Blocking send of the stream buf[0..bytes) to dest.
 *  @return MPI_SUCCESS or the first MPI_Send error. */
int arcoll_vs_send(const char *buf, MPI_Aint bytes, MPI_Aint chunk, int dest, int tag,
                   MPI_Comm comm);

/** Nonblocking receive of a stream of known size into buf[0..bytes):
 *  arcoll_vs_nmsg() requests written to req (MPI_REQUEST_NULL after an
 *  error).  A longer stream fails with MPI_ERR_TRUNCATE at the wait. */
int arcoll_vs_irecv(char *buf, MPI_Aint bytes, MPI_Aint chunk, int src, int tag, MPI_Comm comm,
                    MPI_Request *req);

/** Bytes of a sized stream's header: the stream's length, int64_t. */
#define ARCOLL_VS_HEADER 8

/** Data bytes in a sized stream's first message: min(chunk, 64 KiB). */
MPI_Aint arcoll_vs_first(MPI_Aint chunk);

/**
 * Sized streams (gatherv's subtree streams, whose length only the sender and
 * the root know): the first message holds the length (ARCOLL_VS_HEADER
 * bytes) and the first min(bytes, arcoll_vs_first(chunk)) bytes, the rest
 * follows in chunk-byte messages (the last shorter).  A receiver that does
 * not know the length receives the first message into a buffer of the
 * largest first size and reads it from the header: no MPI_Probe (SMPI
 * charges every MPI_Probe / MPI_Iprobe that finds nothing smpi/iprobe,
 * 100 us by default, which made the binomial gatherv of 8-byte blocks 95x
 * slower than linear at P = 64), no MPI_Mprobe (SMPI has none), no extra
 * message.  Blocking send of buf[0..bytes) to dest.
 * @return MPI_SUCCESS, MPI_ERR_NO_MEM or the first MPI_Send error.
 */
int arcoll_vs_send_sized(const char *buf, MPI_Aint bytes, MPI_Aint chunk, int dest, int tag,
                         MPI_Comm comm);

/** Blocking receive of a sized stream of unknown length from src, appended
 *  at (*buf)[*used], *buf grown with realloc (capacity *cap).
 *  @return MPI_SUCCESS, MPI_ERR_NO_MEM, MPI_ERR_TRUNCATE (a first message
 *  that is not a consistent header, e.g. ranks passing different counts)
 *  or an MPI error. */
int arcoll_vs_recv_sized(char **buf, MPI_Aint *cap, MPI_Aint *used, MPI_Aint chunk, int src,
                         int tag, MPI_Comm comm);

/** Requests of arcoll_vs_irecv_sized() for a stream of `bytes` bytes. */
MPI_Aint arcoll_vs_sized_nreq(MPI_Aint bytes, MPI_Aint chunk);

/** Nonblocking receive of a sized stream of known length into
 *  buf[0..bytes): the first message into first_msg (ARCOLL_VS_HEADER +
 *  arcoll_vs_first(chunk) bytes, the caller's), the rest into place;
 *  arcoll_vs_sized_nreq() requests written to req.  After they completed,
 *  arcoll_vs_sized_done() checks the header and moves the first bytes.
 *  @return MPI_SUCCESS or the first MPI_Irecv error. */
int arcoll_vs_irecv_sized(char *buf, MPI_Aint bytes, char *first_msg, MPI_Aint chunk, int src,
                          int tag, MPI_Comm comm, MPI_Request *req);

/** @return MPI_SUCCESS, or MPI_ERR_TRUNCATE when the header is not `bytes`. */
int arcoll_vs_sized_done(char *buf, MPI_Aint bytes, const char *first_msg, MPI_Aint chunk);

/** Pack count elements of t at buf into out (count x size(t) bytes), in
 *  calls of at most 2^30 bytes.  @return MPI_SUCCESS or an MPI error. */
int arcoll_vs_pack(const void *buf, MPI_Aint count, MPI_Datatype t, char *out, MPI_Comm comm);

/** The inverse of arcoll_vs_pack(): count elements of t at buf from in. */
int arcoll_vs_unpack(const char *in, void *buf, MPI_Aint count, MPI_Datatype t, MPI_Comm comm);

/** Local copy of (src, scount, stype) into (dst, rcount, rtype) through a
 *  packed buffer; type signatures must match.  @return MPI_SUCCESS,
 *  MPI_ERR_NO_MEM, MPI_ERR_TRUNCATE (sizes differ) or an MPI error. */
int arcoll_vs_copy(const void *src, MPI_Aint scount, MPI_Datatype stype, void *dst,
                   MPI_Aint rcount, MPI_Datatype rtype, MPI_Comm comm);

/** MPI_Isend / MPI_Irecv of one block (count elements of t), with the
 *  large-count forms above INT_MAX elements (MPI >= 4; MPI_ERR_COUNT
 *  without them). */
int arcoll_vs_isend_block(const void *buf, MPI_Aint count, MPI_Datatype t, int dest, int tag,
                          MPI_Comm comm, MPI_Request *req);
int arcoll_vs_irecv_block(void *buf, MPI_Aint count, MPI_Datatype t, int src, int tag,
                          MPI_Comm comm, MPI_Request *req);

#endif
