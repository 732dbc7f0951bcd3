/**
 * @file critical_path.hpp
 * @brief Estimated communication time of a mapping as the longest chain of
 *        dependent messages (a trace with recorded receives only).
 *
 * The seed-001 cost (cost.hpp) sums, over the concurrent sets, the slowest
 * message of each set. That is the time when the sets are separated (every
 * rank passes the same synchronisation points: halo exchanges, rings). In a
 * pipeline (a wavefront of blocking MPI_Recv / MPI_Send) the sets are the
 * dependency levels (levels.hpp) and the slowest message of level l and that
 * of level l + 1 are usually on different ranks that never wait for each
 * other: the sum charges every level with the slowest link the front
 * crosses, while the time is set by one chain of dependent messages, which
 * crosses each slow link only a few times. Here:
 *
 *     T_cp(pi) = max over paths of the happened-before graph
 *                (dep_graph.hpp) of the sum of its messages' times,
 *
 *     time of message i->j of set t = L(pi(i),pi(j)) + S * coll(t,pi(i),pi(j)) / B(pi(i),pi(j))
 *
 * (the seed-001 term of cost.hpp, collisions counted among the messages of
 * the same set; with Contention::Volume or Blend L + max over the route's
 * links of V(t,k) / B_k). Program order adds nothing: the trace does not
 * say how long a rank computes.
 *
 * Collectives (Topology::path_collectives, on unless `arcoll place
 * --no-path-collectives`): a blocking collective call is a node every
 * member enters (its step's node -> the call) and leaves (the call -> its
 * next step's node) after the call's time on the mapping, by comm rank:
 * bcast / scatter(v) a binomial tree down from the root (member v's time =
 * the sum over the tree path root -> v of L + S / B), reduce / gather(v) a
 * binomial tree up (the root leaves when its last subtree is in, another
 * member after its subtree's data went to its parent), the others
 * (allreduce, allgather, alltoall, barrier, scan, ...) recursive doubling
 * (per round max(own, partner's) + L + S / B); S = the call's largest bytes
 * over its members, L and B of the mapped route (no collisions). Only calls
 * between point-to-point messages count: a member has a message in a step
 * up to its entry step and one after it (setup barriers and the reductions
 * that report results stay 0 s, as the workloads' timed regions leave them
 * out). Without this the calls were barriers of 0 s, and ScaLAPACK LU's
 * 22136 BLACS broadcasts and sums, which SMPI times with the replay, were
 * missing: Spearman of the path with SMPI on the suite's scalapack_lu
 * 0.63-0.94 -> 0.79-0.94 (placement/notes/chooser-suite-2026-12-01-to-02.md "Collectives on the critical
 * path").
 *
 * Overlap: the sets say which messages may overlap, not which do; in a
 * pipeline a mapping that slows some messages shifts the stages and makes
 * messages of different levels share links. So: start from the
 * contention-free durations (L + S / B), take the schedule the longest
 * paths give (a message leaves when its sender's step is reached), charge
 * each message coll = 1 + its time-weighted overlap with the other messages
 * on each link of its route (the largest over the links: the integral of
 * the link's active-message count over the message's interval / its
 * duration), move each duration half-way to L + S x coll / B, and repeat
 * kOverlapIterations times. Measured on the placement suite
 * (placement/notes/chooser-suite-2026-11-26-to-29.md "Critical path").
 *
 * Fluid: the graph replayed in time order (path_replay.hpp): each message
 * is a flow that starts when its sender's step is reached (a rendezvous
 * send: and its receiver's), waits its route's latency L, then moves its S
 * bytes at the max-min fair share of every link of its route among the
 * flows active there (fluid.hpp), recomputed whenever a flow starts or ends;
 * its end is its receiver's input. This is SimGrid's sharing (without its
 * per-size factors and its TCP window) on the schedule the trace's
 * dependencies give, rather than on one step (Contention::Fluid of cost.hpp).
 * `arcoll place --evaluate MAPPING --fluid-path` prints it; the chooser's
 * path opinion weighs it with the overlap path (place.hpp PathOpinion,
 * overlap^0.3 x fluid^0.7: Spearman >= 0.9 with SMPI on all 36 cells of the
 * suite, where each path alone misses 3-4; placement/notes/chooser-suite-2026-12-03-to-04.md "One model for
 * every cell").
 *
 * Rendezvous: a blocking send (MPI_Send, MPI_Ssend, MPI_Rsend,
 * MPI_Sendrecv: CcsEntry::blocking, recorded since 1 Dec 2026) of at least
 * Topology::rendezvous_bytes (`arcoll place --rendezvous-bytes`, default
 * 65536: SMPI's smpi/send-is-detached-thresh) waits for its receiver: its
 * transfer starts when the sender is there and the receiver has reached the
 * step it receives in, the sender's blocking sends of one step go one after
 * another (in the order of their first messages in the step, as the profiler
 * writes them: CcsEntry::order; until 2 Dec 2026 by destination rank), and
 * the sender's next
 * step waits for the last. A step that ends in an MPI_Recv (RT_RECV's
 * blocking count, recorded since 4 Dec 2026; not an MPI_Sendrecv, whose
 * receive runs beside its send) posts that receive only after those sends
 * returned: a transfer into it (rendezvous or matched) also waits for the
 * receiver's last one. Without this a wavefront's rank was taken to post
 * its next block's receive while its sends of the block were still
 * waiting (placement/notes/chooser-suite-2026-12-03-to-04.md "The wavefront's miss"). A pipeline of such sends
 * (a wavefront of
 * MPI_Recv / MPI_Send of 64 KiB) then couples every rank to its successors;
 * a mapping that puts more of the pipeline's edges on the network lengthens
 * that chain (placement/notes/chooser-suite-2026-11-29-to-30.md "The wavefront miss is the rendezvous
 * protocol": at 65532 B the two mappings ran equally fast under SMPI, at
 * 65536 B 27 % apart).
 *
 * Matched sends: every other send between two ranks (eager, nonblocking,
 * and those of traces without the blocking record) of at least
 * Topology::async_bytes per message (`arcoll place --async-bytes`, default
 * 0) starts its transfer when its sender's step is reached and its
 * receiver has reached the step it receives in; its sender does not wait
 * for it. Smaller ones leave at their sender's step. This is SMPI's
 * default: SimGrid starts a transfer when a receive matches it, unless the
 * message is below smpi/async-small-thresh (default 0) and flows to a
 * permanent receiver; an MPI library whose eager messages flow at once is
 * described by its eager limit (usually --rendezvous-bytes). Before 3 Dec
 * 2026 every such send left at its sender's step: a receiver that posts
 * late (ScaLAPACK LU's ranks between their BLACS calls) waited nothing for
 * a message SMPI only then starts to move, and the path on node16's LU was
 * half SMPI's plain-model time; Spearman of the path with SMPI on that cell
 * 0.83 -> 0.97 (placement/notes/chooser-suite-2026-12-03-to-04.md "Matched sends").
 *
 * Entries of several messages (a rank that sends to one destination
 * several times without a synchronisation point between, e.g. a
 * wavefront's corner rank, which receives nothing: all its sends of the run
 * fall in one step): the entry is split along its runs (the messages
 * matched with one receive step, DepEdge::messages; path_protocol.hpp). An
 * eager run arrives after the entry's messages up to it (L + the share of
 * the rest of the entry's time), a rendezvous run is a transfer of its own
 * that waits for its receiver; a step's runs go the first run of each entry
 * (CcsEntry::order), then the second runs, and so on. Until 2 Dec 2026 the
 * whole entry was one transfer every receive waited for: the corner rank's
 * 32 blocks of 64 KiB were one 2 MiB transfer, and its rendezvous node
 * waited for its receiver's last receive step (a cycle). The overlap path's
 * Spearman with SMPI on the wavefront rose from 0.64-0.76 to 0.75-0.92
 * (placement/notes/chooser-suite-2026-12-01-to-02.md "Entries of several messages, and the fluid path").
 *
 * Source: not in the seeds; the critical-path view of a trace replay
 * (LogGOPSim-style, Hoefler et al., HPDC 2010) without its overheads.
 * Used by the chooser (place.hpp, PathOpinion) and shown by
 * `arcoll place --evaluate`.
 */
