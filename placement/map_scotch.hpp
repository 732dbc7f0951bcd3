/**
 * @file map_scotch.hpp
 * @brief Maps the parts of a partition (one part per host) onto the switch
 *        tree with Scotch's static mapping, so that parts that talk a lot end
 *        up under the same switches.
 *
 * Source graph: the quotient graph of the partition (vertex = part, weight =
 * ranks in it; edge weight = bytes between the parts, scaled into Scotch's
 * 32-bit numbers). Target architecture:
 *  - SCOTCH_archTleaf(levels, fan-outs, link costs) when the tree restricted
 *    to the hostfile's hosts is homogeneous (Topology::homogeneous()) and all
 *    hosts have the same slots; link cost of a level = 1e9 / bandwidth (bytes/s)
 *    rounded, at least 1;
 *  - otherwise a decomposition-defined architecture (SCOTCH_archBuild2) from
 *    the tree graph (vertices = hosts then switches, vertex weight = slots for
 *    hosts, edge weight = the same link cost), restricted to the hosts.
 * The Scotch result (part -> host) is applied to the ranks and
 * repair_slots() (partition_metis.hpp) fixes hosts that get too many ranks.
 */
#ifndef ARCOLL_PLACEMENT_MAP_SCOTCH_HPP
#define ARCOLL_PLACEMENT_MAP_SCOTCH_HPP

#include <cstdint>
#include <string>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

struct ScotchResult {
  Mapping map;                 ///< rank -> host, slots respected
  std::string architecture;    ///< "tleaf" or "deco" (what was used)
};

/**
 * @param parts  rank -> part (host index), e.g. from partition_metis().
 * @param seed   Scotch random seed (SCOTCH_randomSeed + SCOTCH_randomReset).
 * Throws std::runtime_error when a Scotch call fails.
 */
ScotchResult map_scotch(const CommGraph &g, const Topology &topo, const Mapping &parts, int64_t seed);

}  // namespace arcoll::placement

#endif
