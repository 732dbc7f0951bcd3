/**
 * @file place.hpp
 * @brief The placement pipeline: current -> hop-bytes -> METIS -> Scotch ->
 *        refinement, each stage scored with the seed-001 cost (cost.hpp).
 *
 * Stages (in this order; `Strategy` selects which run and which is written):
 *  - "in-order" / "initial": the current mapping: in-order (ranks fill the
 *    hosts in hostfile order, as mpiexec does) or the given initial mapping
 *    (random or from a file, mapping_io.hpp);
 *  - "hopbytes": distance-only local search from the current mapping
 *    (hopbytes.hpp; seed 001's "distance-based mapping");
 *  - "metis": METIS k-way partition into hosts (partition_metis.hpp);
 *  - "scotch (tleaf|deco)": the METIS parts mapped onto the switch tree;
 *  - "refined": swap/move search on the seed-001 cost, started from the best
 *    earlier stage (refine.hpp), never worse than its start.
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

/** Which stage's mapping to write. Identity = keep the current mapping. */
enum class Strategy { Identity, HopBytes, Metis, Scotch, Refined, Best };

/** "identity", "hopbytes", "metis", "scotch", "refined", "best" -> Strategy;
 *  std::invalid_argument listing the names otherwise. */
Strategy parse_strategy(const std::string &name);

struct Stage {
  std::string name;           ///< see the file comment
  Mapping map;
  CostReport cost;
  double seconds = 0;         ///< wall-clock time the stage took to compute (not its cost)
};

struct PlaceResult {
  std::vector<Stage> stages;  ///< in the order above, only the stages that ran
  size_t best = 0;            ///< index of the stage with the lowest T(pi) (earliest on ties)
  size_t chosen_index = 0;    ///< the stage the strategy selects (== best for Strategy::Best)
  RefineResult refine;        ///< details of the refinement (when it ran)
  const Stage &chosen() const { return stages[chosen_index]; }
};

struct PlaceOptions {
  RefineOptions refine;       ///< seed (also METIS, Scotch, hop-bytes), time limit, max_evals
  Strategy strategy = Strategy::Best;
  Mapping initial;            ///< current mapping; empty = in-order
  std::string initial_name = "in-order";
};

/**
 * Runs the stages `opt.strategy` needs (Identity: none; HopBytes: hop-bytes;
 * Metis: METIS; Scotch: METIS + Scotch; Refined/Best: all). Every mapping
 * respects the slots. The time limit covers the hop-bytes search and the
 * refinement together (METIS and Scotch are not interruptible).
 */
PlaceResult place(const CommGraph &g, const Topology &topo, const PlaceOptions &opt);

/** Backward-compatible form: Strategy::Best from the in-order mapping. */
PlaceResult place(const CommGraph &g, const Topology &topo, const RefineOptions &opt);

}  // namespace arcoll::placement

#endif
