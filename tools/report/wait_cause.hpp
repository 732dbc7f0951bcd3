/**
 * @file wait_cause.hpp
 * @brief Who makes the others wait: per rank, the waiting time the other
 *        ranks spent in collectives because this rank arrived last.
 *
 * A deliberately simple stand-in (`arcoll report`, issue 17 item 5) for the
 * caused-lateness analysis that is being added to profiler/; report_data.cpp
 * calls only caused_waits(), so swapping in the profiler's API later touches
 * this file alone.
 *
 * Definition. A collective instance is the set of calls with the same
 * (comm_id, seq) on different ranks. For every instance seen on at least two
 * ranks, let L be the rank that entered last (largest t_entry on the global
 * clock; ties: the lowest rank). Then
 *
 *     caused_s[L]   += sum over the other ranks r of the instance (t_entry[L] - t_entry[r])
 *     times_last[L] += 1
 *
 * i.e. the arrival wait the instance imposed on the early ranks is charged
 * entirely to the last one (a rank that is late only relative to some
 * earlier ranks but not last gets nothing: a first-order attribution).
 */
#ifndef ARCOLL_TOOLS_REPORT_WAIT_CAUSE_HPP
#define ARCOLL_TOOLS_REPORT_WAIT_CAUSE_HPP

#include <cstdint>
#include <vector>

#include "trace_reader.hpp"

namespace arcoll::report {

/** Result of caused_waits(); every vector has one entry per world rank. */
struct WaitCause {
  std::vector<double> caused_s;       ///< seconds the other ranks waited for this rank
  std::vector<uint64_t> times_last;   ///< instances this rank entered last
  uint64_t instances = 0;             ///< instances with at least two ranks (those counted)
};

/** Computes the attribution above over all collectives of `t`. */
WaitCause caused_waits(const arcoll::trace::Trace &t);

}  // namespace arcoll::report

#endif
