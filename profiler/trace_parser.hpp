// Internal to the trace reader: the parser of one trace file held in memory
// (format: trace_format.h; public API: trace_reader.hpp).  File level -
// header, record blocks, end record, final sort - in trace_reader.cpp; the
// records of a rank section in trace_records.cpp.  Every check throws
// TraceError naming the file, the byte offset and the fix.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "trace_format.h"
#include "trace_reader.hpp"

namespace arcoll::trace::detail {

/** Name of record type t ("RT_COLL" ...), "unknown record" otherwise. */
const char *record_name(uint32_t t);

/** The fix suggested for a damaged file: record it again. */
extern const char *const kHintRerecord;

class Parser {
 public:
  Parser(const std::string &path, std::vector<unsigned char> data) : path_(path), d_(std::move(data)) {}

  [[noreturn]] void fail(uint64_t off, const std::string &what, const char *hint = kHintRerecord) const {
    std::ostringstream os;
    os << "arcoll trace " << path_ << ": at byte offset " << off << ": " << what;
    if (hint && *hint) os << " (fix: " << hint << ")";
    throw TraceError(os.str());
  }
  [[noreturn]] void checksum_mismatch(uint64_t off, const std::string &part) const {
    throw TraceError("arcoll trace " + path_ + ": checksum mismatch in " + part + " at byte offset " +
                     std::to_string(off) + " of " + path_ +
                     " (the trace is corrupted; re-record it: run the program again with "
                     "LD_PRELOAD=libarcoll_profiler.so)");
  }

  template <class T>
  T get(uint64_t off) const {
    T v;
    std::memcpy(&v, d_.data() + off, sizeof v);
    return v;
  }

  /** Parse the whole file: header, blocks of every rank, end record. */
  Trace run();

 private:
  void header();
  void trace_end(uint64_t roff, uint32_t len);
  // Close the open rank section (complete: its RT_RANK_END was read):
  // clock-correct its collectives' times.
  void close_section(bool complete);
  // The records of one verified block [off, end) of rank brank.
  void records(uint64_t off, uint64_t end, int brank);
  void record(uint32_t type, uint64_t roff, uint64_t p, uint32_t len, int brank);
  Trace finish();

  // Smallest possible rank section: one block header and an RT_RANK_BEGIN.
  static constexpr uint64_t kMinSectionBytes =
      2 * sizeof(arcoll_record_header) + sizeof(arcoll_block_header) + sizeof(arcoll_rec_rank_begin);

  std::string path_;
  std::vector<unsigned char> d_;
  Trace t_;
  bool have_counters_ = false;
  std::map<uint64_t, std::vector<int>> comms_;
  std::vector<bool> seen_;
  int cur_ = -1;   // rank of the open section
  int last_ = -1;  // last section's rank (sections in world-rank order)
  std::vector<std::string> callsites_;  // per section
  std::size_t first_coll_ = 0;          // index in t_.colls of this section's first event
  uint64_t ncoll_ = 0, nccs_ = 0;
  int ccs_rank_ = -1;                   // CcsEntry::order: the section and step being counted, and the count
  uint64_t ccs_step_ = 0;
  uint32_t ccs_order_ = 0;
  std::vector<double> raw_entry_, raw_exit_;  // local times of this section
  bool clock_seen_ = false;
  ClockModel clock_;
  std::vector<std::string> counter_names_;
  bool names_seen_ = false;
};

}  // namespace arcoll::trace::detail
