/**
 * @file dep_graph.hpp
 * @brief The happened-before graph of a trace's point-to-point messages and
 *        blocking collectives, and longest paths through it.
 *
 * Node (r, s) = rank r in its communication step s (profiler/trace_format.h);
 * nodes of one rank are consecutive (node(r, s) = base[r] + s), followed by
 * one virtual node per blocking collective call. Edges:
 *  - program order (r, s) -> (r, s + 1): implicit, not in `edges`;
 *  - a message src -> dst sent in the sender's step a and received in the
 *    receiver's step b: (src, a) -> (dst, b + 1) (the k-th message src -> dst
 *    sent is matched with the k-th received, over all tags and communicators;
 *    one edge per run of matched messages, labelled with the send entry);
 *  - a blocking collective (one call (comm, seq), entry steps s_r on its
 *    members): (r, s_r) -> call node -> (r', s_r' + 1).
 *
 * Two uses: the dependency levels (levels.hpp: unit weights) and the
 * critical path of a mapping (critical_path.hpp: seconds per message).
 * The receive step of an MPI_Irecv is the step where it was posted (the
 * profiler does not follow requests), which can close a cycle; longest paths
 * break it by taking the stuck node of the lowest step as ready.
 */
#ifndef ARCOLL_PLACEMENT_DEP_GRAPH_HPP
#define ARCOLL_PLACEMENT_DEP_GRAPH_HPP

#include <cstdint>
#include <vector>

#include "trace_reader.hpp"

namespace arcoll::placement {

/** One blocking collective call on one rank: its call (comm_id, seq) and the
 *  rank's step at entry. */
struct CollStep {
  int rank;
  uint64_t comm_id, seq, step;
};

/** Kind of a DepEdge. */
enum class DepKind : uint8_t { Message, CollEntry, CollExit };

struct DepEdge {
  uint64_t from, to;
  DepKind kind;
  uint64_t send;  ///< Message: index of the send entry (the `sends` given to build_dep_graph)
  uint32_t messages = 0;  ///< Message: how many of the entry's CcsEntry::count messages the edge carries
};

struct DepGraph {
  std::vector<uint64_t> base;  ///< nranks + 1 entries: node(r, s) = base[r] + s, rank nodes < base[nranks]
  uint64_t nnodes = 0;         ///< rank nodes + one virtual node per collective call
  std::vector<DepEdge> edges;
  std::vector<char> sent;      ///< per rank node: the rank sent to another rank in that step
  uint64_t matched = 0;        ///< messages matched with a receive

