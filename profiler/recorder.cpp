// The arcoll profiler's recorder: state behind recorder_hooks.h.
// Semantics (steps, CCS, comm ids, bytes, clock, files): profiler/README.md.
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <sstream>
#include <string>
#include <sys/time.h>
#include <unordered_map>
#include <vector>

#include "callsite.hpp"
#include "clock_sync.hpp"
#include "papi_counters.hpp"
#include "recorder_hooks.h"
#include "summary.hpp"
#include "trace_reader.hpp"
#include "trace_writer.hpp"

namespace {

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
  int dst;  // -1: empty
  uint32_t count;
  uint64_t bytes;
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
  std::mutex mu;
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
};

State &S() {
  static State s;
  return s;
}

void say(const std::string &msg) { std::fprintf(stderr, "arcoll: %s\n", msg.c_str()); }

/** Parses a 0/1 environment variable; bad values produce a message (rank 0). */
bool env_flag(const char *name, bool dflt, bool verbose) {
  const char *v = std::getenv(name);
  if (!v) return dflt;
  if (!std::strcmp(v, "0")) return false;
  if (!std::strcmp(v, "1")) return true;
  if (verbose)
    say(std::string("bad value '") + v + "' of environment variable " + name + ": use 0 or 1; using the default " +
        (dflt ? "1" : "0"));
  return dflt;
}

void report_write_error() {
  State &s = S();
  if (s.write_error_reported) return;
  s.write_error_reported = true;
  say("rank " + std::to_string(s.world_rank) + ": cannot write the trace part file " + s.part_path + ": " +
      s.writer.error() + "; this rank's section will be incomplete (set ARCOLL_TRACE to a path with free space)");
}

void put(uint32_t type, const void *p, uint32_t len, const void *tail = nullptr, uint32_t tlen = 0) {
  State &s = S();
  if (!s.writer.record2(type, p, len, tail, tlen)) report_write_error();
}

void flush_ccs_locked() {
  State &s = S();
  for (int i = 0; i < s.nccs_used; i++) {
    CcsSlot &c = s.ccs[s.ccs_used[i]];
    if (s.paused) {  // MPI_Pcontrol(0): the step is numbered, not written
      c.dst = -1;
      continue;
    }
    arcoll_rec_ccs r{};
    r.step = s.step;
    r.src = s.world_rank;
    r.dst = c.dst;
    r.bytes = c.bytes;
    r.count = c.count;
    put(RT_CCS, &r, sizeof r);
    s.nccs++;
    c.dst = -1;
  }
  s.nccs_used = 0;
}

void sync_point_locked() {
  State &s = S();
  flush_ccs_locked();
  s.step++;
  // bound what a crash, MPI_Abort or SIGKILL loses (profiler/README.md "Aborted runs")
  if (s.flush_every >= 0) {
    const double now = PMPI_Wtime();
    if (now - s.last_flush >= s.flush_every) {
      s.writer.flush();
      s.last_flush = now;
    }
  }
}

/** Writes the buffered records of this rank to its part file now, if no other
 *  thread is inside the recorder (MPI_Abort, SIGTERM). */
bool emergency_flush(const char *why) {
  State &s = S();
  if (!s.enabled) return false;
  if (!s.mu.try_lock()) return false;
  flush_ccs_locked();
  const bool ok = s.writer.flush();
  s.mu.unlock();
  if (ok) {
    char line[512];
    std::snprintf(line, sizeof line,
                  "arcoll: %s: rank %d wrote its trace part %s; when the job has ended, "
                  "`arcoll recover %s` assembles the parts into a trace\n",
                  why, s.world_rank, s.part_path.c_str(), s.trace_path.c_str());
    ssize_t w = write(2, line, std::strlen(line));
    (void)w;
  }
  return ok;
}

void on_sigterm(int sig) {
  emergency_flush("SIGTERM");
  signal(sig, SIG_DFL);
  raise(sig);
}

