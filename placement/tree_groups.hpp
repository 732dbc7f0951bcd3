/**
 * @file tree_groups.hpp
 * @brief The switch tree seen as nested groups of host entries, for moves of
 *        whole groups (block_moves.hpp).
 *
 * A group is a vertex v below the root with hosts beneath it; its host
 * entries (Topology::hosts, a host or one of its sockets) are listed in
 * depth-first order (children in topology.conf order). Two groups of one
 * depth with equal `shape` have the same subtree structure, so their k-th
 * entries sit at the same place in each and the distance between any two
 * entries of one is the distance between the matching entries of the other.
 */
#ifndef ARCOLL_PLACEMENT_TREE_GROUPS_HPP
#define ARCOLL_PLACEMENT_TREE_GROUPS_HPP

#include <string>
#include <vector>

#include "topology.hpp"

namespace arcoll::placement {

struct TreeGroups {
  std::vector<int> order;              ///< host entries in depth-first order of the tree
  std::vector<int> first, count;       ///< per vertex: its entries are order[first, first + count)
  std::vector<std::string> shape;      ///< per vertex: its subtree's structure ("(..)" per switch, "h<k>" per host)
  std::vector<std::vector<int>> kids;  ///< per vertex: its children that have host entries
  /** The depths worth searching, root side first: those whose groups have more than one parent (groups
   *  with one parent are alike: the links of a switch to its children have one speed, so exchanging the
   *  contents of two siblings changes no cost). */
  std::vector<int> depths;
  std::vector<std::vector<int>> at;    ///< per entry of `depths`: its groups, by vertex index

  int entry(int v, int k) const { return order[first[v] + k]; }
};

/** The groups of `topo` (after attach_hosts()). O(vertices + hosts) plus the shape strings. */
TreeGroups tree_groups(const Topology &topo);

/** Depth of the lowest common ancestor of vertices a and b (root = 0). O(depth). */
int lca_depth(const Topology &topo, int a, int b);

}  // namespace arcoll::placement

#endif
