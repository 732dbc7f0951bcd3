// Deterministic swap/move hill climbing with restarts. See refine.hpp.
#include "refine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "partition_metis.hpp"

namespace arcoll::placement {

namespace {

void shuffle(std::vector<int> &v, std::mt19937_64 &rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng() % i]);
}

}  // namespace

RefineResult refine(const CommGraph &g, const Topology &topo, const Mapping &start, const RefineOptions &opt) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(
                                           std::chrono::duration<double>(std::max(0.0, opt.time_limit_s)));
  const int n = g.nranks;
  const int H = static_cast<int>(topo.hosts.size());
  RefineResult res;
  CostModel model(g, topo);
  model.set_threads(opt.threads);
  res.map = start;
  res.time_s = model.reset(start);
  if (H <= 1 || n <= 1) return res;
  const bool full = n <= opt.full_neighbourhood;

  std::vector<char> active(n, 0);
  for (auto &s : g.steps)
    for (auto &m : s.msgs) active[m.src] = active[m.dst] = 1;
  std::vector<int> act, all(n);
  for (int r = 0; r < n; ++r) {
    all[r] = r;
    if (active[r]) act.push_back(r);
  }
  // Ranks per host (for the local neighbourhood), kept in sync with the model.
  std::vector<std::vector<int>> on(H);
  std::vector<int> pos(n);
  auto rebuild = [&](const Mapping &m) {
    for (auto &v : on) v.clear();
    for (int r = 0; r < n; ++r) {
      pos[r] = static_cast<int>(on[m[r]].size());
      on[m[r]].push_back(r);
    }
  };
  rebuild(start);
  auto moved = [&](int a, int from, int to) {
    on[from][pos[on[from].back()] = pos[a]] = on[from].back();
    on[from].pop_back();
    pos[a] = static_cast<int>(on[to].size());
    on[to].push_back(a);
  };
  std::mt19937_64 rng(opt.seed);
  bool stop = false;
  auto out_of_budget = [&]() {
    if (opt.max_evals > 0 && res.evaluations >= opt.max_evals) stop = true;
    if (opt.max_step_evals > 0 && model.step_evaluations() >= opt.max_step_evals) stop = res.hit_step_budget = true;
    if ((res.evaluations & 15) == 0 && clock::now() >= deadline) { stop = true; res.hit_time_limit = true; }
    return stop;
  };
  // Secondary objective (tie-breaker on the plateaus of the max-based cost): hop-bytes of the
  // graph edges of a rank (bytes of all steps, both directions, x network links).
  auto hb_rank = [&](int a) {
    const Mapping &m = model.mapping();
    double s = 0;
    for (int64_t e = g.xadj[a]; e < g.xadj[a + 1]; ++e)
      s += static_cast<double>(g.adjwgt[e]) * topo.hops(m[a], m[g.adjncy[e]]);
    return s;
  };
  double hbytes = 0;
  for (int r = 0; r < n; ++r) hbytes += hb_rank(r);
  hbytes /= 2;
  double best_hb = hbytes;
  // Accept when the cost drops, or stays equal while the hop-bytes drop. The a-b edge of a swap
  // keeps its length, so the delta of hb_rank(a) + hb_rank(b) is the delta of the total.
  auto accept = [&](double before, double hb_before, double after, double hb_after) {
    return cost_better(after, before) || (cost_same(after, before) && hb_after < hb_before - 1e-9 * std::max(1.0, hb_before));
  };

  // Swaps already evaluated and rejected since the last change of the mapping: the same swap
  // from the same state gives the same answer, so it is answered without the model (and still
  // counted as an evaluation: the search, its budget and its result are unchanged). Full
  // neighbourhood only (n^2 entries), and without per-link steps, whose sums depend on the order
  // of the two ranks (cost.hpp).
  long epoch = 0;
  const bool skip_repeats = opt.skip_repeated_swaps && full && model.per_link_steps() == 0;
  std::vector<long> rejected(skip_repeats ? static_cast<size_t>(n) * n : 0, -1);
  std::vector<int> hosts_c, ranks_c;
  auto candidates = [&](int a) {
    hosts_c.clear();
    ranks_c.clear();
    if (full) {
      for (int h = 0; h < H; ++h) hosts_c.push_back(h);
      ranks_c = all;
      return;
    }
    for (int64_t e = g.xadj[a]; e < g.xadj[a + 1]; ++e) hosts_c.push_back(model.mapping()[g.adjncy[e]]);
    // The other sockets of a's host (HOSTS.md): which of its ranks share a socket.
    const Host &own = topo.hosts[model.mapping()[a]];
    for (int k = 0, f = model.mapping()[a] - own.socket; k < own.sockets; ++k) hosts_c.push_back(f + k);
    std::sort(hosts_c.begin(), hosts_c.end());
    hosts_c.erase(std::unique(hosts_c.begin(), hosts_c.end()), hosts_c.end());
    for (int h : hosts_c) {
      const auto &v = on[h];
      size_t k = std::min<size_t>(4, v.size());
      size_t off = v.empty() ? 0 : rng() % v.size();
      for (size_t i = 0; i < k; ++i) ranks_c.push_back(v[(off + i) % v.size()]);
    }
    for (int i = 0; i < 4; ++i) ranks_c.push_back(static_cast<int>(rng() % n));
  };

  auto descend = [&]() {
    bool improved = true;
    while (improved && !stop) {
      improved = false;
      shuffle(act, rng);
      if (full) shuffle(all, rng);
      for (int a : act) {
        if (stop) break;
        candidates(a);
        // Moves to a host with a free slot.
        for (int h : hosts_c) {
          if (stop) break;
          int ha = model.mapping()[a];
          if (h == ha || static_cast<int>(on[h].size()) >= topo.hosts[h].slots) continue;
          double cur = model.total();
          double pre = hb_rank(a);
          ++res.evaluations;
          double nt = model.apply(a, h, -1, -1);
          double post = hb_rank(a);
          if (accept(cur, hbytes, nt, hbytes + post - pre)) {
            moved(a, ha, h);
            hbytes += post - pre;
            improved = true;
            ++epoch;
          } else {
            model.undo();
          }
          out_of_budget();
        }
        // Swaps.
        for (int b : ranks_c) {
          if (stop) break;
          int ha = model.mapping()[a], hb = model.mapping()[b];
          if (b == a || ha == hb) continue;
          long *seen = skip_repeats ? &rejected[static_cast<size_t>(std::min(a, b)) * n + std::max(a, b)] : nullptr;
          if (seen && *seen == epoch) {
            ++res.evaluations;
            out_of_budget();
            continue;
          }
          double cur = model.total();
          double pre = hb_rank(a) + hb_rank(b);
          ++res.evaluations;
          double nt = model.apply(a, hb, b, ha);
          double post = hb_rank(a) + hb_rank(b);
          if (accept(cur, hbytes, nt, hbytes + post - pre)) {
            hbytes += post - pre;
            std::swap(on[ha][pos[a]], on[hb][pos[b]]);
            std::swap(pos[a], pos[b]);
            improved = true;
            ++epoch;
          } else {
            model.undo();
            if (seen) *seen = epoch;
          }
          out_of_budget();
        }
      }
      if (cost_better(model.total(), res.time_s) || (cost_same(model.total(), res.time_s) && hbytes < best_hb)) {
        res.time_s = model.total();
        res.map = model.mapping();
        best_hb = hbytes;
      }
    }
  };

  descend();
  for (int k = 0; k < opt.restarts && !stop && !act.empty(); ++k) {
    model.reset(res.map);
    ++epoch;
    for (int s = 0; s < opt.kick; ++s) {
      int a = act[rng() % act.size()];
      int b = static_cast<int>(rng() % n);
      int ha = model.mapping()[a], hb = model.mapping()[b];
      if (ha != hb) model.apply(a, hb, b, ha);
    }
    rebuild(model.mapping());
    hbytes = 0;
    for (int r = 0; r < n; ++r) hbytes += hb_rank(r);
    hbytes /= 2;
    descend();
  }
  res.step_evaluations = model.step_evaluations();
  // Guard against drift of the incremental sums: report the exact cost.
  res.time_s = estimated_time(g, topo, res.map);
  return res;
}

}  // namespace arcoll::placement
