/**
 * @file route_table.hpp
 * @brief Every host pair's route, latency and bottleneck bandwidth, computed once.
 *
 * The cost model (cost.hpp) routes every message of a step on each evaluation;
 * Topology::route_into walks the switch tree up to the lowest common switch
 * (O(depth)) and the cost then sums L(p,q) and takes B(p,q) along the route.
 * On machines small enough for an H x H table (the placement suite's 4-256
 * hosts) this table answers all three with one lookup:
 *
 *   - route(p,q): the directed links of Topology::route_into(p,q), in order;
 *   - L(p,q): the sum of their latencies, seconds, added in route order (the
 *     same floating-point sum as the cost's, so results are bit-identical);
 *   - B(p,q): the minimum of their bandwidths, bytes/s.
 *
 * Memory: H^2 x (max_route + 1) ints + 2 H^2 doubles; not built (enabled() false)
 * when H^2 x (max_route + 1) exceeds `budget_ints` (default 4M ints: H <= ~800
 * on a 4-level tree; 4096 hosts keep the on-demand routes).
 */
#ifndef ARCOLL_PLACEMENT_ROUTE_TABLE_HPP
#define ARCOLL_PLACEMENT_ROUTE_TABLE_HPP

#include <cstddef>
#include <vector>

#include "topology.hpp"

namespace arcoll::placement {

class RouteTable {
 public:
  explicit RouteTable(const Topology &topo, size_t budget_ints = size_t(1) << 22);
  bool enabled() const { return H_ > 0; }
  /** Links of the route from host p to host q (enabled() only); its length in `n`. */
  const int *links(int p, int q, int &n) const {
    const size_t i = static_cast<size_t>(p) * H_ + q;
    n = len_[i];
    return &links_[i * stride_];
  }
  /** L(p,q), seconds (enabled() only). */
  double latency(int p, int q) const { return lat_[static_cast<size_t>(p) * H_ + q]; }
  /** B(p,q), bytes/s (enabled() only). */
  double bandwidth(int p, int q) const { return bw_[static_cast<size_t>(p) * H_ + q]; }

 private:
  size_t H_ = 0, stride_ = 0;
  std::vector<int> links_, len_;
  std::vector<double> lat_, bw_;
};

}  // namespace arcoll::placement

#endif
