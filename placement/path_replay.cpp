// PathContention::Fluid: the happened-before graph replayed on a fluid network. See path_replay.hpp.
#include "path_replay.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

#include "fluid.hpp"
#include "path_protocol.hpp"

namespace arcoll::placement::path {

namespace {

using arcoll::trace::CcsEntry;

constexpr double kInf = std::numeric_limits<double>::infinity();

// The flows of a Protocol graph (path_protocol.hpp): one per rendezvous run (its virtual node X: it starts
// when X's inputs - its sender, or the sender's previous X, and its receiver's step - are done, and ends at
// X) and one per eager run (a message edge of an entry without X: it starts at its sender's step and ends
// at its target). A rendezvous entry's own edges carry nothing (its X's edges do).
struct Flows {
  std::vector<int> waiting;        // inputs not yet done
  std::vector<double> bytes, ready;
  std::vector<uint64_t> target;    // the node its end reaches
  std::vector<std::size_t> entry;  // its send entry (Dependencies::msg)
  std::vector<int64_t> of_edge;    // edge -> the flow it is an input of, or -1 (a plain edge)
};

Flows make_flows(const Dependencies &d, const Protocol &p, std::vector<uint64_t> &inputs) {
  const DepGraph &g = p.g;
  const uint64_t first_x = d.graph.nnodes;
  Flows f;
  f.of_edge.assign(g.edges.size(), -1);
  std::vector<int64_t> of_x(g.nnodes - first_x, -1);
  auto add = [&](std::size_t s, double bytes, uint64_t target) {
    f.waiting.push_back(0), f.bytes.push_back(bytes), f.ready.push_back(0.0);
    f.target.push_back(target), f.entry.push_back(s);
    return static_cast<int64_t>(f.bytes.size()) - 1;
  };
  for (std::size_t k = 0; k < g.edges.size(); ++k) {
    if (p.edge_send[k] < 0) continue;
    const std::size_t s = static_cast<std::size_t>(p.edge_send[k]);
    const CcsEntry &m = d.msg[s];
    const DepEdge &e = g.edges[k];
    int64_t id;
    if (e.to >= first_x) {  // an input of a rendezvous run's X
      id = of_x[e.to - first_x];
      if (id < 0) id = of_x[e.to - first_x] = add(s, static_cast<double>(m.bytes) * p.edge_share[k], e.to);
      else --inputs[e.to];  // X is reached once, by its flow's end
    } else if (p.xnode[s] == UINT64_MAX) {  // an eager run: its own messages
      const double share = std::max<uint32_t>(1, e.messages) / static_cast<double>(std::max<uint32_t>(1, m.count));
      id = add(s, m.src == m.dst ? 0.0 : static_cast<double>(m.bytes) * std::min(1.0, share), e.to);
    } else {
      continue;
    }
    ++f.waiting[id];
    f.of_edge[k] = id;
  }
  return f;
}

}  // namespace

std::vector<double> fluid_paths(const Dependencies &d, const Protocol &proto, const Topology &topo,
                                const Mapping &map) {
  const DepGraph &g = proto.g;
  const std::vector<double> coll_w = coll_exit_weights(d, g, topo, map);
  DepWalk walk(g);
  Flows fl = make_flows(d, proto, walk.inputs);
  const std::size_t F = fl.bytes.size();
  DenseRoutes routes(topo);
  for (std::size_t i = 0; i < F; ++i) routes.add(map[d.msg[fl.entry[i]].src], map[d.msg[fl.entry[i]].dst]);
  std::vector<double> rem(fl.bytes), rate(F, 0.0);
  std::vector<double> value(g.nnodes, 0.0);
  auto relax = [&](uint64_t v, double x) {
    value[v] = std::max(value[v], x);
    walk.arrive(v);
  };
  using Start = std::pair<double, std::size_t>;  // (time its bandwidth phase starts, flow)
  std::priority_queue<Start, std::vector<Start>, std::greater<>> starts;
  double now = 0;
  auto condition = [&](std::size_t i, double t) {  // one of flow i's conditions met at time t
    fl.ready[i] = std::max(fl.ready[i], t);
    if (--fl.waiting[i] == 0) starts.push({std::max(fl.ready[i], now) + routes.lat[i], i});
  };
  auto finish = [&](std::size_t i, double t) { relax(fl.target[i], t); };

  std::vector<int> active;
  std::vector<double> cap;
  std::vector<int> nflows;
  std::vector<char> fixed;
  for (;;) {
    for (uint64_t u; walk.next(u);) {  // every node whose inputs are in: its time is known
      if (const uint64_t s = walk.successor(u); s != UINT64_MAX) relax(s, value[u]);
      for (uint64_t a = walk.out_first[u]; a < walk.out_first[u + 1]; ++a) {
        const std::size_t k = walk.out_edge[a];
        if (fl.of_edge[k] >= 0)
          condition(static_cast<std::size_t>(fl.of_edge[k]), value[u]);
        else
          relax(g.edges[k].to, value[u] + (k < coll_w.size() ? coll_w[k] : 0.0));
      }
    }
    // The next event: a bandwidth phase starts, or an active flow ends.
    double t = starts.empty() ? kInf : starts.top().first;
    for (int f : active) t = std::min(t, now + rem[f] / rate[f]);
    if (t == kInf) {  // nothing in flight or to start: done, or a cycle (DepWalk::force)
      if (!walk.force()) break;
      continue;
    }
    for (int f : active) rem[f] -= rate[f] * (t - now);
    now = t;
    std::size_t kept = 0;
    for (int f : active)
      if (rem[f] <= 1e-9 * fl.bytes[f] + 1e-12 || now + rem[f] / rate[f] <= now)
        finish(static_cast<std::size_t>(f), now);
      else
        active[kept++] = f;
    active.resize(kept);
    while (!starts.empty() && starts.top().first <= now) {
      const std::size_t i = starts.top().second;
      starts.pop();
      if (rem[i] > 0)
        active.push_back(static_cast<int>(i));
      else
        finish(i, now);
    }
    if (!active.empty()) max_min_rates(active, routes.route, routes.R, routes.len, routes.cap0, rate, cap, nflows, fixed);
  }
  return value;
}

}  // namespace arcoll::placement::path
