/**
 * @file export_otf2.hpp
 * @brief `arcoll export TRACE --otf2 DIR`: an arcoll trace as an OTF2 archive
 *        (Vampir, Scalasca, otf2-print), written with the OTF2 library.
 *
 * Input: a trace read by arcoll::trace::Trace::read (global, clock-corrected
 * times in seconds). Output: DIR/<name>.otf2 (anchor), DIR/<name>.def and
 * DIR/<name>/ (OTF2 3.x, serial POSIX substrate, no compression).
 *
 * Definitions: system tree "machine" -> one node per host name of the trace
 * -> location group "MPI Rank r" (one per world rank, id r) -> location
 * "rank r" (id r, CPU thread). MPI communicators: MPI_COMM_WORLD (id 0,
 * members 0..P-1) and every RT_COMM of the trace (members: its world ranks;
 * -1 entries dropped). Regions: one per MPI call name ("MPI_Bcast",
 * "MPI_Ibcast", "MPI_Bcast_c", ...), paradigm MPI, collective roles.
 *
 * Timestamps: ticks of 1 ns (timer resolution 1e9) since the earliest
 * exported event (global offset 0), rounded to the nearest tick; events of a
 * location are in non-decreasing time order (a time that would go backwards,
 * e.g. with an inconsistent clock model, is raised to the previous one and
 * counted in Otf2ExportStats::clamped).
 *
 * Events per collective call of a rank (RT_COLL):
 *  - Enter(t_entry) / Leave(t_exit) of its region, attribute "arcoll
 *    callsite" (string) on Enter;
 *  - blocking calls only: MpiCollectiveBegin(t_entry) and
 *    MpiCollectiveEnd(t_exit, OTF2_COLLECTIVE_OP_<op>, communicator, root,
 *    sizeSent, sizeReceived). Root: the recorded comm rank, or
 *    OTF2_COLLECTIVE_ROOT_NONE / _SELF (MPI_ROOT) / _THIS_GROUP
 *    (MPI_PROC_NULL). Sizes from the one byte count the trace records
 *    (profiler/RECORDER_SEMANTICS.md), 0 where the trace does not record it: see
 *    coll_sizes() in export_otf2.cpp and the table in profiler/OTF2_EXPORT.md.
 *  - Nonblocking starts (MPI_I<coll>) get Enter/Leave only: the trace has no
 *    completion time, so no collective begin/end is claimed.
 *
 * Point-to-point: the trace records no individual messages, only CCS entries
 * (step, src, dst, total bytes, message count) without times. Each entry
 * becomes one MpiSend on src and one MpiRecv on dst (communicator
 * MPI_COMM_WORLD, tag = step mod 2^32, length = the entry's total bytes,
 * attributes "arcoll step" and "arcoll messages"). Times are derived from
 * the communication steps: a step lies between the collective calls that
 * bound it on that rank; when several steps fall between two calls, the
 * interval is divided evenly among them; the send is placed at the start of
 * the step's interval on src, the receive at its end on dst (before MPI_Init
 * / after MPI_Finalize: the clock measurements bound the first and last
 * interval). These times are estimates, not measurements.
 *
 * Not exported: PAPI counters, per-message tags/sizes/times (aggregated in
 * the trace), nonblocking completion, the seq numbers.
 *
 * Errors: Otf2Error (a std::runtime_error) whose message names DIR and
 * carries OTF2's error name and message, when DIR cannot be created or
 * written, already holds an archive of that name, or any OTF2 call fails.
 */
#ifndef ARCOLL_TOOLS_EXPORT_OTF2_HPP
#define ARCOLL_TOOLS_EXPORT_OTF2_HPP

#include <cstdint>
#include <stdexcept>
#include <string>

#include "trace_reader.hpp"

namespace arcoll::tools {

struct Otf2Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Otf2ExportStats {
  std::string anchor;           ///< DIR/<name>.otf2
  uint64_t locations = 0;
  uint64_t events = 0;          ///< all events written
  uint64_t calls = 0;           ///< Enter (= Leave) events
  uint64_t collectives = 0;     ///< MpiCollectiveBegin (= End) events
  uint64_t messages = 0;        ///< MpiSend (= MpiRecv) events (CCS entries)
  uint64_t clamped = 0;         ///< timestamps raised to keep a location's order
  double span_s = 0;            ///< last - first event, seconds
};

/** Writes `trace` as the OTF2 archive DIR/<name>.otf2 (DIR is created when
 *  missing). Throws Otf2Error (see the file comment). */
Otf2ExportStats export_otf2(const trace::Trace &trace, const std::string &dir, const std::string &name = "traces");

/** True when this build has OTF2 (else export_otf2 throws Otf2Error). */
bool have_otf2();

}  // namespace arcoll::tools

#endif
