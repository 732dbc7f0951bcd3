// Seed-001 estimated communication time. See cost.hpp.
#include "cost.hpp"

#include <algorithm>

namespace arcoll::placement {

namespace {

// Time of one step (seconds); `load` is a zeroed scratch array of size links, left zeroed.
double step_cost(const Step &s, const Topology &topo, const Mapping &map, std::vector<int> &load,
                 CostReport *rep) {
  for (auto &m : s.msgs)
    for (int l : topo.route(map[m.src], map[m.dst])) ++load[l];
  double worst = 0;
  for (auto &m : s.msgs) {
    int p = map[m.src], q = map[m.dst];
    int coll = 0;
    for (int l : topo.route(p, q)) coll = std::max(coll, load[l]);
    double t = topo.latency(p, q) + static_cast<double>(m.bytes) * coll / topo.bandwidth(p, q);
    worst = std::max(worst, t);
    if (rep) {
      rep->hop_bytes += static_cast<double>(m.bytes) * topo.hops(p, q);
      if (p != q) rep->max_congestion = std::max(rep->max_congestion, coll);
    }
  }
  for (auto &m : s.msgs)
    for (int l : topo.route(map[m.src], map[m.dst])) load[l] = 0;
  return worst;
}

}  // namespace

CostReport evaluate(const CommGraph &g, const Topology &topo, const Mapping &map) {
  CostReport r;
  std::vector<int> load(topo.links.size(), 0);
  for (auto &s : g.steps) r.time_s += step_cost(s, topo, map, load, &r);
  return r;
}

double estimated_time(const CommGraph &g, const Topology &topo, const Mapping &map) {
  return evaluate(g, topo, map).time_s;
}

CostModel::CostModel(const CommGraph &g, const Topology &topo)
    : g_(g), topo_(topo), steps_of_rank_(g.nranks), load_(topo.links.size(), 0) {
  for (size_t t = 0; t < g.steps.size(); ++t)
    for (auto &m : g.steps[t].msgs) {
      for (int r : {m.src, m.dst}) {
        auto &v = steps_of_rank_[r];
        if (v.empty() || v.back() != static_cast<int>(t)) v.push_back(static_cast<int>(t));
      }
    }
}

double CostModel::step_time(size_t t) const { return step_[t]; }

double CostModel::reset(const Mapping &map) {
  map_ = map;
  step_.assign(g_.steps.size(), 0);
  total_ = 0;
  for (size_t t = 0; t < g_.steps.size(); ++t) {
    step_[t] = step_cost(g_.steps[t], topo_, map_, load_, nullptr);
    total_ += step_[t];
  }
  return total_;
}

double CostModel::apply(int a, int ha, int b, int hb) {
  ua_ = a;
  uha_ = map_[a];
  ub_ = b;
  uhb_ = b >= 0 ? map_[b] : -1;
  utotal_ = total_;
  usteps_.clear();
  map_[a] = ha;
  if (b >= 0) map_[b] = hb;
  auto redo = [&](int r) {
    for (int t : steps_of_rank_[r]) {
      bool done = false;
      for (auto &u : usteps_)
        if (u.first == t) { done = true; break; }
      if (done) continue;
      usteps_.emplace_back(t, step_[t]);
      double nt = step_cost(g_.steps[t], topo_, map_, load_, nullptr);
      total_ += nt - step_[t];
      step_[t] = nt;
    }
  };
  redo(a);
  if (b >= 0) redo(b);
  return total_;
}

void CostModel::undo() {
  if (ua_ < 0) return;
  map_[ua_] = uha_;
  if (ub_ >= 0) map_[ub_] = uhb_;
  for (auto &u : usteps_) step_[u.first] = u.second;
  total_ = utotal_;
  ua_ = -1;
}

}  // namespace arcoll::placement
