/**
 * @file path_replay.hpp
 * @brief PathContention::Fluid of critical_path.hpp: the happened-before
 *        graph replayed on a fluid network.
 *
 * Internal to arcoll_placement (critical_path.cpp); the model is described in
 * critical_path.hpp ("Fluid").
 */
#ifndef ARCOLL_PLACEMENT_PATH_REPLAY_HPP
#define ARCOLL_PLACEMENT_PATH_REPLAY_HPP

#include <vector>

#include "cost.hpp"
#include "dep_graph.hpp"
#include "path_protocol.hpp"
#include "topology.hpp"

namespace arcoll::placement::path {

/** Time of every node of `proto`, the protocol graph of `d` (path_protocol.hpp; seconds from the start), when its
 *  messages are replayed as flows on mapping `map`: one per run of an entry (path_protocol.hpp); a flow
 *  starts when its sender's step (a rendezvous run: its protocol node's inputs, the receiver's step and
 *  the sender's previous run) is reached, takes its route's latency, then moves its bytes at the
 *  max-min fair rate of the flows active on its links (fluid.hpp max_min_rates), recomputed whenever a
*  flow starts or ends; a node's time is the latest of its inputs (program order and collective entries
 *  0 s, collective exits coll_exit_weights). Cycles as dep_graph.hpp's longest_paths.
 *  O(events x (active flows x route length + links used)), events <= 2 x send entries. */
std::vector<double> fluid_paths(const Dependencies &d, const Protocol &proto, const Topology &topo,
                                const Mapping &map);

}  // namespace arcoll::placement::path

#endif
