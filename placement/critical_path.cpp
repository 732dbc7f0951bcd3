// Longest chain of dependent messages of a mapping. See critical_path.hpp.
#include "critical_path.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <tuple>
#include <cstdint>

#include "path_protocol.hpp"
#include "path_replay.hpp"
#include "trace_format.h"

namespace arcoll::placement {

namespace {

using path::coll_exit_weights;
using path::protocol;
using path::Protocol;
using path::route_of;

// Seconds of every send entry: the seed-001 term with the collisions of its set (Sets; Volume / Blend: the
// bytes on the route's busiest link), or alone on its route (Free). Self-messages: 0.
std::vector<double> set_costs(const CommGraph &g, const Topology &topo, const Mapping &map, bool collide,
                              std::vector<double> &lats) {
  const Dependencies &d = *g.deps;
  const bool volume = topo.contention == Contention::Volume || topo.contention == Contention::Blend;
  std::vector<std::size_t> idx(d.msg.size());
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return d.set[a] < d.set[b]; });
  std::vector<double> cost(d.msg.size(), 0.0), vload(topo.links.size(), 0.0);
  lats.assign(d.msg.size(), 0.0);
  std::vector<int> load(topo.links.size(), 0), route(topo.max_route());
  auto touch = [&](const Message &m, int sign) {  // the set's messages on the links
    const int n = topo.route_into(map[m.src], map[m.dst], route.data());
    for (int k = 0; k < n; ++k) load[route[k]] += sign, vload[route[k]] += sign * static_cast<double>(m.bytes);
  };
  for (std::size_t a = 0; a < idx.size() && d.set[idx[a]] != Dependencies::kNoSet;) {
    const uint32_t t = d.set[idx[a]];
    if (collide)
      for (auto &m : g.steps[t].msgs) touch(m, +1);
    for (; a < idx.size() && d.set[idx[a]] == t; ++a) {
      const auto &e = d.msg[idx[a]];
      double lat, bw;
      const int n = route_of(topo, map, e.src, e.dst, route, lat, bw);
      int coll = 1;
      double vt = static_cast<double>(e.bytes) / bw;
      for (int k = 0; k < n && collide; ++k) {
        coll = std::max(coll, load[route[k]]);
        if (volume) vt = std::max(vt, vload[route[k]] / topo.links[route[k]].bandwidth_Bps);
      }
      cost[idx[a]] = lat + (volume && collide ? vt : static_cast<double>(e.bytes) * coll / bw);
      lats[idx[a]] = lat;
    }
    if (collide)
      for (auto &m : g.steps[t].msgs) touch(m, -1);
  }
  return cost;
}

// Seconds of an edge that waits for `share` of a send entry's transfer: its latency and that part of the rest.
double part(double cost, double lat, double share) { return share >= 1.0 ? cost : lat + (cost - lat) * share; }

// Longest path of the happened-before graph with each message edge weighted by its part of its send's cost
// (`cost`, of which `lat` latency) and each collective exit by `coll_w` (coll_exit_weights), along `order`
// (p.g's walk, recorded once per CriticalPaths).
std::vector<double> paths(const Protocol &p, const DepOrder &order, const std::vector<double> &cost,
                          const std::vector<double> &lat, const std::vector<double> &coll_w) {
  const DepGraph &dg = p.g;
  std::vector<double> edge_w(dg.edges.size(), 0.0), progress_w(dg.rank_nodes(), 0.0);
  for (std::size_t i = 0; i < dg.edges.size(); ++i)
    if (p.edge_send[i] >= 0) {
      const std::size_t s = static_cast<std::size_t>(p.edge_send[i]);
      edge_w[i] = part(cost[s], lat[s], p.edge_share[i]);
    } else if (i < coll_w.size()) {
      edge_w[i] = coll_w[i];
    }
  return order.longest(edge_w, progress_w);
}

// Messages active on one link over time: mean_active(s, e) = the integral of their count over [s, e) / (e - s).
class LinkActivity {
 public:
  void build(const std::vector<std::size_t> &on, const std::vector<double> &start, const std::vector<double> &dur) {
    ev_.clear();
    for (std::size_t i : on) ev_.push_back({start[i], +1}), ev_.push_back({start[i] + dur[i], -1});
    std::sort(ev_.begin(), ev_.end());
    at_.assign(1, ev_[0].first), integral_.assign(1, 0.0);
    int active = 0;
    for (auto &[t, delta] : ev_) {
      if (t > at_.back()) integral_.push_back(integral_.back() + active * (t - at_.back())), at_.push_back(t);
      active += delta;
    }
  }
  double mean_active(double s, double e) const { return (F(e) - F(s)) / (e - s); }

