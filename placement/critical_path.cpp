// Longest chain of dependent messages of a mapping. See critical_path.hpp.
#include "critical_path.hpp"

#include <algorithm>
#include <numeric>

namespace arcoll::placement {

double critical_path_time(const CommGraph &g, const Topology &topo, const Mapping &map, PathContention mode) {
  if (!g.deps) return -1;
  const Dependencies &d = *g.deps;
  const bool volume = topo.contention == Contention::Volume || topo.contention == Contention::Blend;
  // The sends of each set, then per set: link loads of its messages, each send's time.
  std::vector<std::size_t> idx(d.msg.size());
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return d.set[a] < d.set[b]; });
  std::vector<double> cost(d.msg.size(), 0.0);
  std::vector<int> load(topo.links.size(), 0), route(topo.max_route());
  std::vector<double> vload(volume ? topo.links.size() : 0, 0.0);
  auto touch = [&](const Message &m, int sign) {
    const int n = topo.route_into(map[m.src], map[m.dst], route.data());
    for (int k = 0; k < n; ++k) {
      load[route[k]] += sign;
      if (volume) vload[route[k]] += sign * static_cast<double>(m.bytes);
    }
  };
  for (std::size_t a = 0; a < idx.size() && d.set[idx[a]] != Dependencies::kNoSet;) {
    const uint32_t t = d.set[idx[a]];
    for (auto &m : g.steps[t].msgs) touch(m, +1);
    for (; a < idx.size() && d.set[idx[a]] == t; ++a) {
      const auto &e = d.msg[idx[a]];
      const int n = topo.route_into(map[e.src], map[e.dst], route.data());
      int coll = 0;
      double lat = 0, bw = topo.links[route[0]].bandwidth_Bps, vt = 0;
      for (int k = 0; k < n; ++k) {
        const Link &l = topo.links[route[k]];
        coll = std::max(coll, load[route[k]]);
        lat += l.latency_s;
        bw = std::min(bw, l.bandwidth_Bps);
        if (volume) vt = std::max(vt, vload[route[k]] / l.bandwidth_Bps);
      }
      if (mode != PathContention::Sets) coll = 1, vt = static_cast<double>(e.bytes) / bw;
      cost[idx[a]] = lat + (volume ? vt : static_cast<double>(e.bytes) * std::max(coll, 1) / bw);
    }
    for (auto &m : g.steps[t].msgs) touch(m, -1);
  }
  const DepGraph &dg = d.graph;
  std::vector<double> edge_w(dg.edges.size(), 0.0), progress_w(dg.rank_nodes(), 0.0);
  auto run = [&]() {
    for (std::size_t i = 0; i < dg.edges.size(); ++i)
      if (dg.edges[i].kind == DepKind::Message) edge_w[i] = cost[dg.edges[i].send];
    return longest_paths(dg, edge_w, progress_w, nullptr);
  };
  auto value = run();
  if (mode == PathContention::Overlap) {
    // Contention-free durations first; then each message's collisions = 1 + its time-weighted overlap with
    // the other messages on its route's links at the times the last schedule gave them, durations moved
    // half-way to that (damped: an undamped update oscillates between spread and packed schedules).
    const std::size_t M = d.msg.size();
    std::vector<double> lat(M, 0), bwv(M, 0), st(M, 0), coll(M, 1);
    std::vector<std::vector<std::size_t>> on(topo.links.size());
    for (std::size_t i = 0; i < M; ++i) {
      const auto &e = d.msg[i];
      if (e.src == e.dst) continue;
      const int n = topo.route_into(map[e.src], map[e.dst], route.data());
      double l = 0, bw = topo.links[route[0]].bandwidth_Bps;
      for (int k = 0; k < n; ++k) {
        l += topo.links[route[k]].latency_s, bw = std::min(bw, topo.links[route[k]].bandwidth_Bps);
        on[route[k]].push_back(i);
      }
      lat[i] = l, bwv[i] = bw;
      cost[i] = l + static_cast<double>(e.bytes) / bw;
    }
    std::vector<std::pair<double, int>> ev;
    std::vector<double> at, integral;
    for (int it = 0; it < kOverlapIterations; ++it) {
      value = run();
      for (std::size_t i = 0; i < M; ++i) st[i] = value[dg.node(d.msg[i].src, d.msg[i].step)], coll[i] = 1;
      for (auto &L : on) {
        if (L.size() < 2) continue;
        // A(t) = messages active on the link; F(t) = its integral; overlap of i = F(e_i) - F(s_i) - d_i
        ev.clear();
        for (std::size_t i : L) ev.push_back({st[i], +1}), ev.push_back({st[i] + cost[i], -1});
        std::sort(ev.begin(), ev.end());
        at.assign(1, ev[0].first), integral.assign(1, 0.0);
        int active = 0;
        for (auto &[t, dlt] : ev) {
          if (t > at.back()) integral.push_back(integral.back() + active * (t - at.back())), at.push_back(t);
          active += dlt;
        }
        auto F = [&](double t) {  // linear between the event times; every message has ended after the last
          const auto k = static_cast<std::size_t>(std::upper_bound(at.begin(), at.end(), t) - at.begin());
          if (k == 0) return 0.0;
          if (k == at.size()) return integral.back();
          return integral[k - 1] + (integral[k] - integral[k - 1]) * (t - at[k - 1]) / (at[k] - at[k - 1]);
        };
        for (std::size_t i : L)
          if (cost[i] > 0) coll[i] = std::max(coll[i], (F(st[i] + cost[i]) - F(st[i])) / cost[i]);
      }
      for (std::size_t i = 0; i < M; ++i)
        if (d.msg[i].src != d.msg[i].dst)
          cost[i] = 0.5 * cost[i] + 0.5 * (lat[i] + static_cast<double>(d.msg[i].bytes) * coll[i] / bwv[i]);
    }
    value = run();
  }
  return value.empty() ? 0.0 : *std::max_element(value.begin(), value.end());
}

}  // namespace arcoll::placement
