// METIS k-way partition + slot repair. See partition_metis.hpp.
#include "partition_metis.hpp"

#include <metis.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace arcoll::placement {

Mapping in_order_mapping(int nranks, const Topology &topo) {
  Mapping m(nranks, -1);
  int r = 0;
  for (size_t h = 0; h < topo.hosts.size() && r < nranks; ++h)
    for (int s = 0; s < topo.hosts[h].slots && r < nranks; ++s) m[r++] = static_cast<int>(h);
  if (r < nranks)
    throw std::invalid_argument(fmt::format("{} slots for {} ranks: add hosts or slots", topo.total_slots(), nranks));
  return m;
}

bool respects_slots(const Mapping &map, const Topology &topo) {
  std::vector<int> used(topo.hosts.size(), 0);
  for (int h : map) {
    if (h < 0 || h >= static_cast<int>(topo.hosts.size())) return false;
    if (++used[h] > topo.hosts[h].slots) return false;
  }
  return true;
}

void repair_slots(Mapping &map, const CommGraph &g, const Topology &topo) {
  const int H = static_cast<int>(topo.hosts.size());
  const int n = static_cast<int>(map.size());
  const int V = static_cast<int>(topo.vertices.size());
  std::vector<int> used(H, 0);
  std::vector<std::vector<int>> on(H);
  for (int r = 0; r < n; ++r) {
    int &h = map[r];
    if (h < 0 || h >= H) h = 0;  // invalid entries are treated as on host 0 and repaired below
    ++used[h];
    on[h].push_back(r);
  }
  // Free slots per tree vertex (sum over the hosts below it) and hosts below each vertex.
  std::vector<std::vector<int>> hosts_below(V);
  for (int h = 0; h < H; ++h)
    for (int v = topo.hosts[h].vertex; v >= 0; v = topo.vertices[v].parent) hosts_below[v].push_back(h);
  auto traffic_to_host = [&](int r, int h) {
    uint64_t s = 0;
    for (int64_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e)
      if (g.adjncy[e] != r && map[g.adjncy[e]] == h) s += g.adjwgt[e];
    return s;
  };
  for (int h = 0; h < H; ++h) {
    while (used[h] > topo.hosts[h].slots) {
      int pick = -1;
      uint64_t best = 0;
      std::sort(on[h].begin(), on[h].end());
      for (auto it = on[h].rbegin(); it != on[h].rend(); ++it) {
        uint64_t t = traffic_to_host(*it, h);
        if (pick < 0 || t < best) { pick = *it; best = t; }
      }
      // The smallest subtree around h with a free slot.
      std::map<int, uint64_t> tr_of;  // host -> traffic of pick to its ranks
      for (int64_t e = g.xadj[pick]; e < g.xadj[pick + 1]; ++e)
        if (g.adjncy[e] != pick) tr_of[map[g.adjncy[e]]] += g.adjwgt[e];
      int anc = topo.hosts[h].vertex, dest = -1, dhops = 0;
      uint64_t dtraffic = 0;
      while (anc >= 0 && dest < 0) {
        for (int d : hosts_below[anc]) {
          if (used[d] >= topo.hosts[d].slots) continue;
          int hp = topo.hops(h, d);
          auto ti = tr_of.find(d);
          uint64_t tr = ti == tr_of.end() ? 0 : ti->second;
          if (dest < 0 || hp < dhops || (hp == dhops && tr > dtraffic) || (hp == dhops && tr == dtraffic && d < dest)) {
            dest = d; dhops = hp; dtraffic = tr;
          }
        }
        anc = topo.vertices[anc].parent;
      }
      if (dest < 0) throw std::invalid_argument(fmt::format("{} slots for {} ranks: add hosts or slots",
                                                            topo.total_slots(), n));
      map[pick] = dest;
      on[h].erase(std::find(on[h].begin(), on[h].end(), pick));
      on[dest].push_back(pick);
      --used[h];
      ++used[dest];
    }
  }
}