#ifndef ARCOLL_PLACEMENT_CRITICAL_PATH_HPP
#define ARCOLL_PLACEMENT_CRITICAL_PATH_HPP

#include <memory>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/** Which messages a message of the path collides with. */
enum class PathContention {
  Sets,     ///< those of its concurrent set (the seed-001 collisions, cost.hpp)
  Free,     ///< none: L + S / B (a lower bound of the chain's time)
  Overlap,  ///< those on its links at the same time (file comment, "Overlap")
  Fluid,    ///< those on its links at the same time, sharing them max-min fairly (file comment, "Fluid")
};

/** Schedules computed by PathContention::Overlap. */
inline constexpr int kOverlapIterations = 10;

namespace path {
struct Protocol;
}
class DepOrder;

/** The critical paths of one trace on one topology: the part that does not depend on the mapping (the
 *  happened-before graph with the rendezvous protocol's waits, path_protocol.hpp: O(entries log entries +
 *  edges)) built once, for the mappings and contention modes asked of it (the chooser's path opinion asks
 *  for two mappings, `arcoll place --evaluate` for three or four modes). Keeps references to `g` and
 *  `topo`, which must outlive it; time() is const and may run from several threads at once. */
class CriticalPaths {
 public:
  CriticalPaths(const CommGraph &g, const Topology &topo);
  ~CriticalPaths();
  CriticalPaths(const CriticalPaths &) = delete;
  CriticalPaths &operator=(const CriticalPaths &) = delete;

  /** T_cp(pi) in seconds (file comment), or -1 when the trace has no dependency
   *  graph (g.deps null: steps, not levels, or a trace without receives).
   *  Precondition: map.size() == g.nranks, entries in [0, hosts).
   *  Sets, Free: O(messages x route length + nodes + edges of the graph);
   *  Overlap: kOverlapIterations x (that + sum over links of n_k log n_k);
   *  Fluid: path_replay.hpp (per start or end of a message, the max-min rates of the active ones). */
  double time(const Mapping &map, PathContention mode = PathContention::Sets) const;

 private:
  const CommGraph &g_;
  const Topology &topo_;
  std::unique_ptr<const path::Protocol> proto_;  // null without a dependency graph
  std::unique_ptr<const DepOrder> order_;        // proto_->g's walk, replayed by every longest path
};

/** CriticalPaths(g, topo).time(map, mode): one mapping, one mode. */
double critical_path_time(const CommGraph &g, const Topology &topo, const Mapping &map,
                          PathContention mode = PathContention::Sets);

}  // namespace arcoll::placement

#endif
