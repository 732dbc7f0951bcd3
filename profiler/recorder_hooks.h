/**
 * @file recorder_hooks.h
 * @brief C interface between the generated PMPI wrappers (gen_wrappers.py)
 *        and the recorder (recorder.cpp). Semantics: profiler/RECORDER_SEMANTICS.md.
 *
 * All functions are cheap on the hot path: no allocation (except the first
 * time a communicator or a call site is seen), no I/O except appending to a
 * 1 MiB buffer. None of them raises an MPI error: they are called after the
 * PMPI_ call has validated the arguments.
 */
#ifndef ARCOLL_RECORDER_HOOKS_H
#define ARCOLL_RECORDER_HOOKS_H

#include <mpi.h>
#include <stdint.h>

#include "trace_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Root value passed for collectives without a root. */
#define ARCOLL_NO_ROOT (-1000001)
/** Maximum number of PAPI events recorded. */
#define ARCOLL_MAX_COUNTERS 8

/** State captured at the entry of a collective. */
typedef struct {
  double t_entry;                        /**< local MPI_Wtime, seconds */
  long long ctr[ARCOLL_MAX_COUNTERS];    /**< counter deltas since the previous collective */
} arcoll_coll_ctx;

/** Nonzero while recording (after MPI_Init, before MPI_Finalize, trace writable). */
int arcoll_enabled(void);
/** Called by MPI_Init / MPI_Init_thread after PMPI_Init succeeded. Collective over MPI_COMM_WORLD. */
void arcoll_init_hook(void);
/** Called by MPI_Finalize before PMPI_Finalize. Collective over MPI_COMM_WORLD. */
void arcoll_finalize_hook(void);

/** Entry of a collective: reads the clock and the counters. */
void arcoll_coll_begin(arcoll_coll_ctx *ctx);
/** Exit of a collective: writes RT_COLL (+RT_COUNTERS); a blocking collective
 *  is a synchronisation point. `root` is the caller's root argument or
 *  ARCOLL_NO_ROOT; `bytes` per RECORDER_SEMANTICS.md; `ra` the caller's return address.
 *  May run a PMPI_Bcast on `comm` the first time `comm` is seen (comm id). */
void arcoll_coll_end(arcoll_coll_ctx *ctx, int rc, int op, unsigned flags, int root,
                     MPI_Comm comm, int64_t bytes, void *ra);
/** A send of `bytes` bytes to comm rank `dest` of `comm` (MPI_PROC_NULL ignored). */
void arcoll_p2p_send(int dest, MPI_Comm comm, int64_t bytes);
/** The same for a send by a blocking call (MPI_Send, MPI_Ssend, MPI_Rsend, MPI_Sendrecv(_replace)):
 *  counted in arcoll_rec_ccs::blocking as well. */
void arcoll_p2p_send_blocking(int dest, MPI_Comm comm, int64_t bytes);
/** A receive from comm rank `source` of `comm` of (at most) `bytes` bytes,
 *  noted in the current step (RT_RECV: the synchronisation point that ends
 *  the step completes it). MPI_Irecv calls it when posting (a known source);
 *  negative sources (MPI_ANY_SOURCE, MPI_PROC_NULL) are ignored. */
void arcoll_p2p_recv(int source, MPI_Comm comm, int64_t bytes);
/** A completed receive (MPI_Recv, MPI_Sendrecv(_replace)) with the caller's
 *  `source` argument: the sender is `source`, or st->MPI_SOURCE for
 *  MPI_ANY_SOURCE (the status of a receive from a named source is not read:
 *  SMPI leaves it unset for a message to self); bytes = the status's byte
 *  count when it lies in [0, max_bytes], else max_bytes (the receive
 *  buffer's size). MPI_PROC_NULL is ignored. `alone`: 1 for MPI_Recv (the
 *  receive was posted after the step's earlier calls returned: counted in
 *  RT_RECV's arcoll_rec_ccs::blocking), 0 for MPI_Sendrecv(_replace). */
void arcoll_p2p_recv_status(int source, const MPI_Status *st, MPI_Comm comm, int64_t max_bytes, int alone);
/** A synchronisation point: flushes the step's CCS table and advances the step. */
void arcoll_sync_point(void);

/** MPI_Abort is about to end the job: write this rank's buffered records to
 *  its part file and say how to assemble the parts (`arcoll recover`). */
void arcoll_abort_hook(void);

/** MPI_Pcontrol(level): level 0 pauses recording (no RT_COLL / RT_CCS
 *  records are written), any other level resumes it, as mpiP does.  While
 *  paused the recorder still numbers calls and steps, so the calls recorded
 *  after a pause stay matched across ranks even when ranks pause at different
 *  calls. */
void arcoll_pcontrol(int level);

/** Out-neighbours of `comm`'s process topology (comm ranks, MPI_PROC_NULL
 *  kept: the order of the send buffer blocks of MPI_Neighbor_*: Cartesian -1
 *  then +1 per dimension, graph neighbours, distributed graph destinations);
 *  *n = their number (0 without a topology).  Cached per communicator
 *  (neighbors.cpp).  The pointer stays valid until `comm` is freed. */
const int *arcoll_neighbor_dests(MPI_Comm comm, int *n);
/** Scratch array of n int64 (per thread, reused by the next call). */
int64_t *arcoll_neighbor_scratch(int n);

/** Number of live persistent collective requests (persistent.cpp); 0 keeps
 *  MPI_Start / MPI_Startall / MPI_Request_free on their fast path. */
int arcoll_persistent_count(void);
/** A successful MPI_<Coll>_init (MPI-4) or MPI_Neighbor_<coll>_init made
 *  `req`: remember op, flags (ARCOLL_COLL_PERSISTENT | NONBLOCKING ...),
 *  root, comm, bytes (per RECORDER_SEMANTICS.md), the call site `ra` and, for
 *  neighbourhood collectives, the n out-neighbours `dests` and the bytes
 *  `each` sent to each (copied). */
void arcoll_persistent_init(MPI_Request req, int op, unsigned flags, int root, MPI_Comm comm,
                            int64_t bytes, int n, const int *dests, const int64_t *each, void *ra);
/** A successful MPI_Start / MPI_Startall of `reqs[0..count)`: one RT_COLL per
 *  persistent collective among them (entry = ctx's, exit = now), its
 *  neighbour sends into the step's CCS. Other requests are ignored. */
void arcoll_persistent_started(const arcoll_coll_ctx *ctx, int count, const MPI_Request *reqs);
/** MPI_Request_free(&req) is about to free `req`: forget it. */
void arcoll_persistent_free(MPI_Request req);

/** Size of `dt` in bytes; 0 for MPI_DATATYPE_NULL. */
int64_t arcoll_type_size(MPI_Datatype dt);
/** Size of the group this rank exchanges with: remote group for an intercommunicator. */
int arcoll_comm_peers(MPI_Comm comm);
/** Size of the local group. */
int arcoll_comm_local_size(MPI_Comm comm);
/** Rank in the local group. */
int arcoll_comm_rank(MPI_Comm comm);
/** Intracommunicator: root == my rank. Intercommunicator: root == MPI_ROOT. */
int arcoll_is_root(int root, MPI_Comm comm);
/** Intercommunicator and root == MPI_ROOT. */
int arcoll_is_rootside(int root, MPI_Comm comm);
/** Intercommunicator and root == MPI_PROC_NULL (this rank takes no part). */
int arcoll_root_is_proc_null(int root, MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif
