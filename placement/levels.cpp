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

// Indices of `v` sorted by (src, dst, step): the messages of one pair in step order.
std::vector<std::size_t> by_pair(const std::vector<CcsEntry> &v) {
  std::vector<std::size_t> idx(v.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(v[a].src, v[a].dst, v[a].step) < std::tie(v[b].src, v[b].dst, v[b].step);
  });
  return idx;
}

}  // namespace

Levels message_levels(int nranks, const std::vector<CcsEntry> &sends, const std::vector<CcsEntry> &recvs,
                      const std::vector<CollStep> &colls) {
  auto check = [&](int r, const char *what) {
    if (r < 0 || r >= nranks)
      throw std::invalid_argument(fmt::format("message levels: {} names rank {}, valid 0..{}", what, r, nranks - 1));
  };
  // Nodes (r, 0..top[r]) of each rank, then one virtual node per collective call.
  std::vector<uint64_t> top(nranks, 0);
  for (auto &e : sends) check(e.src, "a send"), check(e.dst, "a send"), top[e.src] = std::max(top[e.src], e.step);
  for (auto &e : recvs) check(e.src, "a receive"), check(e.dst, "a receive"), top[e.dst] = std::max(top[e.dst], e.step + 1);
  for (auto &c : colls) check(c.rank, "a collective"), top[c.rank] = std::max(top[c.rank], c.step + 1);
  std::vector<uint64_t> base(nranks + 1, 0);
  for (int r = 0; r < nranks; ++r) base[r + 1] = base[r] + top[r] + 1;
  const uint64_t nrank_nodes = base[nranks];
  auto node = [&](int r, uint64_t s) { return base[r] + s; };

  std::vector<Edge> edges;
  Levels out;
  // Matching: the k-th message src -> dst sent with the k-th received.
  const auto si = by_pair(sends), ri = by_pair(recvs);
  std::size_t a = 0, b = 0;
  uint32_t left_a = a < si.size() ? sends[si[0]].count : 0, left_b = b < ri.size() ? recvs[ri[0]].count : 0;
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
    const uint32_t n = std::min(left_a, left_b);
    if (n > 0) {
      edges.push_back(Edge{node(s.src, s.step), node(r.dst, r.step + 1), 1});
      out.matched += n;
    }
    left_a -= n, left_b -= n;
    if (left_a == 0 && ++a < si.size()) left_a = sends[si[a]].count;
    if (left_b == 0 && ++b < ri.size()) left_b = recvs[ri[b]].count;
  }
  // Collectives: members' entry nodes -> virtual node -> their exit nodes.
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> call_node;
  for (auto &c : colls) {
    auto it = call_node.emplace(std::make_pair(c.comm_id, c.seq), nrank_nodes + call_node.size()).first;
    edges.push_back(Edge{node(c.rank, c.step), it->second, 0});
    edges.push_back(Edge{it->second, node(c.rank, c.step + 1), 1});
  }
  const uint64_t nnodes = nrank_nodes + call_node.size();

  // Out-edges in CSR form; program order (r, s) -> (r, s + 1) is implicit.
  std::vector<uint64_t> first(nnodes + 1, 0), indeg(nnodes, 0);
  for (auto &e : edges) ++first[e.from + 1], ++indeg[e.to];
  for (uint64_t v = 0; v < nnodes; ++v) first[v + 1] += first[v];
  std::vector<std::pair<uint64_t, uint32_t>> adj(edges.size());
  {
    std::vector<uint64_t> fill(first.begin(), first.end() - 1);
    for (auto &e : edges) adj[fill[e.from]++] = {e.to, e.weight};
  }
  for (int r = 0; r < nranks; ++r)
    for (uint64_t s = 1; s <= top[r]; ++s) ++indeg[node(r, s)];

  std::vector<char> sent(nrank_nodes, 0);  // the rank sent in this step: the next one follows it
  for (auto &e : sends)
    if (e.src != e.dst) sent[node(e.src, e.step)] = 1;
  std::vector<uint64_t> level(nnodes, 0), queue;
  std::vector<char> done(nnodes, 0);
  queue.reserve(nnodes);
  for (uint64_t v = 0; v < nnodes; ++v)
    if (indeg[v] == 0) queue.push_back(v);
  std::vector<uint64_t> cursor(base.begin(), base.end() - 1);  // each rank's first node not yet done
  uint64_t ndone = 0;
  std::size_t head = 0;
  auto relax = [&](uint64_t v, uint64_t lv) {
    level[v] = std::max(level[v], lv);
    if (!done[v] && --indeg[v] == 0) queue.push_back(v);
  };
  while (ndone < nnodes) {
    if (head == queue.size()) {
      // A cycle (see levels.hpp): take the stuck rank node of the lowest step.
      int best = -1;
      for (int r = 0; r < nranks; ++r) {
        while (cursor[r] < base[r + 1] && done[cursor[r]]) ++cursor[r];
        if (cursor[r] < base[r + 1] && (best < 0 || cursor[r] - base[r] < cursor[best] - base[best])) best = r;
      }
      if (best < 0) break;  // only virtual nodes left: unreachable (each has a member input)
      indeg[cursor[best]] = 0;
      queue.push_back(cursor[best]);
      ++out.forced;
    }
    const uint64_t u = queue[head++];
    if (done[u]) continue;
    done[u] = 1;
    ++ndone;
    if (u < nrank_nodes) {
      const int r = int(std::upper_bound(base.begin(), base.end(), u) - base.begin()) - 1;
      if (u + 1 < base[r + 1]) relax(u + 1, level[u] + (sent[u] ? 1 : 0));
    }
    for (uint64_t k = first[u]; k < first[u + 1]; ++k) relax(adj[k].first, level[u] + adj[k].second);
  }
  out.of_send.resize(sends.size());
  for (std::size_t i = 0; i < sends.size(); ++i) out.of_send[i] = level[node(sends[i].src, sends[i].step)];
  return out;
}

}  // namespace arcoll::placement
