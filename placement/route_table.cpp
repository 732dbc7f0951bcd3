// Precomputed host-pair routes. See route_table.hpp.
#include "route_table.hpp"

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
      const Topology::RouteLB lb = topo.route_lb(r, n);
      lat_[i] = lb.latency_s;
      bw_[i] = lb.bandwidth_Bps;
    }
}

}  // namespace arcoll::placement