/** Seconds from ARCOLL_FLUSH_SECONDS (>= 0; 0 = at every sync point), else 1. */
double env_flush_seconds(bool verbose) {
  const char *v = std::getenv("ARCOLL_FLUSH_SECONDS");
  if (!v) return 1.0;
  char *end = nullptr;
  const double x = std::strtod(v, &end);
  if (end != v && *end == '\0' && x >= 0 && x <= 1e9) return x;
  if (verbose)
    say(std::string("bad value '") + v + "' of environment variable ARCOLL_FLUSH_SECONDS: use seconds >= 0 "
        "(0: write the trace buffer at every synchronisation point); using the default 1");
  return 1.0;
}

int comm_delete_fn(MPI_Comm, int, void *attr, void *) {
  delete static_cast<CommInfo *>(attr);
  return MPI_SUCCESS;
}

/** World ranks of the members of `g` (in group order). */
std::vector<int> world_ranks_of(MPI_Group g) {
  int n = 0;
  PMPI_Group_size(g, &n);
  std::vector<int> in(n), out(n, MPI_UNDEFINED);
  for (int i = 0; i < n; i++) in[i] = i;
  MPI_Group wg;
  PMPI_Comm_group(MPI_COMM_WORLD, &wg);
  if (n) PMPI_Group_translate_ranks(g, n, in.data(), wg, out.data());
  PMPI_Group_free(&wg);
  for (int &w : out)
    if (w == MPI_UNDEFINED) w = -1;
  return out;
}

/** Cached info about `comm` (created on first use; local, not collective). */
CommInfo *comm_info(MPI_Comm comm) {
  State &s = S();
  if (comm == MPI_COMM_WORLD) return &s.world;
  void *v = nullptr;
  int flag = 0;
  if (PMPI_Comm_get_attr(comm, s.keyval, &v, &flag) == MPI_SUCCESS && flag) return static_cast<CommInfo *>(v);
  auto *ci = new CommInfo;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  ci->inter = inter != 0;
  PMPI_Comm_rank(comm, &ci->rank);
  PMPI_Comm_size(comm, &ci->local_size);
  MPI_Group g;
  if (ci->inter) {
    PMPI_Comm_remote_size(comm, &ci->peers);
    PMPI_Comm_remote_group(comm, &g);
  } else {
    ci->peers = ci->local_size;
    PMPI_Comm_group(comm, &g);
  }
  ci->peer_world = world_ranks_of(g);
  PMPI_Group_free(&g);
  PMPI_Comm_set_attr(comm, s.keyval, ci);
  return ci;
}

/** Assigns the communicator id (collective over `comm`, first collective only) and writes RT_COMM. */
void ensure_comm_id(CommInfo *ci, MPI_Comm comm) {
  if (ci->id_assigned) return;
  State &s = S();
  MPI_Comm c = comm;
  MPI_Comm merged = MPI_COMM_NULL;
  if (ci->inter) {
    if (PMPI_Intercomm_merge(comm, 0, &merged) != MPI_SUCCESS) return;
    c = merged;
  }
  int r = 0;
  PMPI_Comm_rank(c, &r);
  uint64_t id = 0;
  if (r == 0) {
    std::lock_guard<std::mutex> lk(s.mu);
    id = (uint64_t(uint32_t(s.world_rank)) << 32) | ++s.comm_counter;
  }
  PMPI_Bcast(&id, 1, MPI_UINT64_T, 0, c);
  MPI_Group g;
  PMPI_Comm_group(c, &g);
  std::vector<int> wr = world_ranks_of(g);
  PMPI_Group_free(&g);
  if (merged != MPI_COMM_NULL) PMPI_Comm_free(&merged);
  ci->id = id;
  ci->id_assigned = true;
  struct {
    uint64_t id;
    uint32_t size, pad;
  } h{id, uint32_t(wr.size()), 0};
  std::lock_guard<std::mutex> lk(s.mu);
  put(RT_COMM, &h, sizeof h, wr.data(), uint32_t(wr.size() * sizeof(int32_t)));
}

