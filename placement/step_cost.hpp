/**
 * @file step_cost.hpp
 * @brief The time of one communication step (one CCS) under a mapping: the
 *        formula of cost.hpp for one t, with its scratch buffers.
 *
 * Seed 001_6a837e3d9ad6c429.txt ("Rank placement"): the step's term of
 * T(pi), max over its messages of L + S * coll / B, or the Volume / Blend /
 * Fluid variants of cost.hpp chosen by Topology::contention. Used by
 * evaluate() and CostModel (cost.hpp); apart so that the formula and its
 * inner loop are read in one place.
 */
#ifndef ARCOLL_PLACEMENT_STEP_COST_HPP
#define ARCOLL_PLACEMENT_STEP_COST_HPP

#include <vector>

#include "comm_graph.hpp"
#include "route_table.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/** A mapping: host index (Topology::hosts) of each rank; size nranks. */
using Mapping = std::vector<int>;

struct CostReport;

/** Scratch of step_cost(): per link (zeroed between calls), per message of the step. */
struct StepScratch {
  /** `routes` (may be null or disabled): the host-pair table to read routes from
   *  instead of Topology::route_into; it must outlive the scratch. */
  explicit StepScratch(const Topology &topo, const RouteTable *routes = nullptr);
  std::vector<int> load;      ///< messages per link
  std::vector<double> vload;  ///< bytes per link (Volume, Blend)
  std::vector<int> rbuf;      ///< the step's routes when not read from the table
  std::vector<double> lat, bw;  ///< per message: L (seconds), B (bytes/s) of its route
  std::vector<const int *> route;  ///< per message: its links (in the table or rbuf)
  std::vector<int> len;            ///< per message: its route's length
  const RouteTable *routes;
};

/**
 * Time of the step `msgs` under `map`, seconds (cost.hpp's per-step term for
 * topo.contention). When `rep` is given, adds the step's hop-bytes,
 * inter-socket bytes and max congestion to it (time_s untouched).
 * Precondition: every src/dst < map.size(), map entries in [0, hosts).
 */
double step_cost(const std::vector<Message> &msgs, const Topology &topo, const Mapping &map, StepScratch &s,
                 CostReport *rep);

}  // namespace arcoll::placement

#endif
