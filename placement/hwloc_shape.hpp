/**
 * @file hwloc_shape.hpp
 * @brief Sockets and cores of a host from an hwloc XML topology
 *        (`lstopo --of xml FILE` run on the host), read with the hwloc C API
 *        (hwloc_topology_set_xml + hwloc_topology_load; Debian libhwloc-dev).
 */
#ifndef ARCOLL_PLACEMENT_HWLOC_SHAPE_HPP
#define ARCOLL_PLACEMENT_HWLOC_SHAPE_HPP

#include <string>
#include <vector>

namespace arcoll::placement {

/** What the placement takes from an hwloc topology. */
struct HwlocShape {
  int packages = 1;  ///< sockets (HWLOC_OBJ_PACKAGE; 1 when the XML has none)
  int numa = 1;      ///< NUMA domains (HWLOC_OBJ_NUMANODE), informative
  int cores = 1;     ///< cores (HWLOC_OBJ_CORE; the PUs when the XML has no core)
  /// Per core in logical order (package by package): the OS indices of its PUs joined by '+'
  /// ("0+4": what `mpiexec.hydra -bind-to user:` takes for one process).
  std::vector<std::string> core_cpus;
};

/**
 * Loads the hwloc XML at `path` and counts its packages, NUMA nodes and cores.
 * Errors (TopologyError naming `path` and the fix): the file cannot be opened,
 * hwloc rejects it (not an hwloc XML, malformed), the cores are not spread
 * evenly over the packages.
 */
HwlocShape read_hwloc_shape(const std::string &path);

}  // namespace arcoll::placement

#endif