uint32_t callsite_id_locked(const void *ra) {
  State &s = S();
  std::string name;  // set only for a new site (callsite.hpp)
  uint32_t id = s.callsites.id(ra, name);
  if (!name.empty()) put(RT_CALLSITE, &id, sizeof id, name.data(), uint32_t(name.size()));
  return id;
}

std::string default_trace_name() {
  char b[64];
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  std::strftime(b, sizeof b, "arcoll-%Y%m%d-%H%M%S.arctrace", &tm);
  return b;
}

/** Broadcasts a string from rank 0 of `comm`. */
std::string bcast_string(const std::string &v, MPI_Comm comm) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  long long n = (long long)v.size();
  PMPI_Bcast(&n, 1, MPI_LONG_LONG, 0, comm);
  std::string out = rank == 0 ? v : std::string(size_t(n), '\0');
  if (n) PMPI_Bcast(&out[0], int(n), MPI_CHAR, 0, comm);
  return out;
}

bool open_part(State &s) {
  s.part_path = s.trace_path + ".part" + std::to_string(s.world_rank);
  if (s.writer.open(s.part_path, uint32_t(s.world_rank))) return true;
  std::string first_err = s.writer.error();
  const char *tmp = std::getenv("TMPDIR");
  std::string dir = tmp && *tmp ? tmp : "/tmp";
  std::string base = s.trace_path.substr(s.trace_path.find_last_of('/') + 1);
  std::string alt = dir + "/" + base + ".part" + std::to_string(s.world_rank) + "." + std::to_string(getpid());
  if (s.writer.open(alt, uint32_t(s.world_rank))) {
    s.part_path = alt;
    return true;
  }
  say("rank " + std::to_string(s.world_rank) + ": cannot create the trace part file " + s.part_path + " (" +
      first_err + ") nor " + alt + " (" + s.writer.error() +
      "); set ARCOLL_TRACE to a writable path or TMPDIR to a writable directory; profiling disabled");
  return false;
}

void disable_all(State &s) {
  s.enabled = false;
  if (s.final_file) {
    std::fclose(s.final_file);
    s.final_file = nullptr;
    std::remove(s.trace_path.c_str());
  }
  s.writer.close();
  if (!s.part_path.empty()) std::remove(s.part_path.c_str());
}

void write_rank_begin(State &s) {
  char host[MPI_MAX_PROCESSOR_NAME + 1] = {0};
  int hl = 0;
  if (PMPI_Get_processor_name(host, &hl) != MPI_SUCCESS) hl = 0;
  arcoll_rec_rank_begin rb{};
  rb.rank = s.world_rank;
  rb.pid = int32_t(getpid());
  rb.host_len = uint32_t(hl);
  put(RT_RANK_BEGIN, &rb, sizeof rb, host, uint32_t(hl));
}

void start_papi(State &s) {
  bool want = env_flag("ARCOLL_PAPI", true, s.world_rank == 0);
  std::string err;
  int ok = 0;
  if (want) {
    const char *ev = std::getenv("ARCOLL_PAPI_EVENTS");
    std::string events = ev ? ev : "PAPI_TOT_INS,PAPI_TOT_CYC";
#ifdef ARCOLL_HAVE_PAPI
    ok = s.papi.start(events, ARCOLL_MAX_COUNTERS, err) ? 1 : 0;
    if (!ok && ev) err += " (from ARCOLL_PAPI_EVENTS)";
#else
    ok = 0;
    err = "arcoll was built without PAPI";
    if (!ev && !std::getenv("ARCOLL_PAPI")) err.clear();  // nothing asked for: stay quiet
#endif
  }
  int all = 0;
  PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, s.priv);
  if (want && !all) {
    s.papi.stop();
    if (s.world_rank == 0 && !err.empty()) say("PAPI counters unavailable (" + err + "); recording without counters");
    else if (s.world_rank == 0 && ok) say("PAPI counters unavailable on some ranks; recording without counters");
  }
  s.ncounters = all ? s.papi.n() : 0;
  if (s.ncounters) {
    std::string names;
    for (auto &n : s.papi.names()) names.append(n).push_back('\0');
    uint32_t n = uint32_t(s.ncounters);
    put(RT_COUNTER_NAMES, &n, sizeof n, names.data(), uint32_t(names.size()));
    s.papi.read(s.last_ctr);
  }
}

