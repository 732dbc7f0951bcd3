/**
 * @file replay_plan.hpp
 * @brief Per-rank replay schedule of a recorded arcoll trace: the messages
 *        and collective calls of every communication step, in the order the
 *        trace_replay program issues them (MPI-free; trace_replay.cpp runs it).
 *
 * Why: the placement suite needs the SMPI time of a real program's traffic
 * under each mapping, and the real programs (ScaLAPACK's xdlu from Debian's
 * scalapack-mpi-test) link MPICH, not SMPI. Their trace, recorded on MPICH
 * with libarcoll_profiler.so, is replayed under SMPI instead.
 *
 * What a rank r does in its communication step s (profiler/trace_format.h
 * defines the steps):
 *  1. posts one nonblocking receive per message it received in step s
 *     (RT_RECV entries; `count` messages of at most `max_msg(src, r)` bytes)
 *     and one nonblocking send per message it sent (CCS entries: `count`
 *     messages splitting the entry's bytes, the remainder on the first);
 *  2. calls the collectives it entered in step s, in entry order (blocking;
 *     nonblocking and persistent starts are replayed as the blocking call);
 *  3. waits for the receives of step s (the synchronisation point that ended
 *     the step), except deferred ones (below).
 * Sends are completed at the end only (the program's own Wait may come much
 * later than the step), as are deferred receives.
 *
 * Receives come from the trace's RT_RECV entries when, for every pair
 * src -> dst, they count as many messages as the sends (`receives_from_trace`);
 * otherwise (traces before RT_RECV, MPI_ANY_SOURCE Irecvs, Mrecv) every
 * message is received in the receiver's step equal to the sender's step (the
 * SPMD reading of CCS_t, seed 001_6a837e3d9ad6c429.txt).
 *
 * Deadlock freedom: the profiler records an MPI_Irecv in the step it is posted
 * in, not where it is waited for, so a receive may wait for a message its
 * sender only sends after a later collective. make_replay_plan() executes the
 * schedule abstractly (a send is posted when its rank reaches its step, a
 * receive wait needs its k-th message posted, a collective all members); when
 * no rank can advance, the receives the lowest stuck step waits for are
 * deferred to the end, and it goes on. The plan it returns completes.
 *
 * Collective arguments (bytes per rank as profiler/RECORDER_SEMANTICS.md defines them,
 * over the call's members (comm_id, seq)): bcast / reduce / allreduce / scan /
 * exscan the largest bytes (MPI_BYTE; reductions MPI_BOR); gather / scatter /
 * allgather blocks of the largest bytes; gatherv / scatterv / allgatherv each
 * member's own bytes; alltoall(v/w) blocks of largest / size; reduce_scatter
 * a reduce_scatter_block of ceil(largest / size); reduce_scatter_block
 * largest / size. Not replayed (counted in `skipped_colls`): neighbourhood
 * collectives (the trace has no process topology), calls on an
 * intercommunicator side (root MPI_ROOT / MPI_PROC_NULL), calls on a
 * communicator with a member outside MPI_COMM_WORLD, and calls some member
 * did not record.
 */
#ifndef ARCOLL_WORKLOADS_REPLAY_PLAN_HPP
#define ARCOLL_WORKLOADS_REPLAY_PLAN_HPP

#include <cstdint>
#include <vector>

#include "trace_reader.hpp"

namespace arcoll::replay {

/** Messages to or from one peer in one step: `count` messages, `bytes` in all
 *  (sends: split as evenly as possible; receives: each into a buffer of
 *  `max_msg` bytes). */
struct P2p {
  int peer;            ///< world rank
  uint32_t count;
  uint64_t bytes;      ///< sends: total bytes; receives: buffer bytes per message
  bool deferred;       ///< receives only: waited for at the end, not in its step
};

/** Bytes of message k (0-based) of a send entry of `count` messages and
 *  `bytes` in all: an even split, the remainder on the first (the largest). */
inline uint64_t part_bytes(uint64_t bytes, uint32_t count, uint32_t k) {
  return bytes / count + (k == 0 ? bytes % count : 0);
}

/** One collective call to replay. */
struct Coll {
  int op;                          ///< arcoll_coll_op (profiler/trace_format.h)
  int comm;                        ///< index into ReplayPlan::comms
  int root;                        ///< comm rank, -1 if none
  uint64_t bytes;                  ///< count in MPI_BYTE (block per rank for the gathers / scatters / all-to-all)
  std::vector<uint64_t> per_rank;  ///< gatherv / scatterv / allgatherv: bytes of each comm rank
  int call = -1;                   ///< index of the call (comm_id, seq) among the trace's calls: the members'
                                   ///< Coll entries of one call share it
};

/** One step of one rank. */
struct StepOps {
  uint64_t step;
  std::vector<P2p> recvs, sends;
  std::vector<Coll> colls;
};

/** The whole replay. */
struct ReplayPlan {
  int nranks = 0;
  std::vector<std::vector<int>> comms;          ///< comm index -> world ranks (0 = MPI_COMM_WORLD)
  std::vector<std::vector<StepOps>> ranks;      ///< per world rank, steps in increasing order
  bool receives_from_trace = false;             ///< RT_RECV entries used (file comment)
  uint64_t messages = 0, p2p_bytes = 0;         ///< point-to-point messages and bytes sent
  uint64_t colls = 0;                           ///< collective calls replayed (summed over ranks)
  uint64_t skipped_colls = 0;                   ///< collective calls not replayed (summed over ranks)
  uint64_t nonblocking_colls = 0;               ///< nonblocking / persistent starts replayed blocking
  uint64_t deferred_recvs = 0;                  ///< receive entries deferred to the end (deadlock guard)
};

/**
 * Builds the replay of `trace` (file comment). Throws std::invalid_argument
 * when the collectives cannot be ordered (a call no rank order can reach, e.g.
 * two calls entered in opposite orders on two communicators), naming the
 * communicator and call; never returns a plan that deadlocks in the abstract
 * execution.
 */
ReplayPlan make_replay_plan(const arcoll::trace::Trace &trace);

}  // namespace arcoll::replay

#endif
