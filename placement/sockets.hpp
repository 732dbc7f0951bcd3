/**
 * @file sockets.hpp
 * @brief Hosts split into sockets (HOSTS.md): from socket entries of
 *        Topology::hosts to whole hosts and back.
 *
 * A host with S sockets is S consecutive entries of Topology::hosts (same
 * name and vertex, Host::socket = 0..S-1). Stages that place ranks on whole
 * hosts (the Scotch mapping, mapping files that name hosts) go through a
 * host-level copy of the topology (node_topology) and spread each host's
 * ranks over its sockets afterwards (spread_over_sockets).
 */
#ifndef ARCOLL_PLACEMENT_SOCKETS_HPP
#define ARCOLL_PLACEMENT_SOCKETS_HPP

#include <vector>

#include "cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/** Per entry of topo.hosts: the index of its host in node_topology(topo)
 *  (the identity without sockets). */
std::vector<int> node_of_entries(const Topology &topo);

/** The topology with each host's socket entries merged into one entry (slots
 *  summed, sockets = 1, the node-internal link of its socket 0) and no socket
 *  links; a copy of `topo` when !topo.has_sockets(). */
Topology node_topology(const Topology &topo);

/** Rank -> host index of node_topology(topo) for a rank -> entry mapping. */
Mapping node_mapping(const Mapping &map, const Topology &topo);

/**
 * Rank -> entry of topo.hosts from rank -> host index of node_topology(topo):
 * each host's ranks, in rank order, go to socket `hint[r]`'s entry's socket
 * (the socket index of entry hint[r], when `hint` is not empty) while it has
 * a free slot, the others fill the host's sockets in order (block: socket 0
 * first). Throws std::invalid_argument when a host gets more ranks than slots.
 */
Mapping spread_over_sockets(const Mapping &node_map, const Topology &topo, const Mapping &hint = {});

}  // namespace arcoll::placement

#endif
