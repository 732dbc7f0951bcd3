// The recorder's state, record buffer, CCS and flushing; see recorder_state.hpp.
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "recorder_state.hpp"

namespace arcoll::profiler::rec {

State g_state;

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

void put(uint32_t type, const void *p, uint32_t len, const void *tail, uint32_t tlen) {
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
    r.bytes = c.bytes;
    r.count = c.count;
    r.blocking = c.blocking;
    if (c.dst >= 0) {
      r.src = s.world_rank;
      r.dst = c.dst;
      put(RT_CCS, &r, sizeof r);
      s.nccs++;
    } else {  // a receive from -(dst + 2)
      r.src = -(c.dst + 2);
      r.dst = s.world_rank;
      put(RT_RECV, &r, sizeof r);
    }
    c.dst = -1;
  }
  s.nccs_used = 0;
}

void flush_buffer_locked(double now) {
  S().writer.flush();
  S().last_flush = now;
}

/** Writes the buffered records of this rank to its part file now, if no other
 *  thread is inside the recorder (MPI_Abort, SIGTERM). */
bool emergency_flush(const char *why) {
  State &s = S();
  if (!s.enabled) return false;
  if (s.threaded ? !s.mu.try_lock() : s.busy != 0) return false;  // inside the recorder
  flush_ccs_locked();
  const bool ok = s.writer.flush();
  if (s.threaded) s.mu.unlock();
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

}  // namespace arcoll::profiler::rec
