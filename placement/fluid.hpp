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

#include <unordered_map>
#include <vector>

#include "comm_graph.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/** Seconds from the start of the step until its last message has arrived.
 *  `map`: host index of each rank (cost.hpp Mapping). 0 for no message. */
double fluid_step_time(const std::vector<Message> &msgs, const Topology &topo, const std::vector<int> &map);

/** Routes of flows with their links renumbered densely (only the links they use), for max_min_rates:
 *  flow f = the f-th add(); its links route[f * R ...], len[f] of them; lat[f] its route's latency
 *  (seconds, summed); cap0 the used links' bandwidths (bytes/s). */
struct DenseRoutes {
  explicit DenseRoutes(const Topology &topo) : R(topo.max_route()), topo_(topo), buf_(R) {}
  /** Adds the flow from host index p to host index q; returns its index. */
  int add(int p, int q);
  int R;
  std::vector<int> route, len;
  std::vector<double> lat, cap0;

 private:
  const Topology &topo_;
  std::vector<int> buf_;
  std::unordered_map<int, int> dense_;
};

/** Max-min fair rates (progressive filling, file comment) of the flows `active`: flow f crosses the
 *  links route[f * R], ..., route[f * R + len[f] - 1] (dense indices into `cap0`, the links' capacities
 *  in bytes/s); writes rate[f] (bytes/s) for every f in `active`; a flow without links gets +infinity.
 *  `cap`, `nflows`, `fixed`: scratch (resized here). O(rounds x (links + sum of the active routes)). */
void max_min_rates(const std::vector<int> &active, const std::vector<int> &route, int R, const std::vector<int> &len,
                   const std::vector<double> &cap0, std::vector<double> &rate, std::vector<double> &cap,
                   std::vector<int> &nflows, std::vector<char> &fixed);

}  // namespace arcoll::placement

#endif
