// The time of one step. See step_cost.hpp and cost.hpp.
#include "step_cost.hpp"

#include <algorithm>

#include "cost.hpp"
#include "fluid.hpp"

namespace arcoll::placement {

StepScratch::StepScratch(const Topology &topo, const RouteTable *r)
    : load(topo.links.size(), 0), routes(r && r->enabled() ? r : nullptr) {}

double step_cost(const std::vector<Message> &msgs, const Topology &topo, const Mapping &map, StepScratch &s,
                 CostReport *rep) {
  const bool volume = topo.contention == Contention::Volume || topo.contention == Contention::Blend;
  std::vector<int> &load = s.load;
  std::vector<double> &vload = s.vload;
  if (volume && vload.size() < load.size()) vload.assign(load.size(), 0.0);
  const int R = topo.max_route();
  if (!s.routes && s.rbuf.size() < msgs.size() * R) s.rbuf.resize(msgs.size() * R);
  if (s.lat.size() < msgs.size()) {
    s.lat.resize(msgs.size());
    s.bw.resize(msgs.size());
    s.route.resize(msgs.size());
    s.len.resize(msgs.size());
  }
  // Pass 1: routes (from the table, or written into rbuf), their L and B (in route order), and link loads.
  int *w = s.rbuf.data();
  for (size_t i = 0; i < msgs.size(); ++i) {
    const Message &m = msgs[i];
    const int p = map[m.src], q = map[m.dst];
    int n;
    const int *r;
    if (s.routes) {
      r = s.routes->links(p, q, n);
      s.lat[i] = s.routes->latency(p, q);
      s.bw[i] = s.routes->bandwidth(p, q);
    } else {
      n = topo.route_into(p, q, w);
      r = w;
      w += n;
      const Topology::RouteLB lb = topo.route_lb(r, n);
      s.lat[i] = lb.latency_s;
      s.bw[i] = lb.bandwidth_Bps;
    }
    s.route[i] = r;
    s.len[i] = n;
    for (int k = 0; k < n; ++k) ++load[r[k]];
    if (volume)
      for (int k = 0; k < n; ++k) vload[r[k]] += static_cast<double>(m.bytes);
  }
  // Pass 2: per message L + S * coll / B with coll = max load on its route.
  double worst = 0, max_lat = 0;
  for (size_t i = 0; i < msgs.size(); ++i) {
    const Message &m = msgs[i];
    const int *r = s.route[i];
    const int n = s.len[i];
    const double lat = s.lat[i];
    double t;
    if (volume) {
      double vt = 0;
      for (int k = 0; k < n; ++k) vt = std::max(vt, vload[r[k]] / topo.links[r[k]].bandwidth_Bps);
      t = lat + vt;
    } else {
      int coll = 0;
      for (int k = 0; k < n; ++k) coll = std::max(coll, load[r[k]]);
      t = lat + static_cast<double>(m.bytes) * coll / s.bw[i];
    }
    worst = std::max(worst, t);
    max_lat = std::max(max_lat, lat);
    if (rep) {
      if (topo.same_node(map[m.src], map[m.dst])) {
        if (map[m.src] != map[m.dst]) rep->inter_socket_bytes += static_cast<double>(m.bytes);
      } else {  // network
        int coll = 0;
        for (int k = 0; k < n; ++k) coll = std::max(coll, load[r[k]]);
        rep->hop_bytes += static_cast<double>(m.bytes) * n;
        rep->max_congestion = std::max(rep->max_congestion, coll);
      }
    }
  }
  // Pass 3: zero the scratch arrays. A link's load is still set the first time a route
  // reaches it: there Blend adds its busy time t_k = V_k / B_k, once per link.
  const bool blend = topo.contention == Contention::Blend;
  double sum_t = 0, sum_t2 = 0;
  for (size_t i = 0; i < msgs.size(); ++i) {
    const int *r = s.route[i];
    for (int k = 0; k < s.len[i]; ++k) {
      if (blend && load[r[k]] != 0) {
        const double t = vload[r[k]] / topo.links[r[k]].bandwidth_Bps;
        sum_t += t;
        sum_t2 += t * t;
      }
      load[r[k]] = 0;
      if (volume) vload[r[k]] = 0;
    }
  }
  if (topo.contention == Contention::Fluid) return fluid_step_time(msgs, topo, map);
  if (blend && sum_t > 0) return 0.5 * (worst + max_lat + sum_t2 / sum_t);
  return worst;
}

}  // namespace arcoll::placement
