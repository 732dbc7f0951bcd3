/**
 * @file trace_format.h
 * @brief The arcoll trace format, version 3 (binary, little-endian, fixed width).
 *
 * One trace file per run. Layout:
 *
 *     FileHeader                          (once, 40 bytes, with its checksum)
 *     RankSection[0] ... RankSection[P-1] (in world-rank order)
 *     RT_TRACE_END record                 (once, 32 bytes, last in the file)
 *
 * A rank section is a sequence of record blocks. A block is itself a record
 * (RT_BLOCK) whose payload is an arcoll_block_header (checksum, rank, block
 * index) followed by whole records; the checksum is XXH3_64bits (xxHash) of
 * everything in the payload after the checksum field, so any changed byte of
 * a block is detected before its records are read. Blocks of a rank have
 * indexes 0, 1, 2, ...; the writer starts a new block when its buffer
 * (1 MiB) is full, so a block holds at most about 1 MiB of records.
 *
 * Each record inside a block is a RecordHeader (8 bytes: type, length of the
 * payload in bytes) followed by its payload; records never cross blocks.
 * A section starts with RT_RANK_BEGIN and ends with RT_RANK_END; a reader
 * that meets an unknown record type inside a block skips `length` bytes
 * (forward compatible within a major version). Each rank writes its own
 * section to a part file while the program runs (buffered, bounded memory,
 * see profiler/RECORDER_SEMANTICS.md); at MPI_Finalize rank 0 receives every section,
 * concatenates them and ends the file with RT_TRACE_END, whose body_bytes
 * (the offset of RT_TRACE_END) lets the reader detect a truncated file.
 *
 * Version 1 (no checksums, no blocks, no RT_TRACE_END, 32-byte header) and
 * version 2 (RT_CLOCK of 48 bytes: no synchronisation cost, no t_ready) are
 * not read: the reader names the version found and the one it reads.
 *
 * Times in records are the rank's *local* MPI_Wtime() in seconds. The
 * RT_CLOCK record carries the offsets to rank 0's clock measured by ping-pong
 * along a binomial tree (profiler/clock_tree.hpp) at MPI_Init and
 * MPI_Finalize; the reader maps local to global time by linear interpolation
 * between the two (drift), so skews can be compared across ranks.
 *
 * Communication step (CCS, seed 001_6a837e3d9ad6c429.txt, "Concurrent
 * Communication Sets"): each rank keeps a step counter that starts at 0 and
 * advances by one at every *synchronisation point*: the exit of a blocking
 * collective, of MPI_Recv, MPI_Sendrecv(_replace), and of every Wait/Test
 * call that completed at least one request. A message belongs to the step the
 * sender was in when it issued the send. CCS_t is the union over ranks of the
 * messages sent in step t. In an SPMD program the ranks pass the same
 * synchronisation points, so step t means the same phase on every rank.
 *
 * Receives (RT_RECV, written since 27 Nov 2026; older version-3 traces have
 * none): the receiving side of the same traffic, per (step, source) of the
 * receiver: MPI_Recv and MPI_Sendrecv(_replace) in the step they end (source
 * and size from the status), MPI_Irecv with a known source in the step it is
 * posted in (size = its count; the receive is taken to complete at the next
 * synchronisation point). MPI_Irecv from MPI_ANY_SOURCE, matched receives
 * (MPI_Mrecv) and persistent receives are not recorded. Matching the k-th
 * message src -> dst sent with the k-th received gives the dependencies
 * between the ranks' steps (placement/levels.hpp: which messages can be in
 * flight at the same time when ranks do not pass the same synchronisation
 * points, e.g. a pipelined wavefront of blocking MPI_Send / MPI_Recv).
 */
#ifndef ARCOLL_TRACE_FORMAT_H
#define ARCOLL_TRACE_FORMAT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARCOLL_TRACE_MAGIC "ARCTRACE"   /* 8 bytes, no terminator in the file */
#define ARCOLL_TRACE_VERSION 3u

