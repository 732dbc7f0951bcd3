/**
 * @file mapping_io.hpp
 * @brief Reading a mapping back from a launch file, and initial mappings
 *        (in-order, random as a batch scheduler gives, or from a file).
 */
#ifndef ARCOLL_PLACEMENT_MAPPING_IO_HPP
#define ARCOLL_PLACEMENT_MAPPING_IO_HPP

#include <cstdint>
#include <stdexcept>
#include <string>

#include "cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/** A mapping file that cannot be read or does not fit the ranks/hosts;
 *  what() names the file and line and says how to fix it. */
class MappingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/**
 * Parses a mapping in any format launch_files.hpp writes, detected from the
 * content: `rank N=host slot=K` lines -> rankfile; lines of comma-separated
 * rank numbers -> Cray MPICH_RANK_ORDER (line k = the k-th host of the
 * header comment arcoll writes, `# ... ranks per node: host=N ...`, or of
 * the hostfile when there is no such header); otherwise Hydra machinefile (`host:count`, run-length, a bare
 * `host` = 1 rank), which also covers the Slurm arbitrary hostfile (one host
 * per rank). `#` comments and blank lines are ignored. On hosts split into
 * sockets (HOSTS.md) a rankfile's `slot=S:C` puts the rank on socket S; the
 * other ranks of a host fill its sockets in rank order (socket 0 first).
 * Errors (MappingError, `path:line`): unknown host, a rank given twice or
 * out of range, fewer or more ranks than `nranks`, a host given more ranks
 * than its slots in the hostfile, a rankfile socket beyond the host's sockets.
 */
Mapping parse_mapping(const std::string &text, const std::string &path, const Topology &topo, int nranks);
Mapping read_mapping(const std::string &path, const Topology &topo, int nranks);

/** A uniformly random assignment of the ranks to the slots (each slot of
 *  the hostfile equally likely, std::mt19937_64 seeded with `seed`), as a
 *  batch scheduler that ignores locality would give. Deterministic. */
Mapping random_mapping(int nranks, const Topology &topo, uint64_t seed);

}  // namespace arcoll::placement

#endif
