// PathContention::Fluid: the happened-before graph replayed on a fluid network. See path_replay.hpp.
#include "path_replay.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>
#include <utility>

#include "fluid.hpp"
#include "path_protocol.hpp"

namespace arcoll::placement::path {

namespace {

using arcoll::trace::CcsEntry;

constexpr double kInf = std::numeric_limits<double>::infinity();

// The graph's edges out of each node (CSR) and each node's count of inputs (edges and program order).
struct Adjacency {
  std::vector<uint64_t> first, indeg;
  std::vector<std::size_t> edge;  // edge indices, grouped by their `from`
  explicit Adjacency(const DepGraph &g) : first(g.nnodes + 1, 0), indeg(g.nnodes, 0), edge(g.edges.size()) {
    for (auto &e : g.edges) ++first[e.from + 1], ++indeg[e.to];
    for (uint64_t v = 0; v < g.nnodes; ++v) first[v + 1] += first[v];
    std::vector<uint64_t> fill(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < g.edges.size(); ++i) edge[fill[g.edges[i].from]++] = i;
    for (int r = 0; r < g.nranks(); ++r)
      for (uint64_t v = g.base[r] + 1; v < g.base[r + 1]; ++v) ++indeg[v];
  }
};

// One flow per message edge of the graph: its bytes (the entry's, shared by its messages), what it waits
// for, the rendezvous chain of its sender's step it belongs to.
struct Flows {
  std::vector<std::size_t> edge;   // flow -> edge of the graph
  std::vector<int> waiting;        // conditions left before it starts (sender's node; rendezvous: receiver, previous)
  std::vector<double> bytes, ready;
  std::vector<int64_t> next;       // the next flow of its sender's rendezvous chain, or -1
  std::vector<char> closes;        // the last of its chain: its end releases the sender's next node
  std::vector<int64_t> of_edge;    // edge -> flow, or -1
  std::vector<std::vector<std::size_t>> at_receiver;  // node (dst, b) -> rendezvous flows waiting for it
};

// A rendezvous send (critical_path.hpp "Rendezvous") waits for its receiver, for the earlier such sends of
// its sender's step, and the sender's next step for the last of them. A step's entries with several
// messages interleave: the first message of each entry (in CcsEntry::order), then the second, ...
Flows make_flows(const Dependencies &d, const DepGraph &g, uint64_t rendezvous, std::vector<uint64_t> &indeg) {
  Flows f;
  f.of_edge.assign(g.edges.size(), -1);
  f.at_receiver.resize(g.nnodes);
  std::vector<std::size_t> msg_edges;
  for (std::size_t k = 0; k < g.edges.size(); ++k)
    if (g.edges[k].kind == DepKind::Message) msg_edges.push_back(k);
  // (sender's node, the edge's rank among its entry's edges, entry order): a step's sends in their order
  std::vector<uint32_t> nth(msg_edges.size());
  std::vector<uint32_t> seen(d.msg.size(), 0);
  for (std::size_t j = 0; j < msg_edges.size(); ++j) nth[j] = seen[g.edges[msg_edges[j]].send]++;
  std::vector<std::size_t> idx(msg_edges.size());
  for (std::size_t j = 0; j < idx.size(); ++j) idx[j] = j;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    const DepEdge &x = g.edges[msg_edges[a]], &y = g.edges[msg_edges[b]];
    return std::make_tuple(x.from, nth[a], d.msg[x.send].order) < std::make_tuple(y.from, nth[b], d.msg[y.send].order);
  });
  int64_t last = -1;
  uint64_t last_from = UINT64_MAX;
  std::vector<char> last_node(g.nnodes, 0);  // a rank's last node: no next step to hold
  for (int r = 0; r < g.nranks(); ++r)
    if (g.base[r + 1] > g.base[r]) last_node[g.base[r + 1] - 1] = 1;
  auto close = [&]() {  // the sender's next step waits for its chain's last transfer
    if (last < 0 || last_node[last_from]) return;
    f.closes[last] = 1;
    ++indeg[last_from + 1];
  };
  for (std::size_t j : idx) {
    const std::size_t k = msg_edges[j];
    const DepEdge &e = g.edges[k];
    const CcsEntry &m = d.msg[e.send];
    const int64_t id = static_cast<int64_t>(f.edge.size());
    f.edge.push_back(k);
    f.of_edge[k] = id;
    const uint32_t count = std::max<uint32_t>(1, m.count);
    f.bytes.push_back(m.src == m.dst ? 0.0 : static_cast<double>(m.bytes) * std::max<uint32_t>(1, e.messages) / count);
    f.ready.push_back(0.0);
    f.next.push_back(-1);
    f.closes.push_back(0);
    f.waiting.push_back(1);
    if (e.from != last_from) close(), last = -1, last_from = e.from;
    const bool rdv = m.src != m.dst && m.blocking > 0 && m.bytes / count >= rendezvous && rendezvous > 0;
    if (!rdv) continue;
    ++f.waiting[id];  // the receiver in the step it receives in
    f.at_receiver[e.to - 1].push_back(static_cast<std::size_t>(id));
    if (last >= 0) f.next[last] = id, ++f.waiting[id];
    last = id;
  }
  close();
  return f;
}

}  // namespace

