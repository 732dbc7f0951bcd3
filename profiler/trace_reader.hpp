/**
 * @file trace_reader.hpp
 * @brief The one reader of arcoll traces (format: trace_format.h), used by
 *        the profiler's summary, `arcoll` and the placement tool.
 *
 * All times returned are on the *global* timeline (rank 0's clock), in
 * seconds, after the per-rank clock model of RT_CLOCK has been applied.
 */
#ifndef ARCOLL_TRACE_READER_HPP
#define ARCOLL_TRACE_READER_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "trace_format.h"

namespace arcoll::trace {

/** Any malformed, truncated or unreadable trace. what() names the file, the
 *  byte offset and what was expected, and says how to fix it where possible. */
class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/** Name of an arcoll_coll_op ("bcast", "allreduce", ...). */
const char *op_name(int op);

struct ClockModel {
  double t_init = 0, off_init = 0, t_fini = 0, off_fini = 0, rtt_init = 0, rtt_fini = 0;
  double cost_init = 0;  ///< seconds this rank spent synchronising clocks at MPI_Init
  double cost_fini = 0;  ///< the same at MPI_Finalize
  double t_ready = 0;    ///< local time at which the rank left MPI_Init's profiler hook
  /** Local time (seconds) -> global time (seconds). */
  double to_global(double local) const;
};

struct RankInfo {
  int rank = -1;
  int pid = 0;
  std::string host;
  ClockModel clock;
  bool complete = false;      ///< the section ended with RT_RANK_END
  double ready = 0;           ///< global time at which the rank left MPI_Init (0 without RT_CLOCK)
};

struct CollEvent {
  int rank;                   ///< world rank
  uint64_t comm_id;
  uint64_t seq;
  uint64_t bytes;
  uint64_t step;
  double t_entry;             ///< global seconds
  double t_exit;              ///< global seconds
  std::string callsite;       ///< call-site name ("file:line (function) [module+0xoffset]" or "module+0xoffset ...")
  int op;                     ///< arcoll_coll_op
  unsigned flags;             ///< ARCOLL_COLL_*
  int root;                   ///< comm rank, -1 if none
  std::vector<int64_t> counters;  ///< PAPI deltas (empty when none were recorded)
};

struct CcsEntry {
  uint64_t step;
  int src, dst;               ///< world ranks
  uint64_t bytes;
  uint32_t count;
  /// How many of the `count` a blocking call sent (sends) or an MPI_Recv received (receives: posted after
  /// the step's earlier calls returned); arcoll_rec_ccs::blocking
  uint32_t blocking = 0;
  /// Sends: the entry's place among its sender's entries of the step as the profiler wrote them (in the
  /// order of each destination's first message in the step: profiler/recorder_state.cpp), 0-based; 0 in
  /// receives. The entries themselves are sorted by (step, src, dst).
  uint32_t order = 0;
};

struct Communicator {
  uint64_t id;
  std::vector<int> world_ranks;  ///< comm rank -> world rank
};

/** A whole trace in memory. */
struct Trace {
  std::string path;
  uint32_t version = 0;
  int nranks = 0;
  double created = 0;
  std::vector<RankInfo> ranks;          ///< index = world rank
  std::vector<std::string> counter_names;
  std::vector<Communicator> comms;      ///< distinct communicators seen
  std::vector<CollEvent> colls;         ///< sorted by (rank, t_entry)
  std::vector<CcsEntry> ccs;            ///< sends, sorted by (step, src, dst); step = the sender's
  std::vector<CcsEntry> recvs;          ///< receives (RT_RECV), sorted by (step, src, dst); step = the
                                        ///< receiver's; empty in traces written before RT_RECV existed

  /** Reads and validates a trace. Throws TraceError on any defect. */
  static Trace read(const std::string &path);
};

}  // namespace arcoll::trace

#endif
