/**
 * @file late_sets.hpp
 * @brief Late ranks of a profiled run, per rooted collective call site: what
 *        `arcoll tune` writes into a tuning file's "lateness" key
 *        (adapt/tuning.h) so that the adaptive run (libarcoll.so with
 *        ARCOLL_TUNING) has them on leaves from its first call.
 *
 * Seed 001_6a837e3d9ad6c429.txt, technique 1 (late ranks become leaves) and
 * to-do 1 (cheap information gathering: here it costs the adaptive run
 * nothing, the profile run measured it).  A rank's lateness in one call is
 * its own delay (cause_analysis.hpp: the time it computed beyond the lower
 * median of the members' gaps, seconds), not its arrival skew, which
 * includes lateness inherited from the previous call.
 */
#ifndef ARCOLL_LATE_SETS_HPP
#define ARCOLL_LATE_SETS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "trace_reader.hpp"

namespace arcoll::trace {

/** One late rank: its rank in the communicator and its median own delay (seconds). */
struct LateRank {
  int rank = -1;
  double own = 0;
};

/** The late ranks of one (collective, communicator, root, root's call site). */
struct LateSet {
  std::string collective;  ///< op_name: bcast, reduce, gather, gatherv, scatter, scatterv
  int P = 0;               ///< communicator size
  uint64_t comm_id = 0;    ///< the trace's communicator id (0: MPI_COMM_WORLD)
  int root = 0;            ///< rank of the communicator
  std::string callsite;    ///< the root's call-site name
  uint64_t calls = 0;      ///< instances measured (first calls after MPI_Init left out)
  double noise = 0;        ///< the (list + 1)-th largest median own delay, seconds (0 if fewer ranks)
  std::vector<LateRank> late;  ///< latest first (ties: smaller rank), at most `list`
};

/**
 * The late sets of every blocking rooted collective of `t` (bcast, reduce,
 * gather, gatherv, scatter, scatterv; intracommunicators seen on at least
 * two ranks): per (op, communicator, root, root's call site), each member's
 * median over the instances of its own delay; a member other than the root
 * is late when that median exceeds max(min_late_s, 2 x noise) (noise as
 * above: lateness spread over many ranks is not a few late ranks,
 * lateness.h).  Instances where some member makes its first collective call
 * are left out (the clock synchronisation at MPI_Init releases ranks
 * apart).  Sets without a late rank are not returned.  Order: by op, then
 * communicator id, root, call site.
 */
std::vector<LateSet> late_sets(const Trace &t, double min_late_s, int list = 32);

/**
 * The module base name and offset of a call-site name (callsite.hpp:
 * "module+0xOFFSET (...)" or "file:line (function) [module+0xOFFSET]").
 * Returns false when the name has neither form ("?+0x..." included: dladdr
 * had failed, the address is not the same in another run).
 */
bool callsite_module_offset(const std::string &name, std::string *module, uint64_t *offset);

}  // namespace arcoll::trace
#endif
