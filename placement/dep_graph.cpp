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

DepWalk::DepWalk(const DepGraph &g)
    : out_first(g.nnodes + 1, 0), out_edge(g.edges.size()), inputs(g.nnodes, 0), g_(g),
      rank_of_(g.rank_nodes()), done_(g.nnodes, 0), cursor_(g.base.begin(), g.base.end() - 1) {
  for (auto &e : g.edges) ++out_first[e.from + 1], ++inputs[e.to];
  for (uint64_t v = 0; v < g.nnodes; ++v) out_first[v + 1] += out_first[v];
  std::vector<uint64_t> fill(out_first.begin(), out_first.end() - 1);
  for (std::size_t i = 0; i < g.edges.size(); ++i) out_edge[fill[g.edges[i].from]++] = i;
  for (int r = 0; r < g.nranks(); ++r)
    for (uint64_t v = g.base[r]; v < g.base[r + 1]; ++v) {
      rank_of_[v] = r;
      if (v > g.base[r]) ++inputs[v];
    }
  queue_.reserve(g.nnodes);
  for (uint64_t v = 0; v < g.nnodes; ++v)
    if (inputs[v] == 0) queue_.push_back(v);
}

bool DepWalk::next(uint64_t &u) {
  while (head_ < queue_.size()) {
    u = queue_[head_++];
    if (done_[u]) continue;
    done_[u] = 1;
    return true;
  }
  return false;
}

bool DepWalk::force() {
  int best = -1;
  for (int r = 0; r < g_.nranks(); ++r) {
    while (cursor_[r] < g_.base[r + 1] && done_[cursor_[r]]) ++cursor_[r];
    if (cursor_[r] < g_.base[r + 1] && (best < 0 || cursor_[r] - g_.base[r] < cursor_[best] - g_.base[best])) best = r;
  }
  if (best < 0) return false;  // only virtual nodes left: unreachable (each has a member input)
  inputs[cursor_[best]] = 0;
  queue_.push_back(cursor_[best]);
  return true;
}

std::vector<double> longest_paths(const DepGraph &g, const std::vector<double> &edge_w,
                                  const std::vector<double> &progress_w, uint64_t *forced) {
  DepWalk walk(g);
  std::vector<double> value(g.nnodes, 0);
  auto relax = [&](uint64_t v, double x) {
    value[v] = std::max(value[v], x);
    walk.arrive(v);
  };
  for (;;) {
    uint64_t u;
    if (!walk.next(u)) {
      if (!walk.force()) break;
      if (forced) ++*forced;
      continue;
    }
    if (const uint64_t s = walk.successor(u); s != UINT64_MAX) relax(s, value[u] + progress_w[u]);
    for (uint64_t a = walk.out_first[u]; a < walk.out_first[u + 1]; ++a) {
      const std::size_t k = walk.out_edge[a];
      relax(g.edges[k].to, value[u] + edge_w[k]);
    }
  }
  return value;
}

DepOrder::DepOrder(const DepGraph &g) : g_(g) {
  DepWalk walk(g);
  order_.reserve(g.nnodes);
  succ_.resize(g.nnodes);
  for (;;) {
    uint64_t u;
    if (!walk.next(u)) {
      if (!walk.force()) break;
      continue;
    }
    order_.push_back(u);
    succ_[u] = walk.successor(u);
    if (succ_[u] != UINT64_MAX) walk.arrive(succ_[u]);
    for (uint64_t a = walk.out_first[u]; a < walk.out_first[u + 1]; ++a) walk.arrive(g.edges[walk.out_edge[a]].to);
  }
  out_first_ = std::move(walk.out_first);
  out_edge_ = std::move(walk.out_edge);
}

std::vector<double> DepOrder::longest(const std::vector<double> &edge_w, const std::vector<double> &progress_w) const {
  std::vector<double> value(g_.nnodes, 0);
  for (const uint64_t u : order_) {
    if (const uint64_t s = succ_[u]; s != UINT64_MAX) value[s] = std::max(value[s], value[u] + progress_w[u]);
    for (uint64_t a = out_first_[u]; a < out_first_[u + 1]; ++a) {
      const std::size_t k = out_edge_[a];
      value[g_.edges[k].to] = std::max(value[g_.edges[k].to], value[u] + edge_w[k]);
    }
  }
  return value;
}

}  // namespace arcoll::placement
