/**
 * @file summary.hpp
 * @brief Human-readable summary of an arcoll trace (printed by the profiler
 *        at MPI_Finalize and by the `arcoll` tool).
 */
#ifndef ARCOLL_SUMMARY_HPP
#define ARCOLL_SUMMARY_HPP

#include <ostream>

#include "trace_reader.hpp"

namespace arcoll::trace {

/**
 * Prints to `os`:
 *  - totals: ranks (and incomplete sections), collective calls, bytes in
 *    collectives, communication steps, point-to-point messages and bytes (CCS);
 *  - the `top_n` call sites (call-site name + operation) with the largest
 *    total waiting time, i.e. the sum over ranks and calls of t_exit - t_entry
 *    in seconds (for nonblocking starts only the start call is counted);
 *  - the clock synchronisation's cost (clock_sync_stats);
 *  - the first collective calls after MPI_Init, apart (cause_analysis.hpp);
 *  - the `top_n` (call site, rank) pairs by the waiting time the rank caused
 *    (cause_analysis.hpp: the other ranks' waiting attributed to the rank's
 *    own delay, i.e. its computation gap beyond the median), with the median
 *    own delay, the share of calls where it was the cause and the median
 *    inherited lateness -- seed 001_6a837e3d9ad6c429.txt: a late rank
 *    delays every rank below it in the broadcast tree, which then arrives
 *    late at the next call without being the cause;
 *  - the `top_n` (call site, rank) pairs by median own delay (a late rank
 *    nobody waits for, e.g. a leaf of a broadcast tree, shows only here).
 * Every line ends with '\n'; no prefix is added (callers may add one).
 * top_n <= 0 prints only the totals.
 */
void print_summary(const Trace &t, std::ostream &os, int top_n);

/** Cost and accuracy of the clock synchronisation over the ranks (seconds). */
struct ClockSyncStats {
  double cost_init_max = 0;  ///< max over ranks of the time spent synchronising at MPI_Init
  int cost_init_rank = -1;   ///< the rank with that maximum
  double cost_fini_max = 0;  ///< the same at MPI_Finalize
  int cost_fini_rank = -1;
  double error_max = 0;      ///< max over ranks of rtt / 2 (init and finalize): the offset error bound
};

/** ClockSyncStats of the ranks of `t` that have a clock record. */
ClockSyncStats clock_sync_stats(const Trace &t);

}  // namespace arcoll::trace
#endif
