/**
 * @file hopbytes.hpp
 * @brief Distance-only mapping: swap/move local search minimising hop-bytes.
 *
 * Seed 001_6a837e3d9ad6c429.txt compares its collision-aware mapping with a
 * "distance-based mapping" that ignores collisions (gains 0 %, 0 %, 17 % vs
 * 19 %, 22 %, 45 %). This is that baseline:
 *
 *     HB(pi) = sum over edges {u,v} of the rank graph of w(u,v) * hops(pi(u), pi(v))
 *
 * (w = bytes exchanged in both directions over all steps, hops = network
 * links of the tree route, 0 on one host). Local search from `start`: for
 * each rank (shuffled, std::mt19937_64 seeded with `seed`), try moving it to
 * the host of each neighbour (if a slot is free) or swapping it with a rank
 * on that host; accept strict improvements; repeat passes until none
 * improves, `max_passes` is reached or the deadline passes. A swap's delta
 * costs O(deg(a) + deg(b)) (only the edges of the two ranks change).
 * Deterministic for a seed when it stops before `time_limit_s`.
 */
#ifndef ARCOLL_PLACEMENT_HOPBYTES_HPP
#define ARCOLL_PLACEMENT_HOPBYTES_HPP

#include <cstdint>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/** HB(pi) in bytes x links (same value as CostReport::hop_bytes). */
double graph_hop_bytes(const CommGraph &g, const Topology &topo, const Mapping &map);

/** Precondition: `start` respects the slots; so does the result. */
Mapping hopbytes_mapping(const CommGraph &g, const Topology &topo, const Mapping &start, uint64_t seed,
                         double time_limit_s, int max_passes = 50);

}  // namespace arcoll::placement

#endif
