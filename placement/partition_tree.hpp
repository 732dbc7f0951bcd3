/**
 * @file partition_tree.hpp
 * @brief Rank -> host partition that follows the switch tree: METIS splits
 *        the ranks among the root's subtrees, then each subtree's ranks among
 *        its own subtrees, down to the hosts (and their sockets).
 *
 * Why: a flat k-way partition into hosts minimises the bytes between hosts
 * but not which hosts share a leaf switch; on a tree whose leaf uplinks are
 * oversubscribed the traffic that crosses them is what costs. Splitting at
 * the top first minimises the bytes on the most shared links first (the
 * recursive partitioning of Scotch's tleaf mapping and of hierarchical
 * mappers, e.g. TreeMatch). It also does not depend on the hostfile's order
 * (flat METIS's part k is host k: its parts' nesting follows the hostfile).
 *
 * Opt-in (`arcoll place --strategy metis_tree`), not a stage of `best`:
 * the count model rates it far better than flat METIS where SMPI does not
 * (placement/METIS_TREE.md "METIS along the tree"; 1024-rank fat tree,
 * scrambled 2-D halo: model 0.480 against 0.690 ms, SMPI 0.168 against 0.163
 * of in-order), and in `best` it would have been written there.
 */
#ifndef ARCOLL_PLACEMENT_PARTITION_TREE_HPP
#define ARCOLL_PLACEMENT_PARTITION_TREE_HPP

#include <cstdint>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/**
 * Partitions the rank graph top down along the tree: at each vertex with
 * more than one child holding hosts (or a host with several sockets), the
 * vertex's ranks are split among them with METIS_PartGraphKway (edge weight
 * = bytes, scaled as partition_metis(); target weights proportional to the
 * slots below each child; METIS seed = `seed`); subgraphs without edges, or
 * with no more ranks than parts, are filled in hostfile order. Only the
 * hosts mpiexec would fill (a hostfile-order prefix with enough slots) get
 * ranks. Ends with repair_slots(). Deterministic for a seed.
 * Returns a mapping rank -> host index (Topology::hosts) that respects the
 * slots. Throws std::invalid_argument when the slots are too few and
 * std::runtime_error if METIS fails.
 */
Mapping partition_tree(const CommGraph &g, const Topology &topo, int64_t seed);

}  // namespace arcoll::placement

#endif
