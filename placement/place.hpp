/**
 * @file place.hpp
 * @brief The placement pipeline: in-order -> METIS -> Scotch -> refinement,
 *        each stage scored with the seed-001 cost (cost.hpp); the best
 *        mapping of all stages wins.
 */
#ifndef ARCOLL_PLACEMENT_PLACE_HPP
#define ARCOLL_PLACEMENT_PLACE_HPP

#include <string>
#include <vector>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "refine.hpp"
#include "topology.hpp"

namespace arcoll::placement {

struct Stage {
  std::string name;           ///< "in-order", "metis", "scotch (tleaf)", "refined"
  Mapping map;
  CostReport cost;
};

struct PlaceResult {
  std::vector<Stage> stages;  ///< in the order above
  size_t best = 0;            ///< index of the stage with the lowest T(pi) (earliest on ties)
  const Stage &chosen() const { return stages[best]; }
};

/**
 * Runs every stage. Refinement starts from the best earlier stage.
 * `opt.seed` also seeds METIS and Scotch. Every mapping respects the slots.
 */
PlaceResult place(const CommGraph &g, const Topology &topo, const RefineOptions &opt);

}  // namespace arcoll::placement

#endif
