// Hop-bytes local search (the distance-only baseline). See hopbytes.hpp.
#include "hopbytes.hpp"

#include <algorithm>
#include <chrono>
#include <random>

namespace arcoll::placement {

double graph_hop_bytes(const CommGraph &g, const Topology &topo, const Mapping &map) {
  double s = 0;
  for (int u = 0; u < g.nranks; ++u)
    for (int64_t e = g.xadj[u]; e < g.xadj[u + 1]; ++e)
      if (g.adjncy[e] > u) s += static_cast<double>(g.adjwgt[e]) * topo.hops(map[u], map[g.adjncy[e]]);
  return s;
}

Mapping hopbytes_mapping(const CommGraph &g, const Topology &topo, const Mapping &start, uint64_t seed,
                         double time_limit_s, int max_passes) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(
                                           std::chrono::duration<double>(std::max(0.0, time_limit_s)));
  const int n = g.nranks, H = static_cast<int>(topo.hosts.size());
  Mapping map = start;
  if (H <= 1 || n <= 1) return map;
  std::vector<std::vector<int>> on(H);
  std::vector<int> pos(n);
  for (int r = 0; r < n; ++r) {
    pos[r] = static_cast<int>(on[map[r]].size());
    on[map[r]].push_back(r);
  }
  // Cost of rank r's edges if r were on host h (edge to `skip` ignored).
  auto part = [&](int r, int h, int skip) {
    double s = 0;
    for (int64_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e) {
      int v = g.adjncy[e];
      if (v != skip) s += static_cast<double>(g.adjwgt[e]) * topo.hops(h, map[v]);
    }
    return s;
  };
  std::vector<int> order;
  for (int r = 0; r < n; ++r)
    if (g.xadj[r + 1] > g.xadj[r]) order.push_back(r);
  std::mt19937_64 rng(seed);
  std::vector<int> cand;
  long evals = 0;
  for (int pass = 0; pass < max_passes; ++pass) {
    bool improved = false, stop = false;
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
    for (int a : order) {
      if ((++evals & 255) == 0 && clock::now() >= deadline) { stop = true; break; }
      cand.clear();
      for (int64_t e = g.xadj[a]; e < g.xadj[a + 1]; ++e) cand.push_back(map[g.adjncy[e]]);
      std::sort(cand.begin(), cand.end());
      cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
      for (int h : cand) {
        int ha = map[a];
        if (h == ha) continue;
        double base_a = part(a, ha, -1);
        if (static_cast<int>(on[h].size()) < topo.hosts[h].slots) {
          if (part(a, h, -1) < base_a - 1e-9 * base_a) {
            on[ha][pos[on[ha].back()] = pos[a]] = on[ha].back();
            on[ha].pop_back();
            pos[a] = static_cast<int>(on[h].size());
            on[h].push_back(a);
            map[a] = h;
            improved = true;
          }
          continue;
        }
        for (int b : on[h]) {
          double before = part(a, ha, b) + part(b, h, a);
          double after = part(a, h, b) + part(b, ha, a);
          if (after < before - 1e-9 * before) {
            std::swap(on[ha][pos[a]], on[h][pos[b]]);
            std::swap(pos[a], pos[b]);
            map[a] = h;
            map[b] = ha;
            improved = true;
            break;
          }
        }
      }
    }
    if (!improved || stop) break;
  }
  return map;
}

}  // namespace arcoll::placement