  int nranks() const { return static_cast<int>(base.size()) - 1; }
  uint64_t node(int r, uint64_t s) const { return base[r] + s; }
  uint64_t rank_nodes() const { return base.back(); }
};

/** A graph with what a mapping's critical path needs of its messages
 *  (CommGraph::deps, critical_path.hpp): per send entry i of the trace's
 *  `ccs`, msg[i] (src, dst, bytes of the entry) and set[i], the index in
 *  CommGraph::steps of the concurrent set it belongs to (kNoSet for a
 *  message of a rank to itself, which the sets leave out). */
struct Dependencies {
  static constexpr uint32_t kNoSet = UINT32_MAX;
  DepGraph graph;
  std::vector<arcoll::trace::CcsEntry> msg;
  std::vector<uint32_t> set;
  /** Per rank node (r, s) (size graph.rank_nodes(), or empty): 1 when r's step s ends in an MPI_Recv (a
   *  receive entry of that step with CcsEntry::blocking > 0), whose receive was posted only after the
   *  step's blocking sends returned (critical_path.hpp "Rendezvous"). */
  std::vector<char> recv_alone;
  /** One blocking collective call: its virtual node is graph.rank_nodes() + its index. */
  struct Call {
    std::vector<int> members;  ///< comm rank -> world rank (empty: communicator unknown, 0 s)
    int root = -1;             ///< comm rank, -1 if none
    uint64_t bytes = 0;        ///< largest over the members (profiler/RECORDER_SEMANTICS.md)
    int op = 0;                ///< arcoll_coll_op
    bool inside = false;       ///< a member has point-to-point steps both up to its entry step and after it
  };
  std::vector<Call> calls;
  /** Per edge of `graph`: for a CollExit edge the comm rank of the member it leads to in its call's
   *  `members`, -1 elsewhere (or when the member is not in them). */
  std::vector<int> exit_member;
};

/**
 * Builds the graph (file comment). `sends` and `recvs` are the trace's `ccs`
 * and `recvs` (world ranks in [0, nranks), steps of the sender / receiver;
 * any order); `colls` the blocking collectives. O(entries log entries).
 * Throws std::invalid_argument naming the entry if a rank is outside
 * [0, nranks).
 */
DepGraph build_dep_graph(int nranks, const std::vector<arcoll::trace::CcsEntry> &sends,
                         const std::vector<arcoll::trace::CcsEntry> &recvs, const std::vector<CollStep> &colls);

/**
 * Kahn's order over a DepGraph, the walk that longest_paths and the fluid
 * replay (path_replay.hpp) share: a node is ready when every input (its
 * edges and, for a rank node, the program-order edge from the node before
 * it) has arrived. next() hands out the ready nodes, marking them done;
 * arrive(v) notes one input of v. When none is ready and nodes are left, a
 * cycle (file comment) holds them: force() takes the stuck rank node of the
 * lowest step as ready. Nodes a caller settles another way (path_replay:
 * a rendezvous node reached once by its transfer's end) may have their
 * count of inputs lowered through `inputs`. O(nodes + edges) in all.
 */
class DepWalk {
 public:
  explicit DepWalk(const DepGraph &g);
  /** The next ready node into `u` (marked done); false when none is ready. */
  bool next(uint64_t &u);
  /** One input of `v` arrived (ignored once v is done). */
  void arrive(uint64_t v) {
    if (!done_[v] && --inputs[v] == 0) queue_.push_back(v);
  }
  /** A cycle: the stuck rank node of the lowest step made ready; false if no rank node is left. */
  bool force();
  /** The program-order successor of `u` (the same rank's next node), or UINT64_MAX. */
  uint64_t successor(uint64_t u) const {
    return u < g_.rank_nodes() && u + 1 < g_.base[rank_of_[u] + 1] ? u + 1 : UINT64_MAX;
  }
  /** The indices (into g.edges) of the edges out of `u`: out_edge[out_first[u]] .. [out_first[u + 1]). */
  std::vector<uint64_t> out_first;
  std::vector<std::size_t> out_edge;
  /** Inputs not yet arrived, per node. */
  std::vector<uint64_t> inputs;

 private:
  const DepGraph &g_;
  std::vector<int> rank_of_;
  std::vector<char> done_;
  std::vector<uint64_t> queue_, cursor_;  // cursor_: each rank's first node not yet done
  std::size_t head_ = 0;
};

/**
 * DepWalk's order of `g` recorded once (the nodes in the order next() hands
 * them out, forced ones included: the order depends on the graph, not on
 * weights), so that longest paths under many weightings (the critical
 * path's overlap iterations, one mapping after another) replay it instead
 * of walking again: longest() gives the values longest_paths gives, bit for
 * bit. Holds a reference to `g`, which must outlive it. O(nodes + edges)
 * to build and per longest().
 */
class DepOrder {
 public:
  explicit DepOrder(const DepGraph &g);
  /** longest_paths(g, edge_w, progress_w, nullptr) (same sizes, same values). */
  std::vector<double> longest(const std::vector<double> &edge_w, const std::vector<double> &progress_w) const;

 private:
  const DepGraph &g_;
  std::vector<uint64_t> order_, out_first_, succ_;  // succ_: program-order successor per node, or UINT64_MAX
  std::vector<std::size_t> out_edge_;
};

/**
 * Longest weighted path into every node (Kahn's order): `edge_w[i]` is the
 * weight of g.edges[i], `progress_w[v]` that of the program-order edge out
 * of rank node v (size g.rank_nodes()). Weights >= 0 (any unit). Returns one
 * value per node (size g.nnodes); `*forced` (may be null) counts the nodes
 * taken out of cycles (file comment). O(nodes + edges).
 */
std::vector<double> longest_paths(const DepGraph &g, const std::vector<double> &edge_w,
                                  const std::vector<double> &progress_w, uint64_t *forced);

}  // namespace arcoll::placement

#endif