/** File header, 40 bytes. */
typedef struct {
  char magic[8];          /**< "ARCTRACE" */
  uint32_t version;       /**< ARCOLL_TRACE_VERSION */
  uint32_t nranks;        /**< size of MPI_COMM_WORLD */
  double created;         /**< Unix time (seconds) when rank 0 wrote the file */
  uint32_t flags;         /**< bit 0: PAPI counters present */
  uint32_t reserved;
  uint64_t checksum;      /**< XXH3_64bits of the 32 bytes above */
} arcoll_trace_file_header;

/** Record types. */
enum arcoll_record_type {
  RT_RANK_BEGIN = 1, /**< payload: arcoll_rec_rank_begin + hostname bytes */
  RT_CALLSITE = 2,   /**< payload: uint32 id, then the call-site name bytes */
  RT_COMM = 3,       /**< payload: uint64 comm_id, uint32 size, uint32 pad, int32 world_rank[size] */
  RT_COLL = 4,       /**< payload: arcoll_rec_coll */
  RT_CCS = 5,        /**< payload: arcoll_rec_ccs */
  RT_COUNTER_NAMES = 6, /**< payload: uint32 n, then n NUL-terminated event names */
  RT_COUNTERS = 7,   /**< payload: uint64 coll_index, int64 value[n] (deltas since the previous collective) */
  RT_CLOCK = 8,      /**< payload: arcoll_rec_clock */
  RT_RANK_END = 9,   /**< payload: uint64 number of RT_COLL records, uint64 number of RT_CCS records */
  RT_BLOCK = 10,     /**< top level only; payload: arcoll_block_header, then whole records of types 1-9 */
  RT_TRACE_END = 11, /**< top level, last record of the file; payload: arcoll_rec_trace_end */
  RT_RECV = 12       /**< payload: arcoll_rec_ccs of a receive: step = the receiver's step, src = the
                          sender, dst = this rank (see "Receives" above); not counted by RT_RANK_END */
};

/** 8-byte header before every record. */
typedef struct {
  uint32_t type;    /**< arcoll_record_type */
  uint32_t length;  /**< payload bytes following this header */
} arcoll_record_header;

/** Start of an RT_BLOCK payload (16 bytes); the block's records follow. */
typedef struct {
  uint64_t checksum; /**< XXH3_64bits of the payload bytes after this field (rank, index, records) */
  uint32_t rank;     /**< world rank of the section the block belongs to */
  uint32_t index;    /**< 0, 1, 2, ... within the rank's section */
} arcoll_block_header;

/** Payload of RT_TRACE_END (24 bytes). */
typedef struct {
  uint64_t checksum;   /**< XXH3_64bits of the 16 bytes after this field */
  uint64_t body_bytes; /**< file offset of this record's header (header + all blocks) */
  uint32_t nranks;     /**< == the header's nranks */
  uint32_t pad;
} arcoll_rec_trace_end;

typedef struct {
  int32_t rank;     /**< world rank */
  int32_t pid;
  uint32_t host_len; /**< bytes of hostname following this struct */
  uint32_t pad;
} arcoll_rec_rank_begin;

/** Collective operations (blocking, their _c forms, and nonblocking starts). */
enum arcoll_coll_op {
  OP_BARRIER = 0, OP_BCAST, OP_REDUCE, OP_ALLREDUCE, OP_GATHER, OP_GATHERV,
  OP_SCATTER, OP_SCATTERV, OP_ALLGATHER, OP_ALLGATHERV, OP_ALLTOALL,
  OP_ALLTOALLV, OP_ALLTOALLW, OP_REDUCE_SCATTER, OP_REDUCE_SCATTER_BLOCK,
  OP_SCAN, OP_EXSCAN,
  /* neighbourhood collectives (MPI-3 process topologies) */
  OP_NEIGHBOR_ALLGATHER, OP_NEIGHBOR_ALLGATHERV, OP_NEIGHBOR_ALLTOALL,
  OP_NEIGHBOR_ALLTOALLV, OP_NEIGHBOR_ALLTOALLW,
  OP_COUNT_
};

