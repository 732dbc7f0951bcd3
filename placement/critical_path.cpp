// Longest chain of dependent messages of a mapping. See critical_path.hpp.
#include "critical_path.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <cstdint>

#include "trace_format.h"

namespace arcoll::placement {

namespace {

// Route of a message: latency (s), bottleneck bandwidth (B/s), the links into `route`; returns their number.
int route_of(const Topology &topo, const Mapping &map, int src, int dst, std::vector<int> &route, double &lat,
             double &bw) {
  const int n = topo.route_into(map[src], map[dst], route.data());
  const Topology::RouteLB lb = topo.route_lb(route.data(), n);
  lat = lb.latency_s, bw = lb.bandwidth_Bps;
  return n;
}

// Seconds of every send entry: the seed-001 term with the collisions of its set (Sets; Volume / Blend: the
// bytes on the route's busiest link), or alone on its route (Free). Self-messages: 0.
std::vector<double> set_costs(const CommGraph &g, const Topology &topo, const Mapping &map, bool collide) {
  const Dependencies &d = *g.deps;
  const bool volume = topo.contention == Contention::Volume || topo.contention == Contention::Blend;
  std::vector<std::size_t> idx(d.msg.size());
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return d.set[a] < d.set[b]; });
  std::vector<double> cost(d.msg.size(), 0.0), vload(topo.links.size(), 0.0);
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
    }
    if (collide)
      for (auto &m : g.steps[t].msgs) touch(m, -1);
  }
  return cost;
}

// The happened-before graph with the rendezvous protocol's waits (critical_path.hpp "Rendezvous"): per
// send entry of messages of at least `rendezvous` bytes (on average) sent by blocking calls, a virtual node X_i = the end of its
// transfer, which starts when the sender is there (after its earlier such sends of the step, in the order
// the profiler wrote them: CcsEntry::order) and the receiver is in the step it receives in: edges prev -> X_i and (dst, b) -> X_i weighted
// by the send's cost, X_i -> (dst, b + 1) and, after the step's last one, X_i -> (src, a + 1).
struct Protocol {
  DepGraph g;
  std::vector<int64_t> edge_send;  // per edge of g: the send entry whose cost weighs it, or -1 (0 s)
  std::vector<uint64_t> xnode;     // per send entry: X_i, or UINT64_MAX (eager, or not blocking)
};

Protocol protocol(const Dependencies &d, uint64_t rendezvous) {
  Protocol p{d.graph, {}, std::vector<uint64_t>(d.msg.size(), UINT64_MAX)};
  DepGraph &g = p.g;
  p.edge_send.assign(g.edges.size(), -1);
  std::vector<std::vector<std::size_t>> edges_of(d.msg.size());
  for (std::size_t k = 0; k < g.edges.size(); ++k)
    if (g.edges[k].kind == DepKind::Message) {
      p.edge_send[k] = static_cast<int64_t>(g.edges[k].send);
      edges_of[g.edges[k].send].push_back(k);
    }
  if (rendezvous == 0) return p;
  auto add = [&](uint64_t from, uint64_t to, int64_t send) {
    g.edges.push_back({from, to, DepKind::Message, send >= 0 ? static_cast<uint64_t>(send) : 0});
    p.edge_send.push_back(send);
  };
  int last_src = -1;
  uint64_t last_step = 0, last_x = UINT64_MAX;
  auto close = [&]() {  // the sender's next step waits for its last transfer of the step
    if (last_x != UINT64_MAX && g.node(last_src, last_step + 1) < g.base[last_src + 1])
      add(last_x, g.node(last_src, last_step + 1), -1);
  };
  std::vector<std::size_t> by_order(d.msg.size());  // (step, src, order): each sender's sends in its order
  std::iota(by_order.begin(), by_order.end(), std::size_t{0});
  std::stable_sort(by_order.begin(), by_order.end(), [&](std::size_t a, std::size_t b) {
    const auto &x = d.msg[a], &y = d.msg[b];
    return std::tie(x.step, x.src, x.order) < std::tie(y.step, y.src, y.order);
  });
  for (std::size_t i : by_order) {
    const auto &e = d.msg[i];
    // per message: an entry sums a step's messages to one destination
    if (e.src == e.dst || e.blocking == 0 || e.bytes / std::max<uint64_t>(1, e.count) < rendezvous ||
        edges_of[i].empty())
      continue;
    if (e.src != last_src || e.step != last_step) {
      close();
      last_src = e.src, last_step = e.step, last_x = UINT64_MAX;
    }
    const uint64_t x = g.nnodes++;
    p.xnode[i] = x;
    add(last_x != UINT64_MAX ? last_x : g.node(e.src, e.step), x, static_cast<int64_t>(i));
    for (std::size_t k : edges_of[i]) {
      const uint64_t to = g.edges[k].to;
      add(to - 1, x, static_cast<int64_t>(i));
      add(x, to, -1);
    }
    last_x = x;
  }
  close();
  return p;
}