/** Streams every rank's part file to rank 0, which writes the trace. */
void merge_parts(State &s) {
  std::vector<char> buf(kChunk);
  if (s.world_rank == 0) {
    std::FILE *out = s.final_file;
    bool ok = true;
    struct timeval tv;
    gettimeofday(&tv, nullptr);
    arcoll_trace_file_header h = arcoll::trace::make_file_header(
        uint32_t(s.world_size), double(tv.tv_sec) + 1e-6 * double(tv.tv_usec), s.ncounters ? 1u : 0u);
    ok = std::fwrite(&h, sizeof h, 1, out) == 1;
    uint64_t body = sizeof h;  // bytes of header and blocks: RT_TRACE_END's body_bytes
    // own section
    if (std::FILE *in = std::fopen(s.part_path.c_str(), "rb")) {
      uint64_t left = s.writer.committed();
      while (left > 0) {
        size_t k = std::fread(buf.data(), 1, left < kChunk ? size_t(left) : kChunk, in);
        if (k == 0) break;
        ok = ok && std::fwrite(buf.data(), 1, k, out) == k;
        body += k;
        left -= k;
      }
      std::fclose(in);
    }
    for (int r = 1; r < s.world_size; r++) {
      int go = 1;
      PMPI_Send(&go, 1, MPI_INT, r, kTagGo, s.priv);
      for (;;) {
        MPI_Status st;
        int n = 0;
        if (PMPI_Recv(buf.data(), int(kChunk), MPI_BYTE, r, kTagChunk, s.priv, &st) != MPI_SUCCESS) break;
        PMPI_Get_count(&st, MPI_BYTE, &n);
        if (n <= 0) break;
        ok = ok && std::fwrite(buf.data(), 1, size_t(n), out) == size_t(n);
        body += uint64_t(n);
      }
    }
    const std::string end = arcoll::trace::encode_trace_end(body, uint32_t(s.world_size));
    ok = ok && std::fwrite(end.data(), 1, end.size(), out) == end.size();
    if (std::fclose(out) != 0) ok = false;
    s.final_file = nullptr;
    if (!ok) say("error while writing the trace " + s.trace_path + ": " + std::strerror(errno));
  } else {
    int go = 0;
    PMPI_Recv(&go, 1, MPI_INT, 0, kTagGo, s.priv, MPI_STATUS_IGNORE);
    if (std::FILE *in = std::fopen(s.part_path.c_str(), "rb")) {
      uint64_t left = s.writer.committed();
      while (left > 0) {
        size_t k = std::fread(buf.data(), 1, left < kChunk ? size_t(left) : kChunk, in);
        if (k == 0) break;
        PMPI_Send(buf.data(), int(k), MPI_BYTE, 0, kTagChunk, s.priv);
        left -= k;
      }
      std::fclose(in);
    }
    PMPI_Send(buf.data(), 0, MPI_BYTE, 0, kTagChunk, s.priv);
  }
  std::remove(s.part_path.c_str());
}

void print_trace_summary(State &s) {
  try {
    auto t = arcoll::trace::Trace::read(s.trace_path);
    std::ostringstream os;
    arcoll::trace::print_summary(t, os, 5);
    std::istringstream in(os.str());
    std::string line, all;
    while (std::getline(in, line)) all += "arcoll: " + line + "\n";
    std::fputs(all.c_str(), stderr);
  } catch (const std::exception &e) {
    say(std::string("could not read back the trace: ") + e.what());
  }
}

}  // namespace

