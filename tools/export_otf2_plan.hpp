/**
 * @file export_otf2_plan.hpp
 * @brief The events of `arcoll export --otf2` per location, in writing order,
 *        with times in global seconds (no OTF2 dependency).
 *
 * Rules (export_otf2.hpp has the whole contract): a collective call gives
 * Enter, [CollBegin, CollEnd if blocking], Leave at its t_entry / t_exit. A
 * CCS entry gives a Send on src at the start of the step's window on src and
 * a Recv on dst at the end of the step's window on dst. A rank's windows: the
 * interval between two consecutive calls (before the first: from MPI_Init's
 * clock measurement; after the last: to MPI_Finalize's) holds the steps
 * lo = previous call's step (+1 if it was blocking) .. hi = next call's step,
 * divided evenly among them; a step that spans a nonblocking start begins in
 * one interval and ends in a later one. Steps outside a rank's recorded steps
 * are placed at its end. Point-to-point events come after the call that opens
 * their interval and before the call that closes it; ties in time are ordered
 * by step, then sends before receives.
 */
#ifndef ARCOLL_TOOLS_EXPORT_OTF2_PLAN_HPP
#define ARCOLL_TOOLS_EXPORT_OTF2_PLAN_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "trace_reader.hpp"

namespace arcoll::tools::otf2_plan {

enum class Kind : uint8_t { Enter, CollBegin, CollEnd, Leave, Send, Recv };

/** One event of a location: `idx` indexes Trace::colls (calls) or Trace::ccs (Send, Recv). */
struct Ev {
  double t;  ///< global seconds
  Kind kind;
  size_t idx;
};

/** Events of every world rank (index = rank) in writing order. Times are not
 *  forced monotone here (the writer clamps). */
std::vector<std::vector<Ev>> plan(const trace::Trace &T);

}  // namespace arcoll::tools::otf2_plan

#endif
