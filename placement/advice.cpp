// Barrier-separation advice. See advice.hpp.
#include "advice.hpp"

#include <algorithm>
#include <cmath>

namespace arcoll::placement {

std::vector<StepAdvice> barrier_advice(const CommGraph &g, const Topology &topo, const Mapping &map) {
  std::vector<StepAdvice> out;
  if (g.steps.size() < 2) return out;
  CostReport rep = evaluate(g, topo, map);
  std::vector<int> mark(topo.links.size(), -1), buf(topo.max_route());
  const double logp = std::ceil(std::log2(std::max(2, g.nranks)));
  for (size_t t = 0; t + 1 < g.steps.size(); ++t) {
    StepAdvice a;
    a.step = t;
    a.id = g.steps[t].id;
    a.next_id = g.steps[t + 1].id;
    a.time_s = rep.step_time_s[t];
    a.next_time_s = rep.step_time_s[t + 1];
    double maxlat = 0;
    for (auto &m : g.steps[t].msgs) {
      int n = topo.route_into(map[m.src], map[m.dst], buf.data());
      for (int k = 0; k < n; ++k) mark[buf[k]] = static_cast<int>(t);
      maxlat = std::max(maxlat, topo.route_lb(buf.data(), n).latency_s);
    }
    for (auto &m : g.steps[t + 1].msgs) {
      int n = topo.route_into(map[m.src], map[m.dst], buf.data());
      for (int k = 0; k < n; ++k)
        if (mark[buf[k]] == static_cast<int>(t)) {
          ++a.shared_links;
          mark[buf[k]] = -2;  // count each link once
        }
    }
    for (int &x : mark) x = -1;
    std::vector<Message> both = g.steps[t].msgs;
    both.insert(both.end(), g.steps[t + 1].msgs.begin(), g.steps[t + 1].msgs.end());
    a.overlap_s = set_time(both, topo, map);
    a.penalty_s = std::max(0.0, a.overlap_s - std::max(a.time_s, a.next_time_s));
    a.barrier_s = logp * maxlat;
    a.barrier_advised = a.shared_links > 0 && a.penalty_s > a.barrier_s;
    out.push_back(a);
  }
  return out;
}

}  // namespace arcoll::placement
