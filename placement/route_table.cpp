// Precomputed host-pair routes. See route_table.hpp.
#include "route_table.hpp"

#include <algorithm>

namespace arcoll::placement {

RouteTable::RouteTable(const Topology &topo, size_t budget_ints) {
  const size_t H = topo.hosts.size(), stride = static_cast<size_t>(topo.max_route());
  if (H == 0 || H * H * (stride + 1) > budget_ints) return;
  H_ = H;
  stride_ = stride;
  links_.assign(H * H * stride, 0);
  len_.assign(H * H, 0);
  lat_.assign(H * H, 0.0);
  bw_.assign(H * H, 0.0);
  for (size_t p = 0; p < H; ++p)
    for (size_t q = 0; q < H; ++q) {
      const size_t i = p * H + q;
      int *r = &links_[i * stride];
      const int n = topo.route_into(static_cast<int>(p), static_cast<int>(q), r);
      len_[i] = n;
      // In route order, as the cost model sums and minimises them.
      double lat = 0, bw = topo.links[r[0]].bandwidth_Bps;
      for (int k = 0; k < n; ++k) {
        lat += topo.links[r[k]].latency_s;
        bw = std::min(bw, topo.links[r[k]].bandwidth_Bps);
      }
      lat_[i] = lat;
      bw_[i] = bw;
    }
}

}  // namespace arcoll::placement
