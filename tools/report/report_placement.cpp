// Link loads before/after a placement (report_placement.hpp).
#include "report_placement.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "mapping_io.hpp"
#include "partition_metis.hpp"
#include "topology.hpp"

namespace arcoll::report {

namespace {

namespace ap = arcoll::placement;
using nlohmann::json;

/** Per directed link: bytes over all steps, and the peak message count of one step. */
struct Loads {
  std::vector<double> bytes;
  std::vector<int> peak;
};

Loads link_loads(const ap::CommGraph &g, const ap::Topology &topo, const ap::Mapping &map) {
  Loads L{std::vector<double>(topo.links.size(), 0.0), std::vector<int>(topo.links.size(), 0)};
  std::vector<int> step_count(topo.links.size(), 0), touched, route(topo.max_route());
  for (const ap::Step &s : g.steps) {
    for (const ap::Message &m : s.msgs) {
      int n = topo.route_into(map[m.src], map[m.dst], route.data());
      for (int i = 0; i < n; ++i) {
        int k = route[i];
        L.bytes[k] += static_cast<double>(m.bytes);
        if (step_count[k]++ == 0) touched.push_back(k);
      }
    }
    for (int k : touched) {
      L.peak[k] = std::max(L.peak[k], step_count[k]);
      step_count[k] = 0;
    }
    touched.clear();
  }
  return L;
}

json cost_json(const std::string &name, const ap::CostReport &c, const Loads &l) {
  double max_bytes = l.bytes.empty() ? 0 : *std::max_element(l.bytes.begin(), l.bytes.end());
  return {{"name", name}, {"time_s", c.time_s}, {"hop_bytes", c.hop_bytes}, {"max_congestion", c.max_congestion},
          {"max_link_bytes", max_bytes}};
}

std::string link_name(const ap::Topology &topo, int k) {
  const ap::Link &l = topo.links[k];
  if (l.kind == ap::Link::Intra) return topo.vertices[l.from].name + " (intra)";
  return topo.vertices[l.from].name + " -> " + topo.vertices[l.to].name;
}

}  // namespace

json placement_json(const arcoll::trace::Trace &t, const PlacementInputs &in) {
  ap::CommGraphOptions gopt;
  gopt.with_collectives = in.with_collectives;
  ap::CommGraph g;
  try {
    g = ap::build_comm_graph(t, gopt);
  } catch (const std::invalid_argument &e) {
    throw arcoll::trace::TraceError(e.what());
  }
  ap::Topology topo = ap::read_topology_conf(in.topology);
  ap::attach_hosts(topo, ap::read_hostfile(in.hosts), ap::TopologyParams{}, in.hosts, g.nranks);
  const ap::Mapping before = ap::in_order_mapping(g.nranks, topo);
  const ap::Mapping after = ap::read_mapping(in.mapping, topo, g.nranks);
  const Loads lb = link_loads(g, topo, before), la = link_loads(g, topo, after);
  json links = json::array();
  for (size_t k = 0; k < topo.links.size(); ++k) {
    if (lb.bytes[k] == 0 && la.bytes[k] == 0) continue;
    const ap::Link &l = topo.links[k];
    const char *kind = l.kind == ap::Link::Intra ? "intra" : l.kind == ap::Link::NodeLeaf ? "node" : "switch";
    links.push_back({{"link", link_name(topo, static_cast<int>(k))}, {"kind", kind},
                     {"before_bytes", lb.bytes[k]}, {"after_bytes", la.bytes[k]},
                     {"before_peak", lb.peak[k]}, {"after_peak", la.peak[k]}});
  }
  size_t nmsg = 0;
  for (auto &s : g.steps) nmsg += s.msgs.size();
  return {{"topology", in.topology}, {"hosts", in.hosts}, {"mapping", in.mapping},
          {"with_collectives", in.with_collectives}, {"steps", g.steps.size()}, {"messages", nmsg},
          {"before", cost_json("in-order", ap::evaluate(g, topo, before), lb)},
          {"after", cost_json(in.mapping, ap::evaluate(g, topo, after), la)}, {"links", links}};
}

}  // namespace arcoll::report
