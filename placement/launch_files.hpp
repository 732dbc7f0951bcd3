/**
 * @file launch_files.hpp
 * @brief Writers of launcher input files for a rank -> host mapping.
 *
 * All writers take `map` (rank -> host index) and the hosts (names). The
 * slot of a rank (rankfile, Cray) is its index among the ranks of its host,
 * in rank order, starting at 0. On hosts split into sockets (HOSTS.md) the
 * entries of one host (Topology::hosts, one per socket) are written as that
 * host; the rankfile binds each rank to its socket (`slot=S:C`, C = its index
 * among the socket's ranks), the Cray file lists socket 0's ranks first.
 */
#ifndef ARCOLL_PLACEMENT_LAUNCH_FILES_HPP
#define ARCOLL_PLACEMENT_LAUNCH_FILES_HPP

#include <ostream>
#include <string>
#include <vector>

#include "cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

enum class LaunchFormat { Hydra, Rankfile, Slurm, Cray };

/** "hydra", "rankfile", "slurm", "cray" -> format; std::invalid_argument otherwise. */
LaunchFormat parse_launch_format(const std::string &name);

/**
 * MPICH Hydra machinefile (`mpiexec.hydra -f FILE -n N`): Hydra gives the
 * first `count` ranks to the first line's host, the next ones to the next
 * line, and so on, so consecutive ranks on the same host are run-length
 * encoded as `host:count`; a host whose ranks are not contiguous appears on
 * several lines. Example: map {0,0,1,0} -> "node01:2\nnode02:1\nnode01:1\n".
 */
void write_hydra(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts);

/** Open MPI rankfile (`mpirun --rankfile FILE`): `rank N=host slot=K` per rank;
 *  `rank N=host slot=S:C` (socket S, its core C, logical numbers) on hosts split
 *  into sockets. */
void write_rankfile(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts);

/**
 * The `mpiexec.hydra` option binding each rank to its socket's cores when a
 * Hydra machinefile is used: `-bind-to user:C0,C1,...`, C_i = the core of the
 * host's i-th rank (rank order = Hydra's local order), numbered socket by
 * socket (socket S's cores are S x cores-per-socket ...; cores per socket =
 * the hwloc XML's, else the slots per socket). Hydra applies one list to every
 * host, so it is returned only when every host's list is a prefix of the
 * longest one; "" otherwise (use the rankfile) and when no host has sockets.
 * With an hwloc XML (Host::core_cpus) C_i is the OS index list of the core's
 * PUs ("1+5"), so an interleaved OS numbering (socket 0 = even CPUs) and SMT
 * are bound right.
 */
std::string hydra_bind_option(const Mapping &map, const std::vector<Host> &hosts);

/** Slurm arbitrary distribution: one host name per rank, in rank order; use
 *  `SLURM_HOSTFILE=FILE srun --distribution=arbitrary -n N ./app`. */
void write_slurm(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts);

/**
 * Cray MPICH `MPICH_RANK_ORDER` file (used with `MPICH_RANK_REORDER_METHOD=3`,
 * the file must be named MPICH_RANK_ORDER in the working directory): the rank
 * list in node order — Cray MPICH places the listed ranks on the job's nodes
 * in order, filling each node with its processes-per-node before the next.
 * Written as a `#` comment header (host order and ranks per host) then one
 * comma-separated line per host with its ranks (the layout of the files
 * CrayPat's grid_order writes). The job's nodes must be the
 * hosts in hostfile order, and each must get exactly as many processes as
 * listed (with uneven counts use `srun --distribution=arbitrary` instead).
 */
void write_cray(std::ostream &os, const Mapping &map, const std::vector<Host> &hosts);

/** Dispatches on `fmt`. */
void write_launch_file(std::ostream &os, LaunchFormat fmt, const Mapping &map, const std::vector<Host> &hosts);

}  // namespace arcoll::placement

#endif
