// Placement pipeline. See place.hpp.
#include "place.hpp"

#include "map_scotch.hpp"
#include "partition_metis.hpp"

namespace arcoll::placement {

PlaceResult place(const CommGraph &g, const Topology &topo, const RefineOptions &opt) {
  PlaceResult r;
  auto add = [&](std::string name, Mapping m) {
    CostReport c = evaluate(g, topo, m);
    r.stages.push_back(Stage{std::move(name), std::move(m), c});
    const Stage &s = r.stages.back();
    if (s.cost.time_s < r.stages[r.best].cost.time_s) r.best = r.stages.size() - 1;
  };
  add("in-order", in_order_mapping(g.nranks, topo));
  Mapping parts = partition_metis(g, topo, static_cast<int64_t>(opt.seed));
  add("metis", parts);
  ScotchResult sc = map_scotch(g, topo, parts, static_cast<int64_t>(opt.seed));
  add("scotch (" + sc.architecture + ")", sc.map);
  RefineResult rf = refine(g, topo, r.chosen().map, opt);
  add(rf.hit_time_limit ? "refined (time limit)" : "refined", rf.map);
  return r;
}

}  // namespace arcoll::placement