extern "C" {

int arcoll_enabled(void) { return S().enabled; }

void arcoll_init_hook(void) {
  State &s = S();
  if (s.initialized) return;
  s.initialized = true;
  PMPI_Comm_rank(MPI_COMM_WORLD, &s.world_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &s.world_size);
  if (PMPI_Comm_dup(MPI_COMM_WORLD, &s.priv) != MPI_SUCCESS) {
    s.priv = MPI_COMM_NULL;
    if (s.world_rank == 0) say("cannot duplicate MPI_COMM_WORLD; profiling disabled");
    return;
  }
  const bool r0 = s.world_rank == 0;
  s.summary = env_flag("ARCOLL_PROFILE_SUMMARY", true, r0);
  s.flush_every = env_flush_seconds(r0);

  std::string path;
  if (r0) {
    const char *e = std::getenv("ARCOLL_TRACE");
    if (e && !*e) say("environment variable ARCOLL_TRACE is empty; using the default trace name");
    path = e && *e ? e : default_trace_name();
  }
  s.trace_path = bcast_string(path, s.priv);

  int ok0 = 1;
  if (r0) {
    s.final_file = std::fopen(s.trace_path.c_str(), "wb");
    if (!s.final_file) {
      ok0 = 0;
      say("cannot write the trace file '" + s.trace_path + "': " + std::strerror(errno) +
          "; set ARCOLL_TRACE to a writable file path; profiling disabled, the program continues");
    }
  }
  PMPI_Bcast(&ok0, 1, MPI_INT, 0, s.priv);
  if (!ok0) {
    disable_all(s);
    return;
  }
  int okp = open_part(s) ? 1 : 0, all = 0;
  PMPI_Allreduce(&okp, &all, 1, MPI_INT, MPI_MIN, s.priv);
  if (!all) {
    if (r0 && okp) say("a rank could not create its trace part file; profiling disabled, the program continues");
    disable_all(s);
    return;
  }

  int keyval = MPI_KEYVAL_INVALID;
  PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete_fn, &keyval, nullptr);
  s.keyval = keyval;
  s.world = CommInfo{};
  s.world.id = 0;
  s.world.id_assigned = true;
  s.world.rank = s.world_rank;
  s.world.local_size = s.world.peers = s.world_size;
  for (auto &c : s.ccs) c.dst = -1;
  s.callsites.reserve(256);

  write_rank_begin(s);
  start_papi(s);
  {
    // RT_COMM of MPI_COMM_WORLD (identity), written by rank 0 only.
    if (r0) {
      std::vector<int32_t> wr(s.world_size);
      for (int i = 0; i < s.world_size; i++) wr[i] = i;
      struct {
        uint64_t id;
        uint32_t size, pad;
      } h{0, uint32_t(s.world_size), 0};
      put(RT_COMM, &h, sizeof h, wr.data(), uint32_t(wr.size() * 4));
    }
  }
  if (!arcoll::profiler::clock_sync(s.priv, kClockRounds, s.clock_init, s.clock_cost_init)) {
    if (r0) say("clock synchronisation failed; profiling disabled");
    disable_all(s);
    return;
  }
  {
    // a clock record now too, so a trace assembled from the parts of an
    // aborted run is clock-corrected (the one written at MPI_Finalize replaces it)
    arcoll_rec_clock c{};
    c.t_init = c.t_fini = s.clock_init.t_local;
    c.off_init = c.off_fini = s.clock_init.offset;
    c.rtt_init = c.rtt_fini = s.clock_init.rtt;
    c.cost_init = s.clock_cost_init;
    c.t_ready = PMPI_Wtime();
    put(RT_CLOCK, &c, sizeof c);
  }
  s.last_flush = PMPI_Wtime();
  struct sigaction old {};
  if (sigaction(SIGTERM, nullptr, &old) == 0 && old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO))
    signal(SIGTERM, on_sigterm);  // only where the program installed no handler of its own
  s.enabled = true;
  s.t_ready = PMPI_Wtime();
}

