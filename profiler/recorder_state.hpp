/**
 * @file recorder_state.hpp
 * @brief Internal to libarcoll_profiler.so: the recorder's per-process state
 * and the helpers its files share (recorder.cpp: the hooks of
 * recorder_hooks.h; recorder_state.cpp: buffer, CCS, flushing;
 * recorder_comm.cpp: communicator ids and call sites; recorder_files.cpp:
 * trace name, part files, merge at MPI_Finalize).  Hidden symbols
 * (CXX_VISIBILITY_PRESET hidden); semantics in profiler/RECORDER_SEMANTICS.md.
 */
#ifndef ARCOLL_PROFILER_RECORDER_STATE_HPP
#define ARCOLL_PROFILER_RECORDER_STATE_HPP

#include <mpi.h>

#include <atomic>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "callsite.hpp"
#include "clock_sync.hpp"
#include "papi_counters.hpp"
#include "recorder_hooks.h"
#include "trace_writer.hpp"

namespace arcoll::profiler::rec {

using arcoll::profiler::ClockSample;

constexpr std::size_t kChunk = std::size_t(1) << 20;  // buffer and transfer chunk, bytes
constexpr int kClockRounds = 10;
constexpr int kCcsSlots = 256;  // open-addressing table of one step's destinations
constexpr int kTagGo = 7310, kTagChunk = 7311;

/** What the recorder knows about one communicator (cached as an attribute). */
struct CommInfo {
  uint64_t id = 0;
  uint64_t seq = 0;          // collectives seen on this comm by this rank
  bool id_assigned = false;
  bool inter = false;
  int rank = 0;
  int local_size = 0;
  int peers = 0;             // local size (intra) or remote size (inter)
  std::vector<int> peer_world;  // peer comm rank -> world rank (empty = identity)
};

struct CcsSlot {
  int dst;  // world rank w >= 0: sends to w; -(w + 2): receives from w; -1: empty
  uint32_t count;
  uint64_t bytes;
  uint32_t blocking;  // sends by blocking calls (arcoll_rec_ccs::blocking)
};

struct State {
  bool initialized = false;
  bool enabled = false;
  double flush_every = 1.0;  // ARCOLL_FLUSH_SECONDS: write the buffer at a sync point this often
  double last_flush = 0.0;
  bool paused = false;       // MPI_Pcontrol(0) .. MPI_Pcontrol(nonzero)
  uint64_t paused_colls = 0; // collectives not recorded while paused
  int world_rank = 0, world_size = 1;
  MPI_Comm priv = MPI_COMM_NULL;
  int keyval = MPI_KEYVAL_INVALID;
  std::string trace_path, part_path;
  std::FILE *final_file = nullptr;  // rank 0
  bool summary = true;
  arcoll::trace::RecordWriter writer{kChunk};
  std::mutex mu;             // taken by RecLock only under MPI_THREAD_MULTIPLE
  bool threaded = true;      // MPI_THREAD_MULTIPLE (until MPI_Init says otherwise)
  volatile sig_atomic_t busy = 0;  // single-threaded: inside the recorder (for signal handlers)
  uint64_t step = 0;
  uint64_t ncoll = 0, nccs = 0;
  uint64_t comm_counter = 0;
  CommInfo world;
  arcoll::profiler::CallsiteTable callsites;
  CcsSlot ccs[kCcsSlots];
  int ccs_used[kCcsSlots];
  int nccs_used = 0;
  ClockSample clock_init;
  double clock_cost_init = 0;  // seconds in clock_sync at MPI_Init
  double t_ready = 0;          // local time when arcoll_init_hook returned
  arcoll::profiler::PapiCounters papi;
  int ncounters = 0;
  long long last_ctr[ARCOLL_MAX_COUNTERS] = {0};
  bool write_error_reported = false;
  // One-entry cache of comm_info() (MPI_Comm_get_attr costs tens of ns per
  // call): the last communicator looked up, valid while comm_gen is
  // unchanged (comm_delete_fn bumps it); off under MPI_THREAD_MULTIPLE.
  bool comm_cache_ok = false;
  MPI_Comm cached_comm = MPI_COMM_NULL;
  CommInfo *cached_ci = nullptr;
  uint64_t comm_gen = 0, cached_gen = 0;
};

/** The process's recorder state (one per rank; privatized under SMPI). A
 *  namespace-scope object rather than a function-local static: every hook
 *  reaches it without a call or an initialisation guard (the wrapper's cost
 *  per call, bench/README.md). No static initialiser of this library uses it. */
extern State g_state;
inline State &S() { return g_state; }

/** Exclusive access to the recorder's buffers: the mutex under
 *  MPI_THREAD_MULTIPLE; otherwise only the `busy` flag that emergency_flush
 *  (signal handlers, MPI_Abort) checks, so a single-threaded program pays no
 *  atomic operation per call. */
class RecLock {
 public:
  explicit RecLock(State &s) : s_(s), mt_(s.threaded) {
    if (mt_) s_.mu.lock();
    else s_.busy = 1;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  ~RecLock() {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (mt_) s_.mu.unlock();
    else s_.busy = 0;
  }
  RecLock(const RecLock &) = delete;
  RecLock &operator=(const RecLock &) = delete;

 private:
  State &s_;
  const bool mt_;
};
/** Prints "arcoll: msg" on stderr. */
void say(const std::string &msg);
/** Parses a 0/1 environment variable; bad values produce a message when `verbose`. */
bool env_flag(const char *name, bool dflt, bool verbose);
/** Appends one record (type, body, optional tail) to this rank's buffer. */
void put(uint32_t type, const void *p, uint32_t len, const void *tail = nullptr, uint32_t tlen = 0);
/** Says once (rank's stderr) that the trace could not be written. */
void report_write_error();
/** put() of one fixed-size record, inline on the hot path. */
template <class T>
inline void put_fixed(uint32_t type, const T &rec) {
  if (!S().writer.record_fixed(type, rec)) report_write_error();
}
/** Writes the current step's CCS records (caller holds S().mu). */
void flush_ccs_locked();
/** Writes the buffer to the part file now and notes the time (caller holds S().mu). */
void flush_buffer_locked(double now);
/** Ends a communication step: CCS written, step numbered, buffer written every
 *  ARCOLL_FLUSH_SECONDS; `now` = PMPI_Wtime() of the caller, seconds (caller
 *  holds S().mu).  Inline: a step that sent nothing with no flush due (almost
 *  every collective) costs an increment and two compares. */
inline void sync_point_locked(double now) {
  State &s = S();
  if (s.nccs_used) flush_ccs_locked();
  s.step++;
  // bound what a crash, MPI_Abort or SIGKILL loses (profiler/README.md "Aborted runs")
  if (s.flush_every >= 0 && now - s.last_flush >= s.flush_every) flush_buffer_locked(now);
}
/** Writes the buffered records of this rank to its part file now, if no other
 *  thread is inside the recorder (MPI_Abort, SIGTERM); true when written. */
bool emergency_flush(const char *why);
/** SIGTERM handler: emergency_flush, then the default action. */
void on_sigterm(int sig);
/** Seconds from ARCOLL_FLUSH_SECONDS (>= 0; 0 = at every sync point), else 1. */
double env_flush_seconds(bool verbose);

/** Attribute delete callback of the CommInfo keyval. */
int comm_delete_fn(MPI_Comm, int, void *attr, void *);
/** Cached info about `comm` (created on first use; local, not collective). */
CommInfo *comm_info_slow(MPI_Comm comm);
/** comm_info_slow() behind the one-entry cache (inline: MPI_COMM_WORLD and a
 *  repeated communicator cost a few compares). */
inline CommInfo *comm_info(MPI_Comm comm) {
  State &s = S();
  if (comm == MPI_COMM_WORLD) return &s.world;
  if (s.comm_cache_ok && comm == s.cached_comm && s.cached_gen == s.comm_gen) return s.cached_ci;
  return comm_info_slow(comm);
}
/** Assigns the communicator id (collective over `comm`, first collective only) and writes RT_COMM. */
void ensure_comm_id(CommInfo *ci, MPI_Comm comm);
/** Call-site id of return address `ra`, writing RT_CALLSITE for a new site (caller holds S().mu). */
uint32_t callsite_id_locked(const void *ra);

/** arcoll-YYYYmmdd-HHMMSS.arctrace in the working directory. */
std::string default_trace_name();
/** Broadcasts a string from rank 0 of `comm`. */
std::string bcast_string(const std::string &v, MPI_Comm comm);
/** Opens this rank's part file (trace path + ".part<rank>", else under TMPDIR); false with a message. */
bool open_part(State &s);
/** Stops recording and removes this rank's files. */
void disable_all(State &s);
/** Writes RT_RANK_BEGIN (rank, pid, host). */
void write_rank_begin(State &s);
/** Starts the PAPI counters of ARCOLL_PAPI_EVENTS on every rank or on none (collective over s.priv). */
void start_papi(State &s);
/** Streams every rank's part file to rank 0, which writes the trace (collective over s.priv). */
void merge_parts(State &s);
/** Reads the trace back and prints its summary on stderr (rank 0). */
void print_trace_summary(State &s);

}  // namespace arcoll::profiler::rec

#endif