std::vector<double> fluid_paths(const Dependencies &d, const Topology &topo, const Mapping &map) {
  const DepGraph &g = d.graph;
  const std::vector<double> coll_w = coll_exit_weights(d, g, topo, map);
  Adjacency adj(g);
  Flows fl = make_flows(d, g, topo.rendezvous_bytes, adj.indeg);
  const std::size_t F = fl.edge.size();
  DenseRoutes routes(topo);
  for (std::size_t i = 0; i < F; ++i) {
    const CcsEntry &m = d.msg[g.edges[fl.edge[i]].send];
    routes.add(map[m.src], map[m.dst]);
  }
  std::vector<double> rem(fl.bytes), rate(F, 0.0);
  std::vector<double> value(g.nnodes, 0.0);
  std::vector<char> done(g.nnodes, 0);
  std::vector<uint64_t> queue;
  for (uint64_t v = 0; v < g.nnodes; ++v)
    if (adj.indeg[v] == 0) queue.push_back(v);
  auto relax = [&](uint64_t v, double x) {
    value[v] = std::max(value[v], x);
    if (!done[v] && --adj.indeg[v] == 0) queue.push_back(v);
  };
  using Start = std::pair<double, std::size_t>;  // (time its bandwidth phase starts, flow)
  std::priority_queue<Start, std::vector<Start>, std::greater<>> starts;
  double now = 0;
  auto condition = [&](std::size_t i, double t) {  // one of flow i's conditions met at time t
    fl.ready[i] = std::max(fl.ready[i], t);
    if (--fl.waiting[i] == 0) starts.push({std::max(fl.ready[i], now) + routes.lat[i], i});
  };
  auto finish = [&](std::size_t i, double t) {
    const DepEdge &e = g.edges[fl.edge[i]];
    relax(e.to, t);
    if (fl.next[i] >= 0) condition(static_cast<std::size_t>(fl.next[i]), t);
    if (fl.closes[i]) relax(e.from + 1, t);
  };

  std::vector<int> active;
  std::vector<double> cap;
  std::vector<int> nflows;
  std::vector<char> fixed;
  std::vector<uint64_t> cursor(g.base.begin(), g.base.end() - 1);  // each rank's first node not yet done
  std::vector<int> rank_of(g.rank_nodes());
  for (int r = 0; r < g.nranks(); ++r)
    for (uint64_t v = g.base[r]; v < g.base[r + 1]; ++v) rank_of[v] = r;
  uint64_t ndone = 0;
  std::size_t head = 0;
  for (;;) {
    while (head < queue.size()) {  // every node whose inputs are in: its time is known
      const uint64_t u = queue[head++];
      if (done[u]) continue;
      done[u] = 1, ++ndone;
      if (u < g.rank_nodes() && u + 1 < g.base[rank_of[u] + 1]) relax(u + 1, value[u]);
      for (std::size_t i : fl.at_receiver[u]) condition(i, value[u]);
      for (uint64_t a = adj.first[u]; a < adj.first[u + 1]; ++a) {
        const std::size_t k = adj.edge[a];
        if (fl.of_edge[k] >= 0)
          condition(static_cast<std::size_t>(fl.of_edge[k]), value[u]);
        else
          relax(g.edges[k].to, value[u] + (k < coll_w.size() ? coll_w[k] : 0.0));
      }
    }
    // The next event: a bandwidth phase starts, or an active flow ends.
    double t = starts.empty() ? kInf : starts.top().first;
    for (int f : active) t = std::min(t, now + rem[f] / rate[f]);
    if (t == kInf) {
      if (ndone == g.nnodes) break;
      int best = -1;  // a cycle (dep_graph.hpp): the stuck node of the lowest step is taken as ready
      for (int r = 0; r < g.nranks(); ++r) {
        while (cursor[r] < g.base[r + 1] && done[cursor[r]]) ++cursor[r];
        if (cursor[r] < g.base[r + 1] && (best < 0 || cursor[r] - g.base[r] < cursor[best] - g.base[best])) best = r;
      }
      if (best < 0) break;  // only virtual nodes left: unreachable
      adj.indeg[cursor[best]] = 0;
      queue.push_back(cursor[best]);
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