 private:
  double F(double t) const {  // linear between the event times; nothing is active after the last one
    const auto k = static_cast<std::size_t>(std::upper_bound(at_.begin(), at_.end(), t) - at_.begin());
    if (k == 0) return 0.0;
    if (k == at_.size()) return integral_.back();
    return integral_[k - 1] + (integral_[k] - integral_[k - 1]) * (t - at_[k - 1]) / (at_[k] - at_[k - 1]);
  }
  std::vector<std::pair<double, int>> ev_;
  std::vector<double> at_, integral_;
};

// PathContention::Overlap (critical_path.hpp): from the contention-free durations, kOverlapIterations times:
// schedule by the longest paths, coll = the largest mean number of messages active on a link of the route
// during the message (itself included), duration moved half-way to L + S x coll / B (undamped, the
// schedule oscillates between spread and packed). Returns the last schedule's node times.
std::vector<double> overlap_paths(const CommGraph &g, const Protocol &proto, const DepOrder &order,
                                  const Topology &topo, const Mapping &map) {
  const Dependencies &d = *g.deps;
  const std::size_t M = d.msg.size();
  std::vector<double> lat(M, 0), bw(M, 1), start(M, 0), cost(M, 0);
  std::vector<std::vector<std::size_t>> on(topo.links.size());
  std::vector<int> route(topo.max_route());
  for (std::size_t i = 0; i < M; ++i) {
    if (d.msg[i].src == d.msg[i].dst) continue;
    const int n = route_of(topo, map, d.msg[i].src, d.msg[i].dst, route, lat[i], bw[i]);
    for (int k = 0; k < n; ++k) on[route[k]].push_back(i);
    cost[i] = lat[i] + static_cast<double>(d.msg[i].bytes) / bw[i];
  }
  LinkActivity link;
  std::vector<double> coll(M);
  const std::vector<double> coll_w = coll_exit_weights(d, proto.g, topo, map);
  for (int it = 0; it < kOverlapIterations; ++it) {
    const auto value = paths(proto, order, cost, lat, coll_w);
    for (std::size_t i = 0; i < M; ++i) {
      start[i] = proto.xnode[i] != UINT64_MAX ? value[proto.xnode[i]] - part(cost[i], lat[i], proto.xshare[i])
                                               : value[d.graph.node(d.msg[i].src, d.msg[i].step)];
      coll[i] = 1;
    }
    for (auto &L : on) {
      if (L.size() < 2) continue;
      link.build(L, start, cost);
      for (std::size_t i : L)
        if (cost[i] > 0) coll[i] = std::max(coll[i], link.mean_active(start[i], start[i] + cost[i]));
    }
    for (std::size_t i = 0; i < M; ++i)
      if (d.msg[i].src != d.msg[i].dst)
        cost[i] = 0.5 * cost[i] + 0.5 * (lat[i] + static_cast<double>(d.msg[i].bytes) * coll[i] / bw[i]);
  }
  return paths(proto, order, cost, lat, coll_w);
}

}  // namespace

CriticalPaths::CriticalPaths(const CommGraph &g, const Topology &topo)
    : g_(g), topo_(topo),
      proto_(g.deps ? std::make_unique<const Protocol>(protocol(*g.deps, topo.rendezvous_bytes, topo.async_bytes))
                    : nullptr),
      order_(proto_ ? std::make_unique<const DepOrder>(proto_->g) : nullptr) {}

CriticalPaths::~CriticalPaths() = default;

double CriticalPaths::time(const Mapping &map, PathContention mode) const {
  if (!proto_) return -1;
  const Protocol &proto = *proto_;
  std::vector<double> value;
  if (mode == PathContention::Overlap) {
    value = overlap_paths(g_, proto, *order_, topo_, map);
  } else if (mode == PathContention::Fluid) {
    value = path::fluid_paths(*g_.deps, proto, topo_, map);
  } else {
    std::vector<double> lat;
    const std::vector<double> cost = set_costs(g_, topo_, map, mode == PathContention::Sets, lat);
    value = paths(proto, *order_, cost, lat, coll_exit_weights(*g_.deps, proto.g, topo_, map));
  }
  return value.empty() ? 0.0 : *std::max_element(value.begin(), value.end());
}

double critical_path_time(const CommGraph &g, const Topology &topo, const Mapping &map, PathContention mode) {
  return CriticalPaths(g, topo).time(map, mode);
}

}  // namespace arcoll::placement