/** Flags of arcoll_rec_coll. */
#define ARCOLL_COLL_NONBLOCKING 1u  /**< an I<coll> start call: t_exit is the return of the start */
#define ARCOLL_COLL_LARGE_COUNT 2u  /**< the MPI-4 _c form was called */
#define ARCOLL_COLL_IN_PLACE 4u     /**< MPI_IN_PLACE was passed */
#define ARCOLL_COLL_PERSISTENT 8u   /**< an MPI_Start of a persistent collective (MPI_<Coll>_init, MPI-4):
                                         t_entry / t_exit are those of the MPI_Start / MPI_Startall call,
                                         call site and bytes those of the init call; NONBLOCKING is set too */

/** Special values of arcoll_rec_coll.root (intercommunicator roots). */
#define ARCOLL_ROOT_NONE (-1)       /**< the operation has no root */
#define ARCOLL_ROOT_MPI_ROOT (-2)   /**< intercommunicator: this rank passed MPI_ROOT */
#define ARCOLL_ROOT_PROC_NULL (-3)  /**< intercommunicator: this rank passed MPI_PROC_NULL */

/** One collective call on one rank (64 bytes). */
typedef struct {
  uint64_t comm_id;   /**< see RT_COMM; 0 is MPI_COMM_WORLD */
  uint64_t seq;       /**< index of this call among the collectives of comm_id on this rank */
  uint64_t bytes;     /**< payload bytes this rank contributes or receives (see profiler/RECORDER_SEMANTICS.md) */
  uint64_t step;      /**< communication step at entry */
  double t_entry;     /**< local MPI_Wtime() at entry, seconds */
  double t_exit;      /**< local MPI_Wtime() at exit, seconds */
  uint32_t callsite;  /**< id from RT_CALLSITE of this rank's section */
  uint16_t op;        /**< arcoll_coll_op */
  uint16_t flags;     /**< ARCOLL_COLL_* */
  int32_t root;       /**< root as a rank of comm (remote group for an intercommunicator), or ARCOLL_ROOT_* */
  uint32_t pad;
} arcoll_rec_coll;

/** Point-to-point traffic from this rank to one destination in one step (32 bytes). A step's RT_CCS
 *  records are written in the order of each destination's first message in the step (the reader's
 *  CcsEntry::order); a step may be written in several pieces (the recorder's table full). */
typedef struct {
  uint64_t step;      /**< communication step of the sender */
  int32_t src;        /**< world rank of the sender (this rank) */
  int32_t dst;        /**< world rank of the receiver */
  uint64_t bytes;     /**< total bytes sent src -> dst in this step */
  uint32_t count;     /**< number of messages */
  uint32_t blocking;  /**< RT_CCS: how many of them a blocking call sent (MPI_Send, MPI_Ssend, MPI_Rsend,
                           MPI_Sendrecv(_replace): the sender waits for the transfer, placement/critical_path.hpp);
                           0 in traces written before 1 Dec 2026. RT_RECV: how many of them an MPI_Recv
                           received (a receive posted alone, after every earlier call of its step returned;
                           not MPI_Sendrecv's, which runs beside its send, nor MPI_Irecv's); 0 in traces
                           written before 4 Dec 2026 */
} arcoll_rec_ccs;

/** Clock model: global = local + off_init + (off_fini - off_init) * (local - t_init) / (t_fini - t_init). */
typedef struct {
  double t_init;      /**< local time of the MPI_Init measurement, seconds */
  double off_init;    /**< rank-0 clock minus this rank's clock at t_init, seconds */
  double t_fini;      /**< local time of the MPI_Finalize measurement (== t_init if none) */
  double off_fini;    /**< offset at t_fini */
  double rtt_init;    /**< sum of the best round-trip times along the tree path at init, seconds (error <= rtt/2) */
  double rtt_fini;    /**< the same at finalize */
  double cost_init;   /**< seconds this rank spent in the clock synchronisation at MPI_Init (version 3) */
  double cost_fini;   /**< seconds spent in the one at MPI_Finalize (version 3) */
  double t_ready;     /**< local time when the profiler's MPI_Init hook returned, seconds (version 3) */
  double pad;
} arcoll_rec_clock;  /* 80 bytes */

#ifdef __cplusplus
}
#endif
#endif
