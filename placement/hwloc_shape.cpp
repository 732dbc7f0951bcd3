// Sockets and cores from an hwloc XML. See hwloc_shape.hpp.
#include "hwloc_shape.hpp"

#include <fstream>
#include <memory>

#include <fmt/format.h>
#include <hwloc.h>

#include "topology.hpp"

namespace arcoll::placement {

HwlocShape read_hwloc_shape(const std::string &path) {
  if (!std::ifstream(path))
    throw TopologyError(fmt::format("{}: cannot open the hwloc XML for reading; check the path (make it with "
                                    "\"lstopo --of xml FILE\" on the host)", path));
  hwloc_topology_t t;
  if (hwloc_topology_init(&t) < 0) throw TopologyError(fmt::format("{}: hwloc_topology_init failed", path));
  std::unique_ptr<hwloc_topology, void (*)(hwloc_topology_t)> guard(t, hwloc_topology_destroy);
  if (hwloc_topology_set_xml(t, path.c_str()) < 0 || hwloc_topology_load(t) < 0)
    throw TopologyError(fmt::format("{}: hwloc cannot read this file as an XML topology; regenerate it with "
                                    "\"lstopo --of xml FILE\" on the host", path));
  HwlocShape s;
  s.packages = std::max(1, hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE));
  s.numa = std::max(1, hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE));
  hwloc_obj_type_t core = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
  s.cores = std::max(1, hwloc_get_nbobjs_by_type(t, core));
  for (int i = 0; i < hwloc_get_nbobjs_by_type(t, core); ++i) {
    hwloc_obj_t c = hwloc_get_obj_by_type(t, core, static_cast<unsigned>(i));
    std::string pus;
    for (int p = hwloc_bitmap_first(c->cpuset); p >= 0; p = hwloc_bitmap_next(c->cpuset, p))
      pus += (pus.empty() ? "" : "+") + std::to_string(p);
    s.core_cpus.push_back(pus);
  }
  if (s.cores % s.packages != 0)
    throw TopologyError(fmt::format("{}: {} cores on {} packages (sockets) are not spread evenly; arcoll needs the "
                                    "same cores per socket: describe the host with slots=N sockets=S instead",
                                    path, s.cores, s.packages));
  return s;
}

}  // namespace arcoll::placement
