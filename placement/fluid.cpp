// Max-min fair fluid time of one step. See fluid.hpp.
#include "fluid.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace arcoll::placement {

double fluid_step_time(const std::vector<Message> &msgs, const Topology &topo, const std::vector<int> &map) {
  const int F = static_cast<int>(msgs.size());
  if (F == 0) return 0;
  const int R = topo.max_route();
  // Routes with links renumbered densely (only the links the step uses).
  std::vector<int> route(static_cast<size_t>(F) * R), len(F);
  std::vector<double> lat(F, 0), rem(F), rate(F, 0);
  std::unordered_map<int, int> dense;
  std::vector<double> cap0;
  std::vector<int> buf(R);
  for (int f = 0; f < F; ++f) {
    len[f] = topo.route_into(map[msgs[f].src], map[msgs[f].dst], buf.data());
    for (int k = 0; k < len[f]; ++k) {
      auto it = dense.find(buf[k]);
      int d;
      if (it == dense.end()) {
        d = static_cast<int>(cap0.size());
        dense.emplace(buf[k], d);
        cap0.push_back(topo.links[buf[k]].bandwidth_Bps);
      } else {
        d = it->second;
      }
      route[static_cast<size_t>(f) * R + k] = d;
    }
    lat[f] = topo.route_lb(buf.data(), len[f]).latency_s;
    rem[f] = static_cast<double>(msgs[f].bytes);
  }
  const int K = static_cast<int>(cap0.size());
  std::vector<char> active(F, 1), fixed(F);
  std::vector<double> cap(K);
  std::vector<int> nflows(K);
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
    cap = cap0;
    std::fill(nflows.begin(), nflows.end(), 0);
    for (int f = 0; f < F; ++f) {
      fixed[f] = !active[f];
      if (active[f])
        for (int k = 0; k < len[f]; ++k) ++nflows[route[static_cast<size_t>(f) * R + k]];
    }
    int unfixed = left;
    while (unfixed > 0) {
      int best = -1;
      double share = std::numeric_limits<double>::infinity();
      for (int k = 0; k < K; ++k)
        if (nflows[k] > 0 && cap[k] / nflows[k] < share) {
          share = cap[k] / nflows[k];
          best = k;
        }
      share = std::max(share, 0.0);
      for (int f = 0; f < F; ++f) {
        if (fixed[f]) continue;
        const int *rt = &route[static_cast<size_t>(f) * R];
        if (std::find(rt, rt + len[f], best) == rt + len[f]) continue;
        rate[f] = share;
        fixed[f] = 1;
        --unfixed;
        for (int k = 0; k < len[f]; ++k) {
          cap[rt[k]] -= share;
          --nflows[rt[k]];
        }
      }
    }
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

}  // namespace arcoll::placement
