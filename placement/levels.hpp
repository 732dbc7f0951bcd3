/**
 * @file levels.hpp
 * @brief Dependency levels of a trace's point-to-point messages: which
 *        messages can be in flight at the same time.
 *
 * The trace's communication step (profiler/trace_format.h) is a per-rank
 * counter of synchronisation points. When every rank passes the same points
 * (halo exchanges, rings, all-to-all rounds) step t is one phase on every
 * rank and CCS_t (seed 001_6a837e3d9ad6c429.txt) is a set of concurrent
 * messages. When ranks pass different numbers of points (a pipelined
 * wavefront of blocking MPI_Recv / MPI_Send: a corner rank receives nothing,
 * an inner rank twice per block) step t of one rank and step t of another
 * are unrelated, and CCS_t mixes messages that never overlap in time.
 *
 * The level is a Lamport clock over the ranks' steps, built from the
 * receives the trace records (RT_RECV): node (r, s) = rank r in its step s;
 *  - (r, s) -> (r, s + 1) (program order), weight 1 if r sent in step s
 *    (the messages of its next step follow those), else 0;
 *  - a message src -> dst sent in the sender's step a and received in the
 *    receiver's step b: (src, a) -> (dst, b + 1), weight 1 (the k-th message
 *    src -> dst sent is matched with the k-th received, over all tags and
 *    communicators);
 *  - a blocking collective (one call (comm, seq), entry steps s_r on its
 *    members): every (r, s_r) -> (r', s_r' + 1), weight 1 (through one
 *    virtual node).
 * level(r, s) = the longest weighted path into (r, s); a message sent in
 * (src, a) gets level(src, a). Messages of one level are grouped as one
 * concurrent set. For SPMD phases the levels number the steps again
 * (level = step up to a shift); in a pipeline stage r's block k gets level
 * r + k: a set holds the blocks in flight at one time.
 *
 * The receive steps of MPI_Irecv are those of posting (the profiler does not
 * follow requests), which can make a cycle in this graph (a receive posted
 * before the message it waits for was caused); such cycles are broken by
 * taking the stuck node of the lowest step as if its remaining inputs were
 * absent (`forced` counts them).
 */
#ifndef ARCOLL_PLACEMENT_LEVELS_HPP
#define ARCOLL_PLACEMENT_LEVELS_HPP

#include <cstdint>
#include <vector>

#include "dep_graph.hpp"
#include "trace_reader.hpp"

namespace arcoll::placement {

/** Result of message_levels(). */
struct Levels {
  std::vector<uint64_t> of_send;  ///< level of sends[i], same order
  uint64_t matched = 0;           ///< messages matched with a receive
  uint64_t forced = 0;            ///< nodes taken out of a cycle (see the file comment)
};

/**
 * Levels of the sends (file comment). `sends` and `recvs` are the trace's
 * `ccs` and `recvs` (world ranks in [0, nranks), steps of the sender /
 * receiver; any order); `colls` the blocking collectives. The graph is
 * dep_graph.hpp's, with unit weights. O(nodes + edges):
 * nodes = sum over ranks of (largest step seen + 2) + number of calls.
 * Throws std::invalid_argument if a rank is outside [0, nranks).
 */
Levels message_levels(int nranks, const std::vector<arcoll::trace::CcsEntry> &sends,
                      const std::vector<arcoll::trace::CcsEntry> &recvs, const std::vector<CollStep> &colls);

/** The same from a graph build_dep_graph() made of the same `sends`. */
Levels message_levels(const DepGraph &g, const std::vector<arcoll::trace::CcsEntry> &sends);

}  // namespace arcoll::placement

#endif
