// Block-move hill climbing: exchanges of the contents of two hosts or switch subtrees. See block_moves.hpp.
#include "block_moves.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "hopbytes.hpp"
#include "tree_groups.hpp"

namespace arcoll::placement {

BlockResult block_moves(const CommGraph &g, const Topology &topo, const Mapping &start, const BlockOptions &opt) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(
                                           std::chrono::duration<double>(std::max(0.0, opt.time_limit_s)));
  const int n = g.nranks, H = static_cast<int>(topo.hosts.size());
  BlockResult res;
  res.map = start;
  res.time_s = estimated_time(g, topo, start);
  const TreeGroups G = tree_groups(topo);
  if (n <= 1 || G.at.empty()) return res;
  CostModel model(g, topo);
  model.set_threads(opt.threads);
  model.reset(start);
  const Mapping &map = model.mapping();
  std::vector<std::vector<int>> on(H);  // ranks per host entry, kept in sync with the model
  for (int r = 0; r < n; ++r) on[start[r]].push_back(r);
  std::mt19937_64 rng(opt.seed);
  double hb = graph_hop_bytes(g, topo, start);
  bool stop = false;
  // The clock is read once an exchange has been evaluated: a pass cut by it has made evaluations, so
  // `--max-evals` with the count reproduces the cut (0 would mean no bound).
  auto out_of_budget = [&]() {
    if (opt.max_evals > 0 && res.evaluations >= opt.max_evals) stop = true;
    if (!stop && res.tried > 0 && clock::now() >= deadline) stop = res.hit_time_limit = true;
    return stop;
  };
  auto parent = [&](int v) { return topo.vertices[v].parent; };
  auto legal = [&](int u, int w) {  // equal entry counts, the slots hold what each entry receives, not a no-op
    if (G.count[u] != G.count[w]) return false;
    bool any = false;
    for (int k = 0; k < G.count[u]; ++k) {
      const int a = G.entry(u, k), b = G.entry(w, k);
      if (static_cast<int>(on[a].size()) > topo.hosts[b].slots || static_cast<int>(on[b].size()) > topo.hosts[a].slots)
        return false;
      any = any || !on[a].empty() || !on[b].empty();
    }
    return any;
  };

  // Hop-bytes after - before of exchanging u and w (bytes x links). hops(a, b) = depth(a) + depth(b) -
  // 2 depth(lca(a, b)); with equal shapes (tree_groups.hpp) a moved rank keeps its depth, so an edge from u to
  // a rank outside u and w, in group x (or on a host above the level, x = its vertex), changes by
  // 2 (depth lca(u, x) - depth lca(w, x)) links, and the edges inside u, inside w and between them keep their
  // length: the change needs only each group's bytes to every other group (`traffic`).
  std::vector<int> gof(H);  // group (at the level being searched) of each host entry; -1 above the level
  std::vector<double> bytes_to(topo.vertices.size(), 0.0);
  std::vector<int> touched;
  auto traffic = [&](int v, std::vector<std::pair<int, double>> &out) {
    touched.clear();
    for (int k = 0; k < G.count[v]; ++k)
      for (int r : on[G.entry(v, k)])
        for (int64_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e) {
          const int h = map[g.adjncy[e]], x = gof[h] >= 0 ? gof[h] : topo.hosts[h].vertex;
          if (x == v) continue;
          if (bytes_to[x] == 0) touched.push_back(x);
          bytes_to[x] += static_cast<double>(g.adjwgt[e]);
        }
    out.clear();
    for (int x : touched) out.emplace_back(x, bytes_to[x]), bytes_to[x] = 0;
  };
  std::vector<std::pair<int, double>> tu, tw;
  auto delta_equal_shapes = [&](int u, int w) {
    double s = 0;
    for (auto &[x, b] : tu)
      if (x != w) s += b * (lca_depth(topo, u, x) - lca_depth(topo, w, x));
    for (auto &[x, b] : tw)
      if (x != u) s -= b * (lca_depth(topo, u, x) - lca_depth(topo, w, x));
    return 2 * s;
  };
  // Any shapes: route lengths of every edge of the moved ranks (an edge between two of them counted once).
  std::vector<int> pair(H, -1);  // host entry -> the entry that receives its ranks, -1: not moved
  auto delta_any = [&](int u, int w) {
    for (int k = 0; k < G.count[u]; ++k) pair[G.entry(u, k)] = G.entry(w, k), pair[G.entry(w, k)] = G.entry(u, k);
    double d = 0;
    for (int v : {u, w})
      for (int k = 0; k < G.count[v]; ++k) {
        const int h = G.entry(v, k);
        for (int r : on[h])
          for (int64_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e) {
            const int s = g.adjncy[e], hs = map[s];
            if (pair[hs] >= 0 && s < r) continue;
            d += static_cast<double>(g.adjwgt[e]) *
                 (topo.hops(pair[h], pair[hs] >= 0 ? pair[hs] : hs) - topo.hops(h, hs));
          }
      }
    for (int k = 0; k < G.count[u]; ++k) pair[G.entry(u, k)] = pair[G.entry(w, k)] = -1;
    return d;
  };