double metis_weight_scale(const CommGraph &g) {
  uint64_t total = 0;
  for (auto w : g.adjwgt) total += w;
  return total > 100000000ull ? 1e8 / static_cast<double>(total) : 1.0;
}

std::vector<int> metis_kway(const std::vector<int64_t> &xadj_in, const std::vector<int> &adjncy_in,
                            const std::vector<uint64_t> &adjwgt_in, double scale,
                            const std::vector<double> &target, int64_t seed, const std::string &what) {
  std::vector<idx_t> xadj(xadj_in.begin(), xadj_in.end());
  std::vector<idx_t> adjncy(adjncy_in.begin(), adjncy_in.end());
  std::vector<idx_t> adjwgt(adjwgt_in.size());
  for (size_t i = 0; i < adjwgt.size(); ++i)
    adjwgt[i] = static_cast<idx_t>(std::max(1.0, static_cast<double>(adjwgt_in[i]) * scale));
  std::vector<real_t> tpwgts(target.begin(), target.end());
  idx_t nvtxs = static_cast<idx_t>(xadj.size()) - 1, ncon = 1, nparts = static_cast<idx_t>(target.size()), objval = 0;
  real_t ubvec = 1.03f;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = static_cast<idx_t>(seed & 0x7fffffff);
  options[METIS_OPTION_NUMBERING] = 0;
  std::vector<idx_t> part(static_cast<size_t>(nvtxs), 0);
  int rc = METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(), nullptr, nullptr, adjwgt.data(), &nparts,
                               tpwgts.data(), &ubvec, options, &objval, part.data());
  if (rc != METIS_OK) throw std::runtime_error(fmt::format("METIS_PartGraphKway failed (code {}) on {}", rc, what));
  return std::vector<int>(part.begin(), part.end());
}

CommGraph time_weighted_graph(const CommGraph &g, const Topology &topo) {
  double lb = 0;
  int remote = 0;
  for (int q = 1; q < static_cast<int>(topo.hosts.size()); ++q)
    if (!topo.same_node(0, q)) lb += topo.latency(0, q) * topo.bandwidth(0, q), ++remote;
  CommGraph t;
  t.nranks = g.nranks;
  t.xadj = g.xadj;
  t.adjncy = g.adjncy;
  t.adjwgt = g.adjwgt;
  t.adjmsgs = g.adjmsgs;
  if (remote == 0) return t;
  lb /= remote;
  if (g.adjmsgs.size() != g.adjwgt.size())
    throw std::invalid_argument(
        "time_weighted_graph: the graph has no message counts (build it with finish_comm_graph)");
  for (size_t e = 0; e < g.adjwgt.size(); ++e)
    t.adjwgt[e] += static_cast<uint64_t>(std::llround(static_cast<double>(g.adjmsgs[e]) * lb));
  return t;
}

Mapping partition_metis(const CommGraph &g, const Topology &topo, int64_t seed) {
  const int n = g.nranks;
  int H = static_cast<int>(topo.hosts.size());
  if (H <= 1 || g.adjncy.empty() || n <= 1) return in_order_mapping(n, topo);
  if (n < H) {
    // More hosts than ranks: use the hosts mpiexec would use (a hostfile-order prefix).
    int s = 0, k = 0;
    while (k < H && s < n) s += topo.hosts[k++].slots;
    H = k;
    if (H <= 1) return in_order_mapping(n, topo);
  }
  int slot_sum = 0;
  for (int h = 0; h < H; ++h) slot_sum += topo.hosts[h].slots;
  std::vector<double> target(H);
  for (int h = 0; h < H; ++h) target[h] = static_cast<double>(topo.hosts[h].slots) / slot_sum;
  const std::vector<int> part = metis_kway(g.xadj, g.adjncy, g.adjwgt, metis_weight_scale(g), target, seed,
                                           fmt::format("{} ranks into {} hosts", n, H));
  Mapping m(part.begin(), part.end());
  repair_slots(m, g, topo);
  return m;
}

}  // namespace arcoll::placement