void arcoll_abort_hook(void) { emergency_flush("MPI_Abort"); }

void arcoll_finalize_hook(void) {
  State &s = S();
  if (!s.initialized) return;
  if (s.enabled) {
    {
      std::lock_guard<std::mutex> lk(s.mu);
      flush_ccs_locked();
      s.enabled = false;
    }
    ClockSample fini;
    double cost_fini = 0;
    if (!arcoll::profiler::clock_sync(s.priv, kClockRounds, fini, cost_fini)) fini = s.clock_init;
    arcoll_rec_clock c{};
    c.t_init = s.clock_init.t_local;
    c.off_init = s.clock_init.offset;
    c.rtt_init = s.clock_init.rtt;
    c.t_fini = fini.t_local >= c.t_init ? fini.t_local : c.t_init;
    c.off_fini = fini.offset;
    c.rtt_fini = fini.rtt;
    c.cost_init = s.clock_cost_init;
    c.cost_fini = cost_fini;
    c.t_ready = s.t_ready;
    put(RT_CLOCK, &c, sizeof c);
    uint64_t end[2] = {s.ncoll, s.nccs};
    put(RT_RANK_END, end, sizeof end);
    s.writer.close();
    s.papi.stop();
    merge_parts(s);
    if (s.world_rank == 0) {
      if (s.paused_colls)
        say(std::to_string(s.paused_colls) + " collective calls of rank 0 were not recorded "
            "(paused by MPI_Pcontrol(0))");
      if (s.summary) print_trace_summary(s);
      else say("trace written to " + s.trace_path);
    }
  }
  if (s.priv != MPI_COMM_NULL) PMPI_Comm_free(&s.priv);
  s.initialized = false;
}

void arcoll_coll_begin(arcoll_coll_ctx *ctx) {
  State &s = S();
  if (s.ncounters) {
    long long now[ARCOLL_MAX_COUNTERS];
    if (s.papi.read(now)) {
      for (int i = 0; i < s.ncounters; i++) {
        ctx->ctr[i] = now[i] - s.last_ctr[i];
        s.last_ctr[i] = now[i];
      }
    } else {
      for (int i = 0; i < s.ncounters; i++) ctx->ctr[i] = 0;
    }
  }
  ctx->t_entry = PMPI_Wtime();
}

void arcoll_coll_end(arcoll_coll_ctx *ctx, int rc, int op, unsigned flags, int root, MPI_Comm comm, int64_t bytes,
                     void *ra) {
  double t_exit = PMPI_Wtime();
  State &s = S();
  const bool blocking = (flags & ARCOLL_COLL_NONBLOCKING) == 0;
  if (rc != MPI_SUCCESS || !s.enabled) {
    if (blocking && s.enabled) {
      std::lock_guard<std::mutex> lk(s.mu);
      sync_point_locked();
    }
    return;
  }
  CommInfo *ci = comm_info(comm);
  ensure_comm_id(ci, comm);
  std::lock_guard<std::mutex> lk(s.mu);
  arcoll_rec_coll r{};
  r.comm_id = ci->id;
  r.seq = ci->seq++;
  if (s.paused) {  // numbered (calls stay matched across ranks), not written
    s.paused_colls++;
    if (blocking) sync_point_locked();
    return;
  }
  r.bytes = bytes < 0 ? 0 : uint64_t(bytes);
  r.step = s.step;
  r.t_entry = ctx->t_entry;
  r.t_exit = t_exit;
  r.callsite = callsite_id_locked(ra);
  r.op = uint16_t(op);
  r.flags = uint16_t(flags);
  if (root == ARCOLL_NO_ROOT) r.root = ARCOLL_ROOT_NONE;
  else if (ci->inter && root == MPI_ROOT) r.root = ARCOLL_ROOT_MPI_ROOT;
  else if (ci->inter && root == MPI_PROC_NULL) r.root = ARCOLL_ROOT_PROC_NULL;
  else r.root = root;
  put(RT_COLL, &r, sizeof r);
  if (s.ncounters) {
    uint64_t idx = s.ncoll;
    int64_t v[ARCOLL_MAX_COUNTERS];
    for (int i = 0; i < s.ncounters; i++) v[i] = ctx->ctr[i];
    put(RT_COUNTERS, &idx, sizeof idx, v, uint32_t(8 * s.ncounters));
  }
  s.ncoll++;
  if (blocking) sync_point_locked();
}

