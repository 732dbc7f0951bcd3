/**
 * @file trace_recover.hpp
 * @brief Assembles the per-rank part files of a run that did not reach
 *        MPI_Finalize (MPI_Abort, SIGTERM, a crash) into a readable trace.
 *
 * While recording, rank r appends checksummed RT_BLOCKs to TRACE.part<r>
 * (trace_writer.hpp): at least every ARCOLL_FLUSH_SECONDS at a
 * synchronisation point, when its 1 MiB buffer is full, and on MPI_Abort /
 * SIGTERM.  MPI_Finalize normally merges them into TRACE and removes them;
 * after an abort they stay.  recover_trace() keeps each part's leading run of
 * intact blocks (checksum verified, rank and block index in sequence), drops
 * a torn or damaged tail, and writes header + sections in rank order +
 * RT_TRACE_END (trace_format.h): ranks without RT_RANK_END are read back as
 * incomplete (RankInfo::complete == false).
 */
#ifndef ARCOLL_TRACE_RECOVER_HPP
#define ARCOLL_TRACE_RECOVER_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace arcoll::trace {

/** What recover_trace() kept, per rank (index = world rank). */
struct RecoverReport {
  int nranks = 0;
  std::vector<bool> found;            ///< a part file existed
  std::vector<uint64_t> kept_bytes;   ///< bytes of intact blocks written to the trace
  std::vector<uint64_t> dropped_bytes;///< bytes after the first damaged or torn block
  std::vector<std::string> why_dropped;  ///< the reason, when dropped_bytes > 0
};

/**
 * Writes `out` (default: `trace_path`) from `trace_path`.part0 ..
 * part<nranks-1>.  nranks <= 0: the highest part index found + 1 (ranks whose
 * part file is missing get no section).  Throws std::runtime_error naming the
 * file when no part exists, `out` exists and is not empty (never
 * overwritten; rank 0 leaves an empty placeholder at MPI_Init) or
 * cannot be written.  The part files are left in place.
 */
RecoverReport recover_trace(const std::string &trace_path, const std::string &out = "", int nranks = 0);

}  // namespace arcoll::trace
#endif
