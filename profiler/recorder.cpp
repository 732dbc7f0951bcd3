// The arcoll profiler's recorder: the hooks of recorder_hooks.h (state and
// helpers: recorder_state.hpp).
// Semantics (steps, CCS, comm ids, bytes, clock, files): profiler/RECORDER_SEMANTICS.md.
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "recorder_hooks.h"
#include "recorder_state.hpp"

using namespace arcoll::profiler::rec;

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
  int provided = MPI_THREAD_SINGLE;
  PMPI_Query_thread(&provided);
  s.comm_cache_ok = provided < MPI_THREAD_MULTIPLE;  // comm_info's cache is not locked
  s.threaded = provided == MPI_THREAD_MULTIPLE;      // RecLock: the mutex only then
  s.enabled = true;
  s.t_ready = PMPI_Wtime();
}

void arcoll_abort_hook(void) { emergency_flush("MPI_Abort"); }

void arcoll_finalize_hook(void) {
  State &s = S();
  if (!s.initialized) return;
  if (s.enabled) {
    {
      RecLock lk(s);
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
      RecLock lk(s);
      sync_point_locked(t_exit);
    }
    return;
  }
  CommInfo *ci = comm_info(comm);
  ensure_comm_id(ci, comm);
  RecLock lk(s);
  arcoll_rec_coll r{};
  r.comm_id = ci->id;
  r.seq = ci->seq++;
  if (s.paused) {  // numbered (calls stay matched across ranks), not written
    s.paused_colls++;
    if (blocking) sync_point_locked(t_exit);
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
  put_fixed(RT_COLL, r);
  if (s.ncounters) {
    uint64_t idx = s.ncoll;
    int64_t v[ARCOLL_MAX_COUNTERS];
    for (int i = 0; i < s.ncounters; i++) v[i] = ctx->ctr[i];
    put(RT_COUNTERS, &idx, sizeof idx, v, uint32_t(8 * s.ncounters));
  }
  s.ncoll++;
  if (blocking) sync_point_locked(t_exit);
}

void arcoll_pcontrol(int level) {
  State &s = S();
  if (!s.enabled) return;
  RecLock lk(s);
  if (level == 0 && !s.paused) flush_ccs_locked();  // what was sent before the pause is kept
  s.paused = level == 0;
}

namespace {

// Adds `bytes` to the step's table entry for `key` (a world rank w for a send
// to w, -(w + 2) for a receive from w: CcsSlot).
void note_p2p(int peer, MPI_Comm comm, int64_t bytes, bool recv, bool blocking = false) {
  State &s = S();
  if (!s.enabled || s.paused || peer == MPI_PROC_NULL || peer < 0) return;
  CommInfo *ci = comm_info(comm);
  int w = peer;
  if (peer >= ci->peers) return;  // not a rank of comm (a status MPI left unset)
  if (!ci->peer_world.empty()) {
    if (peer >= int(ci->peer_world.size())) return;
    w = ci->peer_world[peer];
  }
  if (w < 0) return;  // not in MPI_COMM_WORLD (dynamic processes)
  const int key = recv ? -(w + 2) : w;
  const uint64_t b = uint64_t(bytes > 0 ? bytes : 0);
  RecLock lk(s);
  unsigned h = unsigned(key) * 2654435761u % kCcsSlots;
  for (int probe = 0; probe < kCcsSlots; probe++, h = (h + 1) % kCcsSlots) {
    CcsSlot &c = s.ccs[h];
    if (c.dst == key) {
      c.bytes += b;
      c.count++;
      c.blocking += blocking;
      return;
    }
    if (c.dst == -1) {
      if (s.nccs_used >= kCcsSlots * 3 / 4) break;  // table full enough: flush below
      c.dst = key;
      c.bytes = b;
      c.count = 1;
      c.blocking = blocking;
      s.ccs_used[s.nccs_used++] = int(h);
      return;
    }
  }
  // Too many peers in one step: write the step's table out (the reader
  // merges entries of the same step, src and dst) and start again.
  flush_ccs_locked();
  h = unsigned(key) * 2654435761u % kCcsSlots;
  s.ccs[h] = CcsSlot{key, 1, b, blocking};
  s.ccs_used[s.nccs_used++] = int(h);
}

}  // namespace

void arcoll_p2p_send(int dest, MPI_Comm comm, int64_t bytes) { note_p2p(dest, comm, bytes, false); }
void arcoll_p2p_send_blocking(int dest, MPI_Comm comm, int64_t bytes) { note_p2p(dest, comm, bytes, false, true); }

void arcoll_p2p_recv(int source, MPI_Comm comm, int64_t bytes) { note_p2p(source, comm, bytes, true); }

void arcoll_p2p_recv_status(int source, const MPI_Status *st, MPI_Comm comm, int64_t max_bytes, int alone) {
  if (source == MPI_ANY_SOURCE) source = st->MPI_SOURCE;
  if (source < 0) return;  // MPI_PROC_NULL
#if MPI_VERSION >= 4
  MPI_Count n = 0;
  if (PMPI_Get_count_c(st, MPI_BYTE, &n) != MPI_SUCCESS) n = -1;
#else  // SMPI: no _c functions
  int n = 0;
  if (PMPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS) n = -1;
#endif
  note_p2p(source, comm, n >= 0 && int64_t(n) <= max_bytes ? int64_t(n) : max_bytes, true, alone != 0);
}

void arcoll_sync_point(void) {
  State &s = S();
  if (!s.enabled) return;
  const double now = PMPI_Wtime();
  RecLock lk(s);
  sync_point_locked(now);
}

int64_t arcoll_type_size(MPI_Datatype dt) {
  if (dt == MPI_DATATYPE_NULL) return 0;
  // Predefined (named) types are never freed, so their sizes can be kept:
  // a direct-mapped table by handle saves PMPI_Type_size_x (tens of ns) on
  // almost every call. Derived types are asked every time (a freed handle
  // may come back as another type).
  struct Slot {
    MPI_Datatype dt;
    int64_t size;
    bool used;
  };
  static Slot cache[16];  // used only without MPI_THREAD_MULTIPLE (no lock here)
  Slot *c = nullptr;
  if (!S().threaded) {
    const std::size_t key = std::hash<MPI_Datatype>{}(dt);
    c = &cache[(key ^ (key >> 8) ^ (key >> 16)) & 15];
    if (c->used && c->dt == dt) return c->size;
  }
  MPI_Count n = 0;
  if (PMPI_Type_size_x(dt, &n) != MPI_SUCCESS || n < 0) return 0;
  int ni = 0, na = 0, nd = 0, combiner = MPI_UNDEFINED;
  if (c && PMPI_Type_get_envelope(dt, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
      combiner == MPI_COMBINER_NAMED)
    *c = Slot{dt, int64_t(n), true};
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
