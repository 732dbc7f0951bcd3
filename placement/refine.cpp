// Deterministic swap/move hill climbing with restarts. See refine.hpp.
#include "refine.hpp"

#include <chrono>
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
  res.map = start;
  res.time_s = model.reset(start);
  if (H <= 1 || n <= 1) return res;

  std::vector<char> active(n, 0);
  for (auto &s : g.steps)
    for (auto &m : s.msgs) active[m.src] = active[m.dst] = 1;
  std::vector<int> act, all(n);
  for (int r = 0; r < n; ++r) {
    all[r] = r;
    if (active[r]) act.push_back(r);
  }
  std::vector<int> used(H, 0);
  for (int h : start) ++used[h];
  std::mt19937_64 rng(opt.seed);
  bool stop = false;
  auto out_of_time = [&]() {
    if ((res.evaluations & 63) == 0 && clock::now() >= deadline) stop = true;
    return stop;
  };
  auto better = [](double nw, double old) { return nw < old - 1e-12 * std::abs(old); };

  auto descend = [&]() {
    bool improved = true;
    while (improved && !stop) {
      improved = false;
      shuffle(act, rng);
      shuffle(all, rng);
      for (int a : act) {
        if (stop) break;
        // Moves to a host with a free slot.
        for (int h = 0; h < H && !stop; ++h) {
          int ha = model.mapping()[a];
          if (h == ha || used[h] >= topo.hosts[h].slots) continue;
          double cur = model.total();
          ++res.evaluations;
          if (better(model.apply(a, h, -1, -1), cur)) {
            --used[ha];
            ++used[h];
            improved = true;
          } else {
            model.undo();
          }
          if (out_of_time()) break;
        }
        // Swaps.
        for (int b : all) {
          if (stop) break;
          int ha = model.mapping()[a], hb = model.mapping()[b];
          if (b == a || ha == hb) continue;
          double cur = model.total();
          ++res.evaluations;
          if (better(model.apply(a, hb, b, ha), cur)) improved = true;
          else model.undo();
          if (out_of_time()) break;
        }
      }
      if (better(model.total(), res.time_s)) {
        res.time_s = model.total();
        res.map = model.mapping();
      }
    }
  };

  descend();
  for (int k = 0; k < opt.restarts && !stop && !act.empty(); ++k) {
    model.reset(res.map);
    used.assign(H, 0);
    for (int h : res.map) ++used[h];
    for (int s = 0; s < opt.kick; ++s) {
      int a = act[rng() % act.size()];
      int b = static_cast<int>(rng() % n);
      int ha = model.mapping()[a], hb = model.mapping()[b];
      if (ha != hb) model.apply(a, hb, b, ha);
    }
    descend();
    if (out_of_time()) break;
  }
  res.hit_time_limit = stop;
  // Guard against drift of the incremental sums: report the exact cost.
  res.time_s = estimated_time(g, topo, res.map);
  return res;
}

}  // namespace arcoll::placement
