// Max-min fair fluid time of one step. See fluid.hpp.
#include "fluid.hpp"

#include <algorithm>
#include <limits>

namespace arcoll::placement {

double fluid_step_time(const std::vector<Message> &msgs, const Topology &topo, const std::vector<int> &map) {
  const int F = static_cast<int>(msgs.size());
  if (F == 0) return 0;
  DenseRoutes dr(topo);
  std::vector<double> rem(F), rate(F, 0);
  for (int f = 0; f < F; ++f) {
    dr.add(map[msgs[f].src], map[msgs[f].dst]);
    rem[f] = static_cast<double>(msgs[f].bytes);
  }
  const int R = dr.R;
  const std::vector<int> &route = dr.route, &len = dr.len;
  const std::vector<double> &lat = dr.lat, &cap0 = dr.cap0;
  std::vector<char> active(F, 1), fixed;
  std::vector<double> cap;
  std::vector<int> nflows, act;
  double t = 0, end = 0;
  int left = F;
  for (int f = 0; f < F; ++f)
    if (rem[f] <= 0) {  // empty message: latency only
      active[f] = 0;
      --left;
      end = std::max(end, lat[f]);
    }
  while (left > 0) {
    // Progressive filling over the active flows.
    act.clear();
    for (int f = 0; f < F; ++f)
      if (active[f]) act.push_back(f);
    max_min_rates(act, route, R, len, cap0, rate, cap, nflows, fixed);
    // Advance to the next completion.
    double dt = std::numeric_limits<double>::infinity();
    for (int f = 0; f < F; ++f)
      if (active[f] && rate[f] > 0) dt = std::min(dt, rem[f] / rate[f]);
    t += dt;
    for (int f = 0; f < F; ++f) {
      if (!active[f]) continue;
      rem[f] -= rate[f] * dt;
      if (rem[f] <= 1e-9 * static_cast<double>(msgs[f].bytes) + 1e-12) {
        active[f] = 0;
        --left;
        end = std::max(end, t + lat[f]);
      }
    }
  }
  return end;
}

int DenseRoutes::add(int p, int q) {
  const int f = static_cast<int>(len.size());
  const int n = topo_.route_into(p, q, buf_.data());
  len.push_back(n);
  route.resize(route.size() + static_cast<size_t>(R), -1);
  for (int k = 0; k < n; ++k) {
    auto [it, fresh] = dense_.emplace(buf_[k], static_cast<int>(cap0.size()));
    if (fresh) cap0.push_back(topo_.links[buf_[k]].bandwidth_Bps);
    route[static_cast<size_t>(f) * R + k] = it->second;
  }
  lat.push_back(topo_.route_lb(buf_.data(), n).latency_s);
  return f;
}

void max_min_rates(const std::vector<int> &active, const std::vector<int> &route, int R, const std::vector<int> &len,
                   const std::vector<double> &cap0, std::vector<double> &rate, std::vector<double> &cap,
                   std::vector<int> &nflows, std::vector<char> &fixed) {
  const int K = static_cast<int>(cap0.size());
  cap = cap0;
  nflows.assign(K, 0);
  fixed.assign(active.size(), 0);
  for (int f : active)
    for (int k = 0; k < len[f]; ++k) ++nflows[route[static_cast<size_t>(f) * R + k]];
  std::size_t unfixed = active.size();
  while (unfixed > 0) {
    int best = -1;
    double share = std::numeric_limits<double>::infinity();
    for (int k = 0; k < K; ++k)
      if (nflows[k] > 0 && cap[k] / nflows[k] < share) {
        share = cap[k] / nflows[k];
        best = k;
      }
    share = std::max(share, 0.0);
    for (std::size_t a = 0; a < active.size(); ++a) {
      if (fixed[a]) continue;
      const int f = active[a];
      const int *rt = &route[static_cast<size_t>(f) * R];
      if (best >= 0 && std::find(rt, rt + len[f], best) == rt + len[f]) continue;
      rate[f] = share;  // best < 0: the flows left cross no link
      fixed[a] = 1;
      --unfixed;
      for (int k = 0; k < len[f]; ++k) {
        cap[rt[k]] -= share;
        --nflows[rt[k]];
      }
    }
  }
}

}  // namespace arcoll::placement
