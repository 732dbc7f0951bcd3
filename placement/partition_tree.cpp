// Top-down METIS partition along the switch tree. See partition_tree.hpp.
#include "partition_tree.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include <fmt/format.h>

#include "partition_metis.hpp"
#include "tree_groups.hpp"

namespace arcoll::placement {

namespace {

// METIS leaves parts up to 3 % over their target; a part over its capacity
// here would overflow its hosts and repair_slots() would scatter the excess
// anywhere in the tree.  Moves ranks out of each part over its capacity, one
// at a time, the one that loses least (bytes to its part minus bytes to the
// destination: the part with room it exchanges most bytes with, ties lowest)
// first, its neighbours' losses updated after each move (so a path gives up
// its end ranks one after the other).  part[i] is the part of R[i]; loc as in
// split().
void rebalance(const CommGraph &g, const std::vector<int> &R, const std::vector<int> &cap, std::vector<int> &part,
               std::vector<int> &loc) {
  const size_t k = cap.size();
  std::vector<int> size(k, 0);
  for (int p : part) ++size[static_cast<size_t>(p)];
  bool over = false;
  for (size_t p = 0; p < k; ++p) over = over || size[p] > cap[p];
  if (!over) return;
  for (size_t i = 0; i < R.size(); ++i) loc[R[i]] = static_cast<int>(i);
  std::vector<double> to(k);
  // loss of moving R[i] out of its part, and where to (k: no part has room)
  auto loss_of = [&](size_t i, size_t *dest) {
    std::fill(to.begin(), to.end(), 0.0);
    const int r = R[i];
    for (int64_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e)
      if (g.adjncy[e] != r && loc[g.adjncy[e]] >= 0)
        to[static_cast<size_t>(part[static_cast<size_t>(loc[g.adjncy[e]])])] += static_cast<double>(g.adjwgt[e]);
    const size_t p = static_cast<size_t>(part[i]);
    size_t best = k;
    for (size_t q = 0; q < k; ++q)
      if (q != p && size[q] < cap[q] && (best == k || to[q] > to[best])) best = q;
    *dest = best;
    return best < k ? to[p] - to[best] : 0.0;
  };
  for (size_t p = 0; p < k; ++p) {
    if (size[p] <= cap[p]) continue;
    using Entry = std::pair<double, size_t>;  // (loss, index into R), smallest loss first
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    size_t dest = k;
    for (size_t i = 0; i < R.size(); ++i)
      if (part[i] == static_cast<int>(p)) heap.emplace(loss_of(i, &dest), i);
    while (size[p] > cap[p] && !heap.empty()) {
      const auto [loss, i] = heap.top();
      heap.pop();
      if (part[i] != static_cast<int>(p)) continue;
      const double now = loss_of(i, &dest);
      if (dest == k) break;  // no room anywhere: repair_slots() takes the rest
      if (now > loss) {      // stale: it lost neighbours in the destination since
        heap.emplace(now, i);
        continue;
      }
      part[i] = static_cast<int>(dest);
      --size[p];
      ++size[dest];
      const int r = R[i];
      for (int64_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e) {
        const int j = g.adjncy[e] != r ? loc[g.adjncy[e]] : -1;
        if (j >= 0 && part[static_cast<size_t>(j)] == static_cast<int>(p))
          heap.emplace(loss_of(static_cast<size_t>(j), &dest), static_cast<size_t>(j));
      }
    }
  }
  for (int r : R) loc[r] = -1;
}

// One split: the ranks `R` among parts of capacities `cap` (all > 0, at
// least 2). loc: scratch of g.nranks entries, all -1 on entry and on return.
std::vector<std::vector<int>> split(const CommGraph &g, const std::vector<int> &R, const std::vector<int> &cap,
                                    double scale, int64_t seed, std::vector<int> &loc) {
  const size_t k = cap.size();
  std::vector<std::vector<int>> out(k);
  for (size_t i = 0; i < R.size(); ++i) loc[R[i]] = static_cast<int>(i);
  std::vector<int64_t> xadj{0};
  std::vector<int> adjncy;
  std::vector<uint64_t> adjwgt;
  for (int r : R) {
    for (int64_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e)
      if (g.adjncy[e] != r && loc[g.adjncy[e]] >= 0) {
        adjncy.push_back(loc[g.adjncy[e]]);
        adjwgt.push_back(g.adjwgt[e]);
      }
    xadj.push_back(static_cast<int64_t>(adjncy.size()));
  }
  for (int r : R) loc[r] = -1;
  if (adjncy.empty() || R.size() <= k) {  // nothing to cut: fill the parts in order
    size_t p = 0;
    for (int r : R) {
      while (p + 1 < k && static_cast<int>(out[p].size()) >= cap[p]) ++p;
      out[p].push_back(r);
    }
    return out;
  }
  double sum = 0;
  for (int c : cap) sum += c;
  std::vector<double> target(k);
  for (size_t i = 0; i < k; ++i) target[i] = cap[i] / sum;
  std::vector<int> part =
      metis_kway(xadj, adjncy, adjwgt, scale, target, seed, fmt::format("{} ranks into {} subtrees", R.size(), k));
  rebalance(g, R, cap, part, loc);
  for (size_t i = 0; i < R.size(); ++i) out[static_cast<size_t>(part[i])].push_back(R[i]);
  return out;
}

}  // namespace

Mapping partition_tree(const CommGraph &g, const Topology &topo, int64_t seed) {
  const int n = g.nranks;
  const int H = static_cast<int>(topo.hosts.size());
  if (H <= 1 || g.adjncy.empty() || n <= 1) return in_order_mapping(n, topo);
  // the hosts mpiexec would fill: a hostfile-order prefix
  std::vector<int> cap(H, 0);
  int filled = 0;
  for (int h = 0; h < H && filled < n; ++h) filled += cap[h] = topo.hosts[h].slots;
  if (filled < n) return in_order_mapping(n, topo);  // throws: too few slots
  const TreeGroups G = tree_groups(topo);
  const int V = static_cast<int>(topo.vertices.size());
  std::vector<int> vcap(V, 0);
  for (int v = 0; v < V; ++v)
    for (int i = 0; i < G.count[v]; ++i) vcap[v] += cap[G.entry(v, i)];
  const double scale = metis_weight_scale(g);
  Mapping m(n, -1);
  std::vector<int> loc(n, -1);
  std::vector<int> all(n);
  for (int r = 0; r < n; ++r) all[r] = r;
  std::vector<std::pair<int, std::vector<int>>> work{{topo.root, std::move(all)}};
  while (!work.empty()) {
    auto [v, R] = std::move(work.back());
    work.pop_back();
    if (R.empty()) continue;
    // parts: the children holding usable hosts, or this host's entries (sockets)
    std::vector<int> parts, pcap;
    const bool below = !G.kids[v].empty();
    if (below) {
      for (int c : G.kids[v])
        if (vcap[c] > 0) parts.push_back(c), pcap.push_back(vcap[c]);
    } else {
      for (int i = 0; i < G.count[v]; ++i)
        if (cap[G.entry(v, i)] > 0) parts.push_back(G.entry(v, i)), pcap.push_back(cap[G.entry(v, i)]);
    }
    std::vector<std::vector<int>> groups;
    if (parts.size() == 1) groups.push_back(std::move(R));
    else groups = split(g, R, pcap, scale, seed, loc);
    for (size_t i = 0; i < parts.size(); ++i) {
      if (below) work.emplace_back(parts[i], std::move(groups[i]));
      else
        for (int r : groups[i]) m[r] = parts[i];
    }
  }
  repair_slots(m, g, topo);
  return m;
}

}  // namespace arcoll::placement
