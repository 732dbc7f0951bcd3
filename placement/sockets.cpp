// Socket entries <-> whole hosts. See sockets.hpp.
#include "sockets.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace arcoll::placement {

std::vector<int> node_of_entries(const Topology &topo) {
  std::vector<int> node(topo.hosts.size());
  int n = -1;
  for (size_t h = 0; h < topo.hosts.size(); ++h) {
    if (topo.hosts[h].socket == 0) ++n;
    node[h] = n;
  }
  return node;
}

Topology node_topology(const Topology &topo) {
  Topology t = topo;
  if (!topo.has_sockets()) return t;
  std::vector<Host> merged;
  for (const Host &h : topo.hosts) {
    if (h.socket == 0) {
      merged.push_back(h);
      merged.back().sockets = 1;
    } else {
      merged.back().slots += h.slots;
    }
  }
  TopologyParams p;
  const Link &intra = topo.links[topo.intra_link(0)];
  p.intra = {intra.latency_s, intra.bandwidth_Bps};
  p.contention = topo.contention;
  t.hosts = merged;
  t.finalize(p);
  // finalize() sets the tree links from the level defaults: keep topo's (LinkSpeed, --bandwidth-gbps).
  const size_t V = topo.vertices.size();
  for (size_t k = 0; k < 2 * V; ++k) t.links[k] = topo.links[k];
  int n = 0;
  for (size_t h = 0; h < topo.hosts.size(); ++h)
    if (topo.hosts[h].socket == 0) t.links[t.intra_link(n++)] = topo.links[topo.intra_link(static_cast<int>(h))];
  return t;
}

Mapping node_mapping(const Mapping &map, const Topology &topo) {
  if (!topo.has_sockets()) return map;
  const std::vector<int> node = node_of_entries(topo);
  Mapping m(map.size());
  for (size_t r = 0; r < map.size(); ++r) m[r] = node[map[r]];
  return m;
}

Mapping spread_over_sockets(const Mapping &node_map, const Topology &topo, const Mapping &hint) {
  if (!topo.has_sockets()) return node_map;
  std::vector<int> first;  // node -> its socket 0 entry
  for (size_t h = 0; h < topo.hosts.size(); ++h)
    if (topo.hosts[h].socket == 0) first.push_back(static_cast<int>(h));
  std::vector<int> used(topo.hosts.size(), 0);
  Mapping m(node_map.size(), -1);
  auto take = [&](size_t r, int e) {
    if (used[e] >= topo.hosts[e].slots) return false;
    m[r] = e;
    ++used[e];
    return true;
  };
  // Pass 1: the hinted socket (when the rank's host has it) while it has a free slot.
  for (size_t r = 0; r < node_map.size() && !hint.empty(); ++r) {
    const int f = first.at(node_map[r]), s = topo.hosts[hint[r]].socket;
    if (s < topo.hosts[f].sockets) take(r, f + s);
  }
  // Pass 2: the other ranks fill their host's sockets in order.
  for (size_t r = 0; r < node_map.size(); ++r) {
    if (m[r] >= 0) continue;
    const int f = first.at(node_map[r]), S = topo.hosts[f].sockets;
    for (int k = 0; k < S && m[r] < 0; ++k) take(r, f + k);
    if (m[r] < 0)
      throw std::invalid_argument(fmt::format("host {} gets more ranks than its {} slots", topo.hosts[f].name,
                                              topo.hosts[f].slots * S));
  }
  return m;
}

}  // namespace arcoll::placement
