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
 *  - the `top_n` latest-arriving ranks by mean arrival skew: for every
 *    collective instance (comm_id, seq) seen on at least two ranks, the skew
 *    of a rank is its t_entry minus the earliest t_entry of that instance
 *    (global clock, seconds) -- seed 001_6a837e3d9ad6c429.txt: a late rank
 *    delays every rank below it in the broadcast tree.
 * Every line ends with '\n'; no prefix is added (callers may add one).
 * top_n <= 0 prints only the totals.
 */
void print_summary(const Trace &t, std::ostream &os, int top_n);

}  // namespace arcoll::trace
#endif