  // Moves the contents of u's and w's entries across, one rank pair per CostModel::apply(); `ops` records
  // (rank a, its old host, rank b or -1, its old host) to move them back.
  struct Op { int a, ha, b, hb; };
  std::vector<Op> ops;
  auto exchange = [&](int u, int w) {
    ops.clear();
    for (int k = 0; k < G.count[u]; ++k) {
      const int hu = G.entry(u, k), hw = G.entry(w, k);
      const auto &A = on[hu], &B = on[hw];
      const size_t m = std::min(A.size(), B.size());
      for (size_t i = 0; i < m; ++i) model.apply(A[i], hw, B[i], hu), ops.push_back({A[i], hu, B[i], hw});
      for (size_t i = m; i < A.size(); ++i) model.apply(A[i], hw, -1, -1), ops.push_back({A[i], hu, -1, -1});
      for (size_t i = m; i < B.size(); ++i) model.apply(B[i], hu, -1, -1), ops.push_back({B[i], hw, -1, -1});
    }
    res.evaluations += static_cast<long>(ops.size());
  };
  auto move_back = [&]() {
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) model.apply(it->a, it->ha, it->b, it->hb);
    res.evaluations += static_cast<long>(ops.size());
  };

  // Candidates of group u at level `li`, in the order they are evaluated on T(pi): highest hop-bytes gain
  // first, equal gains in a seeded random order. Levels of at most opt.full_groups groups: all of them;
  // larger: the groups next to u's partners and random ones, only those with a positive gain, at most
  // opt.exact (the gain is the guide where not every exchange can be evaluated).
  std::vector<int> cand;
  std::vector<std::pair<double, int>> ranked;  // (hop-bytes gain, group)
  auto candidates = [&](int u, size_t li) {
    const auto &level = G.at[li];
    const bool full = static_cast<int>(level.size()) <= opt.full_groups;
    traffic(u, tu);
    cand.clear();
    if (full) {
      cand = level;
    } else {
      std::vector<std::pair<int, double>> partners;
      for (auto &[x, b] : tu)
        if (topo.vertices[x].depth == topo.vertices[u].depth && parent(x) != parent(u)) partners.emplace_back(x, b);
      const size_t np = std::min<size_t>(partners.size(), std::max(0, opt.partners));
      std::partial_sort(partners.begin(), partners.begin() + np, partners.end(), [](auto &a, auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
      });
      for (size_t i = 0; i < np; ++i) {
        const int p = partners[i].first;
        cand.push_back(p);
        const auto &sib = G.kids[parent(p)];
        for (int j = 0; j < opt.per_partner; ++j) cand.push_back(sib[rng() % sib.size()]);
      }
      for (int j = 0; j < opt.random; ++j) cand.push_back(level[rng() % level.size()]);
      std::sort(cand.begin(), cand.end());
      cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    }
    ranked.clear();
    for (int w : cand) {
      if (w == u || parent(w) == parent(u) || !legal(u, w)) continue;
      double d;
      if (G.shape[u] == G.shape[w]) {
        traffic(w, tw);
        d = delta_equal_shapes(u, w);
      } else {
        d = delta_any(u, w);
      }
      if (full || -d > 1e-9 * std::max(1.0, hb)) ranked.emplace_back(-d, w);
    }
    for (size_t i = ranked.size(); i > 1; --i) std::swap(ranked[i - 1], ranked[rng() % i]);
    std::stable_sort(ranked.begin(), ranked.end(), [](auto &a, auto &b) { return a.first > b.first; });
    if (!full && static_cast<int>(ranked.size()) > opt.exact) ranked.resize(std::max(0, opt.exact));
  };

  std::vector<int> order;
  for (int round = 0; round < opt.max_rounds && !stop; ++round) {
    bool any = false;
    for (size_t li = 0; li < G.at.size() && !stop; ++li) {
      const int d = G.depths[li];
      for (int h = 0; h < H; ++h) {
        int v = topo.hosts[h].vertex;
        while (v >= 0 && topo.vertices[v].depth > d) v = parent(v);
        gof[h] = v >= 0 && topo.vertices[v].depth == d ? v : -1;
      }
      order = G.at[li];
      for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
      for (int u : order) {
        if (out_of_budget()) break;
        candidates(u, li);
        for (auto &[gain, w] : ranked) {
          if (out_of_budget()) break;
          const double before = model.total();
          exchange(u, w);
          ++res.tried;
          const double after = model.total();
          if (cost_better(after, before) || (cost_same(after, before) && gain > 1e-9 * std::max(1.0, hb))) {
            for (int k = 0; k < G.count[u]; ++k) std::swap(on[G.entry(u, k)], on[G.entry(w, k)]);
            hb -= gain;
            ++res.accepted;
            any = true;
            break;
          }
          move_back();
        }
      }
    }
    if (!any) break;
  }
  // Report the exact cost (the running sum drifts by rounding); never return worse than the start.
  const double t = estimated_time(g, topo, model.mapping());
  if (t <= res.time_s) {
    res.map = model.mapping();
    res.time_s = t;
  }
  return res;
}

