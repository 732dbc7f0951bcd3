// Happened-before graph of a trace's messages and collectives. See dep_graph.hpp.
#include "dep_graph.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

namespace arcoll::placement {

using arcoll::trace::CcsEntry;

namespace {

// Indices of `v` sorted by (src, dst, step): the messages of one pair in step order.
std::vector<std::size_t> by_pair(const std::vector<CcsEntry> &v) {
  std::vector<std::size_t> idx(v.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(v[a].src, v[a].dst, v[a].step) < std::tie(v[b].src, v[b].dst, v[b].step);
  });
  return idx;
}

// The k-th message src -> dst sent matched with the k-th received: one edge (src, a) -> (dst, b + 1) per run
// of messages sent in step a and received in step b. Returns the messages matched.
uint64_t match_messages(DepGraph &g, const std::vector<CcsEntry> &sends, const std::vector<CcsEntry> &recvs) {
  const auto si = by_pair(sends), ri = by_pair(recvs);
  std::size_t a = 0, b = 0;
  uint32_t left_a = si.empty() ? 0 : sends[si[0]].count, left_b = ri.empty() ? 0 : recvs[ri[0]].count;
  uint64_t matched = 0;
  while (a < si.size() && b < ri.size()) {
    const CcsEntry &s = sends[si[a]], &r = recvs[ri[b]];
    if (std::tie(s.src, s.dst) != std::tie(r.src, r.dst)) {  // a pair only one side recorded
      if (std::tie(s.src, s.dst) < std::tie(r.src, r.dst)) {
        if (++a < si.size()) left_a = sends[si[a]].count;
      } else if (++b < ri.size()) {
        left_b = recvs[ri[b]].count;
      }
      continue;
    }
    const uint32_t k = std::min(left_a, left_b);
    if (k > 0) {
      g.edges.push_back(DepEdge{g.node(s.src, s.step), g.node(r.dst, r.step + 1), DepKind::Message, si[a], k});
      matched += k;
    }
    left_a -= k, left_b -= k;
    if (left_a == 0 && ++a < si.size()) left_a = sends[si[a]].count;
    if (left_b == 0 && ++b < ri.size()) left_b = recvs[ri[b]].count;
  }
  return matched;
}

}  // namespace

DepGraph build_dep_graph(int nranks, const std::vector<CcsEntry> &sends, const std::vector<CcsEntry> &recvs,
                         const std::vector<CollStep> &colls) {
  auto check = [&](int r, const char *what) {
    if (r < 0 || r >= nranks)
      throw std::invalid_argument(fmt::format("message levels: {} names rank {}, valid 0..{}", what, r, nranks - 1));
  };
  std::vector<uint64_t> top(nranks, 0);
  for (auto &e : sends) check(e.src, "a send"), check(e.dst, "a send"), top[e.src] = std::max(top[e.src], e.step);
  for (auto &e : recvs)
    check(e.src, "a receive"), check(e.dst, "a receive"), top[e.dst] = std::max(top[e.dst], e.step + 1);
  for (auto &c : colls) check(c.rank, "a collective"), top[c.rank] = std::max(top[c.rank], c.step + 1);
  DepGraph g;
  g.base.assign(nranks + 1, 0);
  for (int r = 0; r < nranks; ++r) g.base[r + 1] = g.base[r] + top[r] + 1;
  g.matched = match_messages(g, sends, recvs);
  // Collectives: members' entry nodes -> one virtual node per call -> their exit nodes.
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> call_node;
  for (auto &c : colls) {
    auto it = call_node.emplace(std::make_pair(c.comm_id, c.seq), g.rank_nodes() + call_node.size()).first;
    g.edges.push_back(DepEdge{g.node(c.rank, c.step), it->second, DepKind::CollEntry, 0});
    g.edges.push_back(DepEdge{it->second, g.node(c.rank, c.step + 1), DepKind::CollExit, 0});
  }
  g.nnodes = g.rank_nodes() + call_node.size();
  g.sent.assign(g.rank_nodes(), 0);
  for (auto &e : sends)
    if (e.src != e.dst) g.sent[g.node(e.src, e.step)] = 1;
  return g;
}

std::vector<double> longest_paths(const DepGraph &g, const std::vector<double> &edge_w,
                                  const std::vector<double> &progress_w, uint64_t *forced) {
  const int nranks = g.nranks();
  const uint64_t nnodes = g.nnodes;
  std::vector<uint64_t> first(nnodes + 1, 0), indeg(nnodes, 0);
  for (auto &e : g.edges) ++first[e.from + 1], ++indeg[e.to];
  for (uint64_t v = 0; v < nnodes; ++v) first[v + 1] += first[v];
  std::vector<std::pair<uint64_t, double>> adj(g.edges.size());
  {
    std::vector<uint64_t> fill(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < g.edges.size(); ++i) adj[fill[g.edges[i].from]++] = {g.edges[i].to, edge_w[i]};
  }
  std::vector<int> rank_of(g.rank_nodes());
  for (int r = 0; r < nranks; ++r)
    for (uint64_t v = g.base[r]; v < g.base[r + 1]; ++v) {
      rank_of[v] = r;
      if (v > g.base[r]) ++indeg[v];
    }

  std::vector<double> value(nnodes, 0);
  std::vector<uint64_t> queue;
  std::vector<char> done(nnodes, 0);
  queue.reserve(nnodes);
  for (uint64_t v = 0; v < nnodes; ++v)
    if (indeg[v] == 0) queue.push_back(v);
  std::vector<uint64_t> cursor(g.base.begin(), g.base.end() - 1);  // each rank's first node not yet done
  auto relax = [&](uint64_t v, double x) {
    value[v] = std::max(value[v], x);
    if (!done[v] && --indeg[v] == 0) queue.push_back(v);
  };
  uint64_t ndone = 0;
  std::size_t head = 0;
  while (ndone < nnodes) {
    if (head == queue.size()) {  // a cycle (file comment of dep_graph.hpp)
      int best = -1;
      for (int r = 0; r < nranks; ++r) {
        while (cursor[r] < g.base[r + 1] && done[cursor[r]]) ++cursor[r];
        if (cursor[r] < g.base[r + 1] && (best < 0 || cursor[r] - g.base[r] < cursor[best] - g.base[best])) best = r;
      }
      if (best < 0) break;  // only virtual nodes left: unreachable (each has a member input)
      indeg[cursor[best]] = 0;
      queue.push_back(cursor[best]);
      if (forced) ++*forced;
    }
    const uint64_t u = queue[head++];
    if (done[u]) continue;
    done[u] = 1;
    ++ndone;
    if (u < g.rank_nodes() && u + 1 < g.base[rank_of[u] + 1]) relax(u + 1, value[u] + progress_w[u]);
    for (uint64_t k = first[u]; k < first[u + 1]; ++k) relax(adj[k].first, value[u] + adj[k].second);
  }
  return value;
}

}  // namespace arcoll::placement
