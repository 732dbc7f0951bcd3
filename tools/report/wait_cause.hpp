/**
 * @file wait_cause.hpp
 * @brief Who makes the others wait, per rank, for `arcoll report`'s bar
 *        chart: the profiler's caused-lateness analysis
 *        (profiler/cause_analysis.hpp) summed over call sites.
 *
 * Per collective instance, a rank's own delay is how much longer than the
 * lower median member it computed since its previous MPI call; the waiting
 * of the other members while it was inside its own delay is attributed to
 * it (shared equally among the ranks inside their own delay at that moment).
 * Lateness a rank inherited (it left the previous collective late) is
 * charged, in caused_long_term_s, to the own delays of the earlier calls it
 * came from (analyse_causes' propagation); instances holding some rank's first collective after
 * MPI_Init are left out (counted in first_calls). Units: seconds.
 */
#ifndef ARCOLL_TOOLS_REPORT_WAIT_CAUSE_HPP
#define ARCOLL_TOOLS_REPORT_WAIT_CAUSE_HPP

#include <cstdint>
#include <vector>

#include "trace_reader.hpp"

namespace arcoll::report {

/** Result of caused_waits(); every vector has one entry per world rank. */
struct WaitCause {
  std::vector<double> caused_s;        ///< waiting of the other ranks attributed to this rank, seconds
  std::vector<double> caused_long_term_s;  ///< caused_s + later calls' waiting traced back to it, seconds
  std::vector<uint64_t> cause_calls;   ///< instances in which this rank caused the most waiting (> 0)
  uint64_t instances = 0;              ///< blocking instances with >= 2 ranks analysed (first calls excluded)
  uint64_t first_calls = 0;            ///< instances left out: some member's first collective
  double total_wait_s = 0;             ///< waiting of all members in the analysed instances, seconds
  double caused_wait_s = 0;            ///< of it, attributed to some rank's own delay, seconds
  double propagated_wait_s = 0;        ///< of it, traced back to earlier own delays through inherited lateness, seconds
};

/** Runs arcoll::trace::analyse_causes on `t` and sums its ranking per rank. */
WaitCause caused_waits(const arcoll::trace::Trace &t);

}  // namespace arcoll::report

#endif
