// Trace name, part files, PAPI start and the merge at MPI_Finalize; see recorder_state.hpp.
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sstream>

#include "summary.hpp"
#include "trace_reader.hpp"

#include "recorder_state.hpp"

namespace arcoll::profiler::rec {

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
    // Sections are written in rank order, but rank 0 lets the next kMergeWindow
    // ranks start sending while it receives one: a go message per rank in
    // turn cost three latencies per rank (+5.9 ms in the whole run at 256
    // ranks, tools/profiler-overhead.sh). At most kMergeWindow senders are
    // ahead, so rank 0 holds at most that many unexpected first chunks.
    constexpr int kMergeWindow = 16;
    int go = 1;
    for (int r = 1; r < s.world_size && r <= kMergeWindow; r++) PMPI_Send(&go, 1, MPI_INT, r, kTagGo, s.priv);
    for (int r = 1; r < s.world_size; r++) {
      if (r + kMergeWindow < s.world_size) PMPI_Send(&go, 1, MPI_INT, r + kMergeWindow, kTagGo, s.priv);
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

}  // namespace arcoll::profiler::rec