RefineResult refine_with_blocks(const CommGraph &g, const Topology &topo, const Mapping &start,
                                const RefineOptions &opt) {
  if (!opt.blocks) return refine(g, topo, start, opt);
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto time_left = [&]() {
    return std::max(0.0, opt.time_limit_s - std::chrono::duration<double>(clock::now() - t0).count());
  };
  long used = 0, accepted = 0, steps_used = 0;
  bool cut = false;  // a phase stopped on the clock: nothing runs after it (so --max-evals `used` reproduces it)
  bool step_cut = false;  // a rank descent reached opt.max_step_evals (shared by the descents, not the block passes)
  auto spent = [&]() { return cut || step_cut || (opt.max_evals > 0 && used >= opt.max_evals); };
  auto left = [&](long cap) {  // evaluations a phase may make: its cap (0 = none) and what the budget leaves
    if (opt.max_evals <= 0) return cap;
    const long rest = std::max(1L, opt.max_evals - used);
    return cap > 0 ? std::min(cap, rest) : rest;
  };
  RefineResult best;
  best.map = start;
  best.time_s = estimated_time(g, topo, start);
  auto keep = [&](const Mapping &m, double t) {  // equal T: a phase's hop-bytes tie-breaker moved it
    if (t <= best.time_s) best.map = m, best.time_s = t;
  };
  auto ranks = [&](int restarts) {
    RefineOptions ro = opt;
    ro.restarts = restarts;
    ro.time_limit_s = time_left();
    ro.max_evals = left(0);
    ro.max_step_evals = opt.max_step_evals > 0 ? std::max(1L, opt.max_step_evals - steps_used) : 0;
    RefineResult r = refine(g, topo, best.map, ro);
    used += r.evaluations;
    steps_used += r.step_evaluations;
    cut = cut || r.hit_time_limit;
    step_cut = step_cut || r.hit_step_budget;
    keep(r.map, r.time_s);
  };
  // Block passes and restart-free rank descents alternate while the block pass takes an exchange (a block
  // pass ends where no exchange pays, a descent where no single swap does; each can open the other's next
  // step), then the restarts of refine(). The block pass comes first: from METIS's parts (the start from a
  // random mapping) it finds more than after a descent has mixed them (placement/BLOCK_MOVES.md "Block moves").
  for (int it = 0; it < kBlockAlternations && !spent(); ++it) {
    BlockOptions bo;
    bo.seed = opt.seed + static_cast<uint64_t>(it);
    bo.threads = opt.threads;
    bo.time_limit_s = time_left();
    bo.max_evals = left(kBlockEvalsPerRank * g.nranks);
    BlockResult b = block_moves(g, topo, best.map, bo);
    used += b.evaluations;
    accepted += b.accepted;
    cut = cut || b.hit_time_limit;
    keep(b.map, b.time_s);
    if (spent() || (it > 0 && b.accepted == 0)) break;
    ranks(0);
  }
  if (!spent()) ranks(opt.restarts);
  best.evaluations = used;
  best.hit_time_limit = cut;
  best.step_evaluations = steps_used;
  best.hit_step_budget = step_cut;
  best.block_moves = accepted;
  return best;
}

}  // namespace arcoll::placement
