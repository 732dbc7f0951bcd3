/**
 * @file report_placement.hpp
 * @brief The "placement" section of `arcoll report` (--mapping --topology
 *        --hosts): estimated link loads of the in-order mapping (ranks fill
 *        the hosts in hostfile order, as mpiexec does: "before") and of the
 *        given mapping (typically written by `arcoll place`: "after").
 *
 * Reuses placement/: the readers `arcoll place` uses (read_topology_conf,
 * read_hostfile + attach_hosts with the default link parameters,
 * read_mapping for any launch-file format), build_comm_graph (the CCS
 * steps), evaluate() for the seed-001 estimated time, hop-bytes and peak
 * congestion, and Topology::route_into for the per-link loads:
 *
 *   bytes[k] = sum over steps and messages routed through directed link k of the bytes
 *   peak[k]  = max over steps of the number of that step's messages on link k
 *              (the collision count of the seed-001 cost, cost.hpp)
 */
#ifndef ARCOLL_TOOLS_REPORT_PLACEMENT_HPP
#define ARCOLL_TOOLS_REPORT_PLACEMENT_HPP

#include <nlohmann/json.hpp>
#include <string>

#include "trace_reader.hpp"

namespace arcoll::report {

/** The three files of `arcoll report --mapping M --topology T --hosts H`. */
struct PlacementInputs {
  std::string mapping, topology, hosts;
  bool with_collectives = false;  ///< as `arcoll place --with-collectives`
};

/**
 * Returns {topology, hosts, mapping, with_collectives, before {name, time_s,
 * hop_bytes, max_congestion}, after {...}, links [{link ("node01 -> leaf1"),
 * kind (intra|node|switch), before_bytes, after_bytes, before_peak,
 * after_peak}] (links loaded by either mapping, in link order)}. Errors of
 * the readers propagate (TopologyError, MappingError: they name the file and
 * line); a CCS entry naming an unknown rank throws TraceError naming the trace.
 */
nlohmann::json placement_json(const arcoll::trace::Trace &t, const PlacementInputs &in);

}  // namespace arcoll::report

#endif
