// The rendezvous protocol's happened-before graph and the collectives' exit times of a mapping's
// critical path. See path_protocol.hpp.
#include "path_protocol.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "trace_format.h"

namespace arcoll::placement::path {

// Route of a message: latency (s), bottleneck bandwidth (B/s), the links into `route`; returns their number.
int route_of(const Topology &topo, const Mapping &map, int src, int dst, std::vector<int> &route, double &lat,
             double &bw) {
  const int n = topo.route_into(map[src], map[dst], route.data());
  const Topology::RouteLB lb = topo.route_lb(route.data(), n);
  lat = lb.latency_s, bw = lb.bandwidth_Bps;
  return n;
}

// The happened-before graph with the rendezvous protocol's waits (path_protocol.hpp, critical_path.hpp
// "Rendezvous"). An entry of several messages is split along its edges (the runs matched with its
// receives): an eager run arrives after the entry's messages up to it (share = messages so far / count); a
// rendezvous run gets a virtual node X (its transfer's end, share = its messages / count) that waits for its
// sender (and the sender's previous X of the step) and for its receiver's step, -> (dst, b + 1); a step's
// runs go first run of each entry in CcsEntry::order, then the second runs, ...; after the step's last X,
// X -> (src, a + 1). A matched run (critical_path.hpp "Matched sends") gets an X that waits for its
// sender's step and its receiver's step, -> (dst, b + 1) only: the sender neither waits nor orders them.
// Where the receiver's step b ends in an MPI_Recv (Dependencies::recv_alone), the X of either kind also
// waits for the receiver's last rendezvous X of step b: the receive is posted after those sends returned.
Protocol protocol(const Dependencies &d, uint64_t rendezvous, uint64_t async) {
  Protocol p{d.graph, {}, {}, std::vector<uint64_t>(d.msg.size(), UINT64_MAX), std::vector<double>(d.msg.size(), 1.0)};
  DepGraph &g = p.g;
  p.edge_send.assign(g.edges.size(), -1);
  p.edge_share.assign(g.edges.size(), 1.0);
  std::vector<std::vector<std::size_t>> edges_of(d.msg.size());
  for (std::size_t k = 0; k < g.edges.size(); ++k)
    if (g.edges[k].kind == DepKind::Message) {
      p.edge_send[k] = static_cast<int64_t>(g.edges[k].send);
      edges_of[g.edges[k].send].push_back(k);
    }
  auto count_of = [&](std::size_t i) { return static_cast<double>(std::max<uint32_t>(1, d.msg[i].count)); };
  auto is_rdv = [&](std::size_t i) {
    const auto &e = d.msg[i];  // per message: an entry sums a step's messages to one destination
    return rendezvous > 0 && e.src != e.dst && e.blocking > 0 &&
           e.bytes / std::max<uint64_t>(1, e.count) >= rendezvous;
  };
  auto is_matched = [&](std::size_t i) {
    const auto &e = d.msg[i];
    return !is_rdv(i) && e.src != e.dst && e.bytes / std::max<uint64_t>(1, e.count) >= async;
  };
  struct Run {
    std::size_t entry, edge, nth;
    bool matched;  // a matched run, else a rendezvous one
  };
  std::vector<Run> runs;  // the rendezvous and matched runs
  for (std::size_t i = 0; i < d.msg.size(); ++i) {
    const bool waits = is_rdv(i) || is_matched(i);
    if (edges_of[i].size() < 2 && !waits) continue;  // one run of an eager entry: the whole entry
    double upto = 0;
    for (std::size_t n = 0; n < edges_of[i].size(); ++n) {
      const std::size_t k = edges_of[i][n];
      const double share = std::max<uint32_t>(1, g.edges[k].messages) / count_of(i);
      upto += share;
      p.edge_share[k] = std::min(1.0, upto);
      if (waits) runs.push_back({i, k, n, !is_rdv(i)});
    }
  }
  if (runs.empty()) return p;
  auto add = [&](uint64_t from, uint64_t to, int64_t send, double share) {
    g.edges.push_back({from, to, DepKind::Message, send >= 0 ? static_cast<uint64_t>(send) : 0});
    p.edge_send.push_back(send);
    p.edge_share.push_back(share);
  };
  std::stable_sort(runs.begin(), runs.end(), [&](const Run &a, const Run &b) {
    const auto &x = d.msg[a.entry], &y = d.msg[b.entry];
    return std::tie(x.step, x.src, a.nth, x.order) < std::tie(y.step, y.src, b.nth, y.order);
  });
  int last_src = -1;
  uint64_t last_step = 0, last_x = UINT64_MAX;
  // Per rank node (r, s) whose step ends in an MPI_Recv (Dependencies::recv_alone): r's last blocking
  // transfer of step s, which that receive is posted after.
  std::unordered_map<uint64_t, uint64_t> last_x_of;
  std::vector<std::tuple<uint64_t, uint64_t, int64_t, double>> after_sends;  // (receiver node, X, send, share)
  const bool alone = !d.recv_alone.empty();
  auto close = [&]() {  // the sender's next step waits for its last transfer of the step
    if (last_x == UINT64_MAX) return;
    if (g.node(last_src, last_step + 1) < g.base[last_src + 1]) add(last_x, g.node(last_src, last_step + 1), -1, 1.0);
    if (alone && d.recv_alone[g.node(last_src, last_step)]) last_x_of[g.node(last_src, last_step)] = last_x;
  };
  for (const Run &r : runs) {
    const auto &e = d.msg[r.entry];
    if (e.src != last_src || e.step != last_step) {
      close();
      last_src = e.src, last_step = e.step, last_x = UINT64_MAX;
    }
    const uint64_t x = g.nnodes++;
    const int64_t send = static_cast<int64_t>(r.entry);
    const double share = std::max<uint32_t>(1, g.edges[r.edge].messages) / count_of(r.entry);
    if (p.xnode[r.entry] == UINT64_MAX) p.xnode[r.entry] = x, p.xshare[r.entry] = share;
    const uint64_t to = g.edges[r.edge].to;
    if (alone && to - 1 < d.recv_alone.size() && d.recv_alone[to - 1]) after_sends.emplace_back(to - 1, x, send, share);
    if (r.matched) {
      add(g.node(e.src, e.step), x, send, share);
      add(to - 1, x, send, share);
      add(x, to, -1, 1.0);
      continue;
    }
    add(last_x != UINT64_MAX ? last_x : g.node(e.src, e.step), x, send, share);
    add(to - 1, x, send, share);
    add(x, to, -1, 1.0);
    last_x = x;
  }
  close();
  // A transfer into an MPI_Recv starts after the receiver's blocking sends of that step returned.
  for (const auto &[v, x, send, share] : after_sends)
    if (auto it = last_x_of.find(v); it != last_x_of.end() && it->second != x) add(it->second, x, send, share);
  return p;
}

namespace {

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

}  // namespace

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

}  // namespace arcoll::placement::path
