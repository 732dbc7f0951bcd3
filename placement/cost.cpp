// Seed-001 estimated communication time. See cost.hpp.
#include "cost.hpp"

#include <algorithm>

#include "fluid.hpp"

namespace arcoll::placement {

namespace {

// Time (seconds) of one set of messages; `load` is a zeroed scratch array of
// size links (left zeroed), `rbuf` a scratch buffer for the routes.
// `vload` the same for the bytes per link (Contention::Volume only).
double step_cost(const std::vector<Message> &msgs, const Topology &topo, const Mapping &map, std::vector<int> &load,
                 std::vector<double> &vload, std::vector<int> &rbuf, CostReport *rep) {
  const bool volume = topo.contention == Contention::Volume;
  if (volume && vload.size() < load.size()) vload.assign(load.size(), 0.0);
  const int R = topo.max_route();
  if (rbuf.size() < msgs.size() * (R + 1)) rbuf.resize(msgs.size() * (R + 1));
  // Pass 1: routes (length-prefixed) and link loads.
  int *w = rbuf.data();
  for (auto &m : msgs) {
    int n = topo.route_into(map[m.src], map[m.dst], w + 1);
    w[0] = n;
    for (int k = 1; k <= n; ++k) ++load[w[k]];
    if (volume)
      for (int k = 1; k <= n; ++k) vload[w[k]] += static_cast<double>(m.bytes);
    w += n + 1;
  }
  // Pass 2: per message L + S * coll / B with coll = max load on its route.
  double worst = 0;
  const int *r = rbuf.data();
  for (auto &m : msgs) {
    int n = r[0];
    int coll = 0;
    double lat = 0, bw = topo.links[r[1]].bandwidth_Bps, vt = 0;
    for (int k = 1; k <= n; ++k) {
      const Link &l = topo.links[r[k]];
      coll = std::max(coll, load[r[k]]);
      lat += l.latency_s;
      bw = std::min(bw, l.bandwidth_Bps);
      if (volume) vt = std::max(vt, vload[r[k]] / l.bandwidth_Bps);
    }
    double t = lat + (volume ? vt : static_cast<double>(m.bytes) * coll / bw);
    worst = std::max(worst, t);
    if (rep) {
      bool network = map[m.src] != map[m.dst];
      if (network) {
        rep->hop_bytes += static_cast<double>(m.bytes) * n;
        rep->max_congestion = std::max(rep->max_congestion, coll);
      }
    }
    r += n + 1;
  }
  r = rbuf.data();
  for (size_t i = 0; i < msgs.size(); ++i) {
    for (int k = 1; k <= r[0]; ++k) load[r[k]] = 0;
    if (volume)
      for (int k = 1; k <= r[0]; ++k) vload[r[k]] = 0;
    r += r[0] + 1;
  }
  if (topo.contention == Contention::Fluid) return fluid_step_time(msgs, topo, map);
  return worst;
}

}  // namespace

CostReport evaluate(const CommGraph &g, const Topology &topo, const Mapping &map) {
  CostReport r;
  std::vector<int> load(topo.links.size(), 0), rbuf;
  std::vector<double> vload;
  r.step_time_s.reserve(g.steps.size());
  for (auto &s : g.steps) {
    double t = step_cost(s.msgs, topo, map, load, vload, rbuf, &r);
    r.step_time_s.push_back(t);
    r.time_s += t;
  }
  return r;
}

double estimated_time(const CommGraph &g, const Topology &topo, const Mapping &map) {
  return evaluate(g, topo, map).time_s;
}

double set_time(const std::vector<Message> &msgs, const Topology &topo, const Mapping &map) {
  std::vector<int> load(topo.links.size(), 0), rbuf;
  std::vector<double> vload;
  return step_cost(msgs, topo, map, load, vload, rbuf, nullptr);
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
    step_[t] = step_cost(g_.steps[t].msgs, topo_, map_, load_, vload_, rbuf_, nullptr);
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
  auto redo = [&](int t) {
    usteps_.emplace_back(t, step_[t]);
    double nt = step_cost(g_.steps[t].msgs, topo_, map_, load_, vload_, rbuf_, nullptr);
    total_ += nt - step_[t];
    step_[t] = nt;
  };
  // Merge the two sorted step lists so that a step of both is evaluated once.
  static const std::vector<int> none;
  const auto &sa = steps_of_rank_[a];
  const auto &sb = b >= 0 ? steps_of_rank_[b] : none;
  size_t i = 0, j = 0;
  while (i < sa.size() || j < sb.size()) {
    if (j == sb.size() || (i < sa.size() && sa[i] < sb[j])) redo(sa[i++]);
    else if (i == sa.size() || sb[j] < sa[i]) redo(sb[j++]);
    else { redo(sa[i]); ++i; ++j; }
  }
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
