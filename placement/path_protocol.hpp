/**
 * @file path_protocol.hpp
 * @brief What every critical path of a mapping (critical_path.hpp) is built
 *        on: the happened-before graph with the rendezvous protocol's waits,
 *        and the seconds of the blocking collectives' exit edges.
 *
 * Internal to arcoll_placement (critical_path.cpp, path_replay.cpp); the
 * models are described in critical_path.hpp ("Rendezvous", "Collectives").
 */
#ifndef ARCOLL_PLACEMENT_PATH_PROTOCOL_HPP
#define ARCOLL_PLACEMENT_PATH_PROTOCOL_HPP

#include <cstdint>
#include <vector>

#include "cost.hpp"
#include "dep_graph.hpp"
#include "topology.hpp"

namespace arcoll::placement::path {

/** The happened-before graph `g` (Dependencies::graph plus one virtual node per
 *  rendezvous transfer) and, per edge of g, the send entry (index into
 *  Dependencies::msg) whose transfer time weighs it, or -1 for 0 s, and the part of that
 *  transfer the edge waits for (an entry of several messages: its runs, path_protocol.cpp). */
struct Protocol {
  DepGraph g;
  std::vector<int64_t> edge_send;  // per edge of g: the send entry whose cost weighs it, or -1 (0 s)
  std::vector<double> edge_share;  // per edge of g: the part of that entry's transfer it waits for, (0, 1]
  std::vector<uint64_t> xnode;     // per send entry: its first run's X, or UINT64_MAX (eager, or not blocking)
  std::vector<double> xshare;      // per send entry: the share of that X's edges
};

/** Route of a message src -> dst (ranks) on `map`: writes its links into `route` (at least
 *  Topology::max_route() entries), its latency (seconds, the sum) and bottleneck bandwidth (bytes/s);
 *  returns the number of links. */
int route_of(const Topology &topo, const Mapping &map, int src, int dst, std::vector<int> &route, double &lat,
             double &bw);

/** Protocol of `d`: blocking sends of at least `rendezvous` bytes per message (Topology::rendezvous_bytes; 0:
 *  none) are rendezvous transfers; every other send between two ranks of at least `async` bytes per message
 *  (Topology::async_bytes; UINT64_MAX: none) is a matched one, whose transfer waits for its receiver but not
 *  its sender for it (critical_path.hpp "Matched sends"); smaller ones flow at once (with neither kind,
 *  g = d.graph). O(entries log entries + edges); independent of the mapping. */
Protocol protocol(const Dependencies &d, uint64_t rendezvous, uint64_t async = UINT64_MAX);

/** Per edge of `g` (a Protocol's graph of `d`): seconds of a blocking collective call's exit edge to its
 *  member on mapping `map` (critical_path.hpp "Collectives"), 0 elsewhere and when
 *  Topology::path_collectives is off. */
std::vector<double> coll_exit_weights(const Dependencies &d, const DepGraph &g, const Topology &topo,
                                      const Mapping &map);

}  // namespace arcoll::placement::path

#endif
