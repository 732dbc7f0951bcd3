/**
 * @file fluid.hpp
 * @brief Fluid (max-min fair bandwidth sharing) time of one communication
 *        step: Contention::Fluid of cost.hpp.
 *
 * Every message of the step is a flow that starts at time 0 on its route
 * (Topology::route_into). Bandwidth is shared by progressive filling
 * (max-min fairness, Bertsekas & Gallager, "Data Networks", 6.5.2): the link
 * whose capacity divided by the number of its unfixed flows is the smallest
 * fixes the rate of those flows, its capacity is removed from the other
 * links of their routes, and so on. Whenever a flow finishes the rates are
 * recomputed. A message i->j ends at its finish time plus L(p,q) (the sum of
 * its route's latencies); the step takes the latest end.
 *
 * This is the sharing SimGrid's network models build on (their defaults add
 * per-size bandwidth/latency corrections and an RTT weight, which arcoll
 * leaves out). Lower bound: the Volume model's max over links of bytes / B.
 *
 * Cost: O(E x F x (F + route)) per step for F messages and E <= F
 * completion events, so it is meant for evaluation at small scale (the
 * fidelity experiment), not for the refinement of thousands of ranks.
 */
#ifndef ARCOLL_PLACEMENT_FLUID_HPP
#define ARCOLL_PLACEMENT_FLUID_HPP

#include <vector>

#include "comm_graph.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/** Seconds from the start of the step until its last message has arrived.
 *  `map`: host index of each rank (cost.hpp Mapping). 0 for no message. */
double fluid_step_time(const std::vector<Message> &msgs, const Topology &topo, const std::vector<int> &map);

}  // namespace arcoll::placement

#endif
