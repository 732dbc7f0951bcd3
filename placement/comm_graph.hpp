/**
 * @file comm_graph.hpp
 * @brief Communication steps and the weighted rank graph from a trace.
 *
 * Concurrent Communication Sets (seed 001_6a837e3d9ad6c429.txt): CCS_t is the
 * set of messages i -> j issued in communication step t (profiler/trace_format.h
 * defines the steps). One CCS entry of the trace (src, dst, step) aggregates
 * every message src -> dst of that step; the placement treats it as one
 * message of `bytes` bytes. Messages of a rank to itself are dropped (they
 * never leave the process). With CommGraphOptions::by_levels and a trace that
 * records receives, the sets are the messages' dependency levels instead
 * (levels.hpp: a pipeline's dependent messages do not share a set).
 */
#ifndef ARCOLL_PLACEMENT_COMM_GRAPH_HPP
#define ARCOLL_PLACEMENT_COMM_GRAPH_HPP

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "dep_graph.hpp"
#include "trace_reader.hpp"

namespace arcoll::placement {

/** One message of a step: src -> dst, bytes (aggregated over the step). */
struct Message {
  int src, dst;
  uint64_t bytes;
};

/** One communication step t: the messages of CCS_t. */
struct Step {
  uint64_t id;                   ///< the trace's step number (or a synthetic one for collectives)
  std::vector<Message> msgs;
};

/**
 * Everything the placement needs from a trace.
 *  - `steps`: non-empty steps in increasing id order;
 *  - the undirected weighted graph in CSR form (METIS/Scotch layout): vertex
 *    = rank, xadj[nranks+1], adjncy/adjwgt = neighbours and total bytes
 *    exchanged in both directions over all steps (no self loops).
 */
struct CommGraph {
  int nranks = 0;
  std::vector<Step> steps;
  std::vector<int64_t> xadj;
  std::vector<int> adjncy;
  std::vector<uint64_t> adjwgt;  ///< per edge (CSR, as adjncy): bytes between the pair, both directions
  std::vector<uint64_t> adjmsgs; ///< per edge: messages between the pair, both directions (time_weighted_graph)
  uint64_t total_bytes = 0;      ///< sum of message bytes over all steps
  bool by_levels = false;        ///< steps are dependency levels (levels.hpp), not the trace's steps
  uint64_t levels_forced = 0;    ///< Levels::forced when by_levels
  /** When by_levels: the happened-before graph and each send's set
   *  (critical_path.hpp); null otherwise. Shared: copies of the graph are cheap. */
  std::shared_ptr<const Dependencies> deps;
};

/** Options for build_comm_graph(). */
struct CommGraphOptions {
  /** Also model every collective call as point-to-point steps (approximation:
   *  broadcast-like (bcast, reduce, gather(v), scatter(v)) as a binomial tree
   *  rooted at the root, everything else as recursive doubling with
   *  ceil(log2 p) rounds; each message carries the maximum `bytes` recorded for
   *  that call over its ranks). Off by default: the trace's CCS covers
   *  point-to-point only. */
  bool with_collectives = false;
  /** Group the messages by dependency level (levels.hpp) instead of the
   *  trace's step when the trace records receives (RT_RECV); traces without
   *  them keep their steps. Step ids are then levels. Off in this struct;
   *  `arcoll place` turns it on by default (`--sets auto`): on a real
   *  program's trace (ScaLAPACK LU, placement/notes/chooser-suite-2026-11-26-to-29.md "A real program")
   *  Spearman rose 0.42 -> 0.60 (seed001) and 0.21 -> 0.54 (node16), and on
   *  seven of the suite's nine workloads the costs are the same. */
  bool by_levels = false;
};

/**
 * Builds the steps and the graph. Throws std::invalid_argument naming the
 * trace file when a CCS entry names a rank outside [0, nranks) or when
 * nranks < 1; a trace with no message gives a graph without edges.
 */
CommGraph build_comm_graph(const arcoll::trace::Trace &trace, const CommGraphOptions &opt = {});

/** Builds the graph part (xadj/adjncy/adjwgt/adjmsgs/total_bytes) from `steps` (used by
 *  build_comm_graph and by tests that make steps by hand). */
void finish_comm_graph(CommGraph &g);

}  // namespace arcoll::placement

#endif