void arcoll_pcontrol(int level) {
  State &s = S();
  if (!s.enabled) return;
  std::lock_guard<std::mutex> lk(s.mu);
  if (level == 0 && !s.paused) flush_ccs_locked();  // what was sent before the pause is kept
  s.paused = level == 0;
}

void arcoll_p2p_send(int dest, MPI_Comm comm, int64_t bytes) {
  State &s = S();
  if (!s.enabled || s.paused || dest == MPI_PROC_NULL || dest < 0) return;
  CommInfo *ci = comm_info(comm);
  int w = dest;
  if (!ci->peer_world.empty()) {
    if (dest >= int(ci->peer_world.size())) return;
    w = ci->peer_world[dest];
  }
  if (w < 0) return;  // not in MPI_COMM_WORLD (dynamic processes)
  std::lock_guard<std::mutex> lk(s.mu);
  unsigned h = unsigned(w) * 2654435761u % kCcsSlots;
  for (int probe = 0; probe < kCcsSlots; probe++, h = (h + 1) % kCcsSlots) {
    CcsSlot &c = s.ccs[h];
    if (c.dst == w) {
      c.bytes += uint64_t(bytes > 0 ? bytes : 0);
      c.count++;
      return;
    }
    if (c.dst == -1) {
      if (s.nccs_used >= kCcsSlots * 3 / 4) break;  // table full enough: flush below
      c.dst = w;
      c.bytes = uint64_t(bytes > 0 ? bytes : 0);
      c.count = 1;
      s.ccs_used[s.nccs_used++] = int(h);
      return;
    }
  }
  // Too many destinations in one step: write the step's table out (the reader
  // merges entries of the same step, src and dst) and start again.
  flush_ccs_locked();
  h = unsigned(w) * 2654435761u % kCcsSlots;
  s.ccs[h] = CcsSlot{w, 1, uint64_t(bytes > 0 ? bytes : 0)};
  s.ccs_used[s.nccs_used++] = int(h);
}

void arcoll_sync_point(void) {
  State &s = S();
  if (!s.enabled) return;
  std::lock_guard<std::mutex> lk(s.mu);
  sync_point_locked();
}

int64_t arcoll_type_size(MPI_Datatype dt) {
  if (dt == MPI_DATATYPE_NULL) return 0;
  MPI_Count n = 0;
  if (PMPI_Type_size_x(dt, &n) != MPI_SUCCESS || n < 0) return 0;
  return int64_t(n);
}

int arcoll_comm_peers(MPI_Comm comm) { return comm_info(comm)->peers; }
int arcoll_comm_local_size(MPI_Comm comm) { return comm_info(comm)->local_size; }
int arcoll_comm_rank(MPI_Comm comm) { return comm_info(comm)->rank; }
int arcoll_is_root(int root, MPI_Comm comm) {
  CommInfo *ci = comm_info(comm);
  return ci->inter ? root == MPI_ROOT : root == ci->rank;
}
int arcoll_is_rootside(int root, MPI_Comm comm) {
  CommInfo *ci = comm_info(comm);
  return ci->inter && root == MPI_ROOT;
}
int arcoll_root_is_proc_null(int root, MPI_Comm comm) {
  CommInfo *ci = comm_info(comm);
  return ci->inter && root == MPI_PROC_NULL;
}

}  // extern "C"