// Seconds of one collective call from its virtual node to each member's exit, by comm rank (critical_path.hpp
// "Collectives"): binomial trees from the root for bcast / scatter (down) and reduce / gather (up: the root
// exits when the last subtree is in, the others when their subtree's data is sent), recursive doubling for
// the others; each hop L + S / B of its route (S = the call's largest bytes).
std::vector<double> call_times(const Dependencies::Call &c, const Topology &topo, const Mapping &map,
                               std::vector<int> &route) {
  const int p = static_cast<int>(c.members.size());
  std::vector<double> t(p, 0.0);
  if (p < 2) return t;
  const int root = (c.root >= 0 && c.root < p) ? c.root : 0;
  auto world = [&](int v) { return c.members[(v + root) % p]; };  // relative rank -> world rank
  auto hop = [&](int a, int b) {
    if (a == b) return 0.0;
    double lat, bw;
    route_of(topo, map, a, b, route, lat, bw);
    return lat + static_cast<double>(c.bytes) / bw;
  };
  std::vector<double> rel(p, 0.0);
  if (c.op == OP_BCAST || c.op == OP_SCATTER || c.op == OP_SCATTERV) {
    for (int v = 1; v < p; ++v) rel[v] = rel[v & (v - 1)] + hop(world(v & (v - 1)), world(v));
  } else if (c.op == OP_REDUCE || c.op == OP_GATHER || c.op == OP_GATHERV) {
    for (int v = p - 1; v >= 1; --v) {
      const int parent = v & (v - 1);
      rel[parent] = std::max(rel[parent], rel[v] + hop(world(v), world(parent)));
    }
    for (int v = 1; v < p; ++v) rel[v] += hop(world(v), world(v & (v - 1)));
  } else if (c.op >= OP_NEIGHBOR_ALLGATHER && c.op <= OP_NEIGHBOR_ALLTOALLW) {
    return t;  // their sends to the out-neighbours are in the CCS
  } else {
    std::vector<double> next(p);
    for (int mask = 1; mask < p; mask <<= 1) {
      for (int v = 0; v < p; ++v)
        next[v] = (v ^ mask) < p ? std::max(rel[v], rel[v ^ mask]) + hop(world(v), world(v ^ mask)) : rel[v];
      rel.swap(next);
    }
  }
  for (int v = 0; v < p; ++v) t[(v + root) % p] = rel[v];
  return t;
}

// Per edge of `g`: the seconds of a collective call's exit edge to its member (call_times), 0 elsewhere.
std::vector<double> coll_exit_weights(const Dependencies &d, const DepGraph &g, const Topology &topo,
                                      const Mapping &map) {
  std::vector<double> w(g.edges.size(), 0.0);
  if (!topo.path_collectives) return w;
  const uint64_t first_call = d.graph.rank_nodes();
  std::vector<int> route(topo.max_route());
  std::vector<std::vector<double>> times(d.calls.size());  // each call's, computed once
  for (std::size_t k = 0; k < d.exit_member.size() && k < g.edges.size(); ++k) {
    if (d.exit_member[k] < 0) continue;
    const std::size_t call = g.edges[k].from - first_call;
    if (!d.calls[call].inside) continue;
    if (times[call].empty()) times[call] = call_times(d.calls[call], topo, map, route);
    w[k] = times[call][d.exit_member[k]];
  }
  return w;
}

// Longest path of the happened-before graph with each message edge weighted by its send's cost and each
// collective exit by `coll_w` (coll_exit_weights).
std::vector<double> paths(const Protocol &p, const std::vector<double> &cost, const std::vector<double> &coll_w) {
  const DepGraph &dg = p.g;
  std::vector<double> edge_w(dg.edges.size(), 0.0), progress_w(dg.rank_nodes(), 0.0);
  for (std::size_t i = 0; i < dg.edges.size(); ++i)
    if (p.edge_send[i] >= 0) edge_w[i] = cost[p.edge_send[i]];
    else if (i < coll_w.size()) edge_w[i] = coll_w[i];
  return longest_paths(dg, edge_w, progress_w, nullptr);
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
std::vector<double> overlap_paths(const CommGraph &g, const Topology &topo, const Mapping &map) {
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
  const Protocol proto = protocol(d, topo.rendezvous_bytes);
  const std::vector<double> coll_w = coll_exit_weights(d, proto.g, topo, map);
  for (int it = 0; it < kOverlapIterations; ++it) {
    const auto value = paths(proto, cost, coll_w);
    for (std::size_t i = 0; i < M; ++i) {
      start[i] = proto.xnode[i] != UINT64_MAX ? value[proto.xnode[i]] - cost[i]
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
  return paths(proto, cost, coll_w);
}

}  // namespace

double critical_path_time(const CommGraph &g, const Topology &topo, const Mapping &map, PathContention mode) {
  if (!g.deps) return -1;
  std::vector<double> value;
  if (mode == PathContention::Overlap) {
    value = overlap_paths(g, topo, map);
  } else {
    const Protocol proto = protocol(*g.deps, topo.rendezvous_bytes);
    value = paths(proto, set_costs(g, topo, map, mode == PathContention::Sets),
                  coll_exit_weights(*g.deps, proto.g, topo, map));
  }
  return value.empty() ? 0.0 : *std::max_element(value.begin(), value.end());
}

}  // namespace arcoll::placement
