// Dependency levels of the messages (Lamport clock over the ranks' steps). See levels.hpp.
#include "levels.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

namespace arcoll::placement {

using arcoll::trace::CcsEntry;

namespace {

struct Edge {
  uint64_t from, to;
  uint32_t weight;
};

// Nodes (r, 0..top[r]) of every rank, numbered rank after rank: node(r, s) = base[r] + s.
struct RankNodes {
  std::vector<uint64_t> base;  // nranks + 1 entries
  uint64_t node(int r, uint64_t s) const { return base[r] + s; }
  uint64_t count() const { return base.back(); }
  int rank_of(uint64_t v) const { return int(std::upper_bound(base.begin(), base.end(), v) - base.begin()) - 1; }
};

// Indices of `v` sorted by (src, dst, step): the messages of one pair in step order.
std::vector<std::size_t> by_pair(const std::vector<CcsEntry> &v) {
  std::vector<std::size_t> idx(v.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(v[a].src, v[a].dst, v[a].step) < std::tie(v[b].src, v[b].dst, v[b].step);
  });
  return idx;
}

// The k-th message src -> dst sent matched with the k-th received: one edge (src, a) -> (dst, b + 1) of
// weight 1 per run of messages sent in step a and received in step b. Returns the messages matched.
uint64_t match_messages(const RankNodes &n, const std::vector<CcsEntry> &sends, const std::vector<CcsEntry> &recvs,
                        std::vector<Edge> &edges) {
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
      edges.push_back(Edge{n.node(s.src, s.step), n.node(r.dst, r.step + 1), 1});
      matched += k;
    }
    left_a -= k, left_b -= k;
    if (left_a == 0 && ++a < si.size()) left_a = sends[si[a]].count;
    if (left_b == 0 && ++b < ri.size()) left_b = recvs[ri[b]].count;
  }
  return matched;
}

// Longest weighted paths into every node (Kahn's order) over `edges` plus the program-order edges
// (r, s) -> (r, s + 1), weight sent[(r, s)]. Nodes >= n.count() are virtual (collectives). A cycle is
// broken by taking the unfinished rank node of the lowest step as ready; *forced counts those.
std::vector<uint64_t> longest_paths(const RankNodes &n, uint64_t nnodes, const std::vector<Edge> &edges,
                                    const std::vector<char> &sent, uint64_t *forced) {
  const int nranks = int(n.base.size()) - 1;
  std::vector<uint64_t> first(nnodes + 1, 0), indeg(nnodes, 0);
  for (auto &e : edges) ++first[e.from + 1], ++indeg[e.to];
  for (uint64_t v = 0; v < nnodes; ++v) first[v + 1] += first[v];
  std::vector<std::pair<uint64_t, uint32_t>> adj(edges.size());
  {
    std::vector<uint64_t> fill(first.begin(), first.end() - 1);
    for (auto &e : edges) adj[fill[e.from]++] = {e.to, e.weight};
  }
  for (int r = 0; r < nranks; ++r)
    for (uint64_t v = n.base[r] + 1; v < n.base[r + 1]; ++v) ++indeg[v];

  std::vector<uint64_t> level(nnodes, 0), queue;
  std::vector<char> done(nnodes, 0);
  queue.reserve(nnodes);
  for (uint64_t v = 0; v < nnodes; ++v)
    if (indeg[v] == 0) queue.push_back(v);
  std::vector<uint64_t> cursor(n.base.begin(), n.base.end() - 1);  // each rank's first node not yet done
  auto relax = [&](uint64_t v, uint64_t lv) {
    level[v] = std::max(level[v], lv);
    if (!done[v] && --indeg[v] == 0) queue.push_back(v);
  };
  uint64_t ndone = 0;
  std::size_t head = 0;
  while (ndone < nnodes) {
    if (head == queue.size()) {  // a cycle (levels.hpp)
      int best = -1;
      for (int r = 0; r < nranks; ++r) {
        while (cursor[r] < n.base[r + 1] && done[cursor[r]]) ++cursor[r];
        if (cursor[r] < n.base[r + 1] && (best < 0 || cursor[r] - n.base[r] < cursor[best] - n.base[best])) best = r;
      }
      if (best < 0) break;  // only virtual nodes left: unreachable (each has a member input)
      indeg[cursor[best]] = 0;
      queue.push_back(cursor[best]);
      ++*forced;
    }
    const uint64_t u = queue[head++];
    if (done[u]) continue;
    done[u] = 1;
    ++ndone;
    if (u < n.count() && u + 1 < n.base[n.rank_of(u) + 1]) relax(u + 1, level[u] + (sent[u] ? 1 : 0));
    for (uint64_t k = first[u]; k < first[u + 1]; ++k) relax(adj[k].first, level[u] + adj[k].second);
  }
  return level;
}

}  // namespace

Levels message_levels(int nranks, const std::vector<CcsEntry> &sends, const std::vector<CcsEntry> &recvs,
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
  RankNodes n;
  n.base.assign(nranks + 1, 0);
  for (int r = 0; r < nranks; ++r) n.base[r + 1] = n.base[r] + top[r] + 1;

  Levels out;
  std::vector<Edge> edges;
  out.matched = match_messages(n, sends, recvs, edges);
  // Collectives: members' entry nodes -> one virtual node per call -> their exit nodes.
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> call_node;
  for (auto &c : colls) {
    auto it = call_node.emplace(std::make_pair(c.comm_id, c.seq), n.count() + call_node.size()).first;
    edges.push_back(Edge{n.node(c.rank, c.step), it->second, 0});
    edges.push_back(Edge{it->second, n.node(c.rank, c.step + 1), 1});
  }
  std::vector<char> sent(n.count(), 0);  // the rank sent in this step: its next step follows it
  for (auto &e : sends)
    if (e.src != e.dst) sent[n.node(e.src, e.step)] = 1;
  const auto level = longest_paths(n, n.count() + call_node.size(), edges, sent, &out.forced);
  out.of_send.resize(sends.size());
  for (std::size_t i = 0; i < sends.size(); ++i) out.of_send[i] = level[n.node(sends[i].src, sends[i].step)];
  return out;
}

}  // namespace arcoll::placement
