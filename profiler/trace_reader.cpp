// The one parser of arcoll traces (format: trace_format.h, API: trace_reader.hpp).
#include "trace_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

namespace arcoll::trace {

namespace {

const char *const kOpNames[OP_COUNT_] = {
    "barrier",   "bcast",     "reduce",         "allreduce",            "gather", "gatherv",
    "scatter",   "scatterv",  "allgather",      "allgatherv",           "alltoall",
    "alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block", "scan",   "exscan"};

const char *record_name(uint32_t t) {
  switch (t) {
    case RT_RANK_BEGIN: return "RT_RANK_BEGIN";
    case RT_CALLSITE: return "RT_CALLSITE";
    case RT_COMM: return "RT_COMM";
    case RT_COLL: return "RT_COLL";
    case RT_CCS: return "RT_CCS";
    case RT_COUNTER_NAMES: return "RT_COUNTER_NAMES";
    case RT_COUNTERS: return "RT_COUNTERS";
    case RT_CLOCK: return "RT_CLOCK";
    case RT_RANK_END: return "RT_RANK_END";
    default: return "unknown record";
  }
}

constexpr const char *kHintRerecord =
    "the file is damaged or was not (completely) written by the arcoll profiler; "
    "re-run the program with LD_PRELOAD=libarcoll_profiler.so to record it again";

class Parser {
 public:
  Parser(const std::string &path, std::vector<unsigned char> data) : path_(path), d_(std::move(data)) {}

  [[noreturn]] void fail(uint64_t off, const std::string &what, const char *hint = kHintRerecord) const {
    std::ostringstream os;
    os << "arcoll trace " << path_ << ": at byte offset " << off << ": " << what;
    if (hint && *hint) os << " (fix: " << hint << ")";
    throw TraceError(os.str());
  }

  template <class T>
  T get(uint64_t off) const {
    T v;
    std::memcpy(&v, d_.data() + off, sizeof v);
    return v;
  }

  Trace run() {
    Trace t;
    t.path = path_;
    if (d_.size() < sizeof(arcoll_trace_file_header))
      fail(0, "file is " + std::to_string(d_.size()) + " bytes, shorter than the 32-byte header (truncated)");
    auto h = get<arcoll_trace_file_header>(0);
    if (std::memcmp(h.magic, ARCOLL_TRACE_MAGIC, 8) != 0)
      fail(0, "bad magic: expected \"ARCTRACE\"; this is not an arcoll trace",
           "pass the .arctrace file written by the arcoll profiler (ARCOLL_TRACE names it)");
    if (h.version != ARCOLL_TRACE_VERSION)
      fail(8, "trace format version " + std::to_string(h.version) + ", this reader understands version " +
                  std::to_string(ARCOLL_TRACE_VERSION),
           "read it with the arcoll release that wrote it, or record the trace again with this one");
    if (h.nranks == 0 || h.nranks > (1u << 24))
      fail(12, "implausible number of ranks " + std::to_string(h.nranks));
    t.version = h.version;
    t.nranks = static_cast<int>(h.nranks);
    t.created = h.created;
    t.ranks.resize(h.nranks);
    for (int r = 0; r < t.nranks; r++) t.ranks[r].rank = r;
    const bool have_counters = (h.flags & 1u) != 0;

    std::map<uint64_t, std::vector<int>> comms;
    std::vector<bool> seen(h.nranks, false);
    uint64_t off = sizeof(arcoll_trace_file_header);
    int cur = -1;             // rank of the open section
    int last = -1;            // last section's rank (sections in world-rank order)
    std::vector<std::string> callsites;  // per section
    std::size_t first_coll = 0;          // index in t.colls of this section's first event
    std::size_t first_ccs = 0;
    uint64_t ncoll = 0, nccs = 0;
    std::vector<double> raw_entry, raw_exit;  // local times of this section
    bool clock_seen = false;
    ClockModel clock;
    std::vector<std::string> counter_names;
    bool names_seen = false;

    auto close_section = [&](bool complete) {
      if (cur < 0) return;
      RankInfo &ri = t.ranks[cur];
      ri.complete = complete;
      ri.clock = clock_seen ? clock : ClockModel{};
      for (std::size_t i = first_coll; i < t.colls.size(); i++) {
        t.colls[i].t_entry = ri.clock.to_global(raw_entry[i - first_coll]);
        t.colls[i].t_exit = ri.clock.to_global(raw_exit[i - first_coll]);
      }
      cur = -1;
    };

    while (off < d_.size()) {
      const uint64_t roff = off;
      if (d_.size() - off < sizeof(arcoll_record_header))
        fail(roff, "truncated record header: " + std::to_string(d_.size() - off) + " bytes left, 8 needed");
      auto rh = get<arcoll_record_header>(off);
      off += sizeof rh;
      if (rh.length > d_.size() - off)
        fail(roff, std::string("truncated ") + record_name(rh.type) + ": payload of " +
                       std::to_string(rh.length) + " bytes but only " + std::to_string(d_.size() - off) +
                       " bytes left in the file");
      const uint64_t p = off;
      const uint32_t len = rh.length;
      off += len;
      auto need = [&](uint32_t n, bool exact) {
        if (exact ? len != n : len < n)
          fail(roff, std::string(record_name(rh.type)) + " has a payload of " + std::to_string(len) +
                         " bytes, expected " + (exact ? "" : "at least ") + std::to_string(n));
      };
      if (rh.type != RT_RANK_BEGIN && cur < 0) {
        if (rh.type < RT_RANK_BEGIN || rh.type > RT_RANK_END) continue;  // unknown, outside a section: skip
        fail(roff, std::string(record_name(rh.type)) + " outside a rank section (no RT_RANK_BEGIN before it)");
      }
      switch (rh.type) {
        case RT_RANK_BEGIN: {
          need(sizeof(arcoll_rec_rank_begin), false);
          auto rb = get<arcoll_rec_rank_begin>(p);
          if (rb.rank < 0 || rb.rank >= t.nranks)
            fail(roff, "rank " + std::to_string(rb.rank) + " out of range [0, " + std::to_string(t.nranks) + ")");
          if (seen[rb.rank]) fail(roff, "second section for rank " + std::to_string(rb.rank));
          if (rb.rank <= last)
            fail(roff, "section of rank " + std::to_string(rb.rank) + " after rank " + std::to_string(last) +
                           " (sections must be in world-rank order)");
          if (sizeof rb + uint64_t(rb.host_len) != len)
            fail(roff, "RT_RANK_BEGIN host name length " + std::to_string(rb.host_len) +
                           " does not match the record length " + std::to_string(len));
          close_section(false);  // previous section without RT_RANK_END: incomplete
          cur = last = rb.rank;
          seen[cur] = true;
          t.ranks[cur].pid = rb.pid;
          t.ranks[cur].host.assign(reinterpret_cast<const char *>(d_.data() + p + sizeof rb), rb.host_len);
          callsites.clear();
          first_coll = t.colls.size();
          first_ccs = t.ccs.size();
          ncoll = nccs = 0;
          raw_entry.clear();
          raw_exit.clear();
          clock_seen = false;
          clock = ClockModel{};
          break;
        }
        case RT_CALLSITE: {
          need(4, false);
          uint32_t id = get<uint32_t>(p);
          if (id != callsites.size())
            fail(roff, "call-site id " + std::to_string(id) + " out of sequence (expected " +
                           std::to_string(callsites.size()) + ")");
          callsites.emplace_back(reinterpret_cast<const char *>(d_.data() + p + 4), len - 4);
          break;
        }
        case RT_COMM: {
          need(16, false);
          uint64_t id = get<uint64_t>(p);
          uint32_t size = get<uint32_t>(p + 8);
          if (16 + uint64_t(size) * 4 != len)
            fail(roff, "RT_COMM of size " + std::to_string(size) + " needs " + std::to_string(16 + uint64_t(size) * 4) +
                           " payload bytes, has " + std::to_string(len));
          std::vector<int> wr(size);
          for (uint32_t i = 0; i < size; i++) {
            int32_t w = get<int32_t>(p + 16 + 4 * uint64_t(i));
            if (w < -1 || w >= t.nranks)
              fail(roff, "RT_COMM world rank " + std::to_string(w) + " out of range [-1, " +
                             std::to_string(t.nranks) + ")");
            wr[i] = w;
          }
          auto it = comms.find(id);
          if (it == comms.end())
            comms.emplace(id, std::move(wr));
          else if (it->second != wr)
            fail(roff, "communicator " + std::to_string(id) + " recorded with two different rank lists");
          break;
        }
        case RT_COLL: {
          need(sizeof(arcoll_rec_coll), false);
          auto c = get<arcoll_rec_coll>(p);
          if (c.op >= OP_COUNT_) fail(roff, "unknown collective operation " + std::to_string(c.op));
          if (c.callsite >= callsites.size())
            fail(roff, "call-site id " + std::to_string(c.callsite) + " not defined by an earlier RT_CALLSITE");
          if (!std::isfinite(c.t_entry) || !std::isfinite(c.t_exit))
            fail(roff, "non-finite time in RT_COLL");
          CollEvent e;
          e.rank = cur;
          e.comm_id = c.comm_id;
          e.seq = c.seq;
          e.bytes = c.bytes;
          e.step = c.step;
          e.t_entry = e.t_exit = 0;
          e.callsite = callsites[c.callsite];
          e.op = c.op;
          e.flags = c.flags;
          e.root = c.root;
          raw_entry.push_back(c.t_entry);
          raw_exit.push_back(c.t_exit);
          t.colls.push_back(std::move(e));
          ncoll++;
          break;
        }
        case RT_CCS: {
          need(sizeof(arcoll_rec_ccs), false);
          auto c = get<arcoll_rec_ccs>(p);
          if (c.src != cur)
            fail(roff, "RT_CCS source rank " + std::to_string(c.src) + " in the section of rank " + std::to_string(cur));
          if (c.dst < 0 || c.dst >= t.nranks)
            fail(roff, "RT_CCS destination rank " + std::to_string(c.dst) + " out of range [0, " +
                           std::to_string(t.nranks) + ")");
          t.ccs.push_back(CcsEntry{c.step, c.src, c.dst, c.bytes, c.count});
          nccs++;
          break;
        }
        case RT_COUNTER_NAMES: {
          need(4, false);
          uint32_t n = get<uint32_t>(p);
          std::vector<std::string> names;
          uint64_t q = p + 4;
          for (uint32_t i = 0; i < n; i++) {
            const void *z = std::memchr(d_.data() + q, 0, p + len - q);
            if (!z) fail(roff, "RT_COUNTER_NAMES: name " + std::to_string(i) + " is not NUL-terminated");
            const char *s = reinterpret_cast<const char *>(d_.data() + q);
            names.emplace_back(s);
            q += names.back().size() + 1;
          }
          if (names_seen && names != counter_names)
            fail(roff, "RT_COUNTER_NAMES differ between ranks");
          counter_names = std::move(names);
          names_seen = true;
          break;
        }
        case RT_COUNTERS: {
          if (!names_seen) fail(roff, "RT_COUNTERS before RT_COUNTER_NAMES");
          need(8 + 8 * uint32_t(counter_names.size()), true);
          uint64_t idx = get<uint64_t>(p);
          if (idx >= ncoll)
            fail(roff, "RT_COUNTERS for collective #" + std::to_string(idx) + " but this section has " +
                           std::to_string(ncoll) + " RT_COLL records so far");
          auto &v = t.colls[first_coll + idx].counters;
          v.resize(counter_names.size());
          for (std::size_t i = 0; i < v.size(); i++) v[i] = get<int64_t>(p + 8 + 8 * i);
          break;
        }
        case RT_CLOCK: {
          need(sizeof(arcoll_rec_clock), false);
          auto c = get<arcoll_rec_clock>(p);
          for (double x : {c.t_init, c.off_init, c.t_fini, c.off_fini, c.rtt_init, c.rtt_fini})
            if (!std::isfinite(x)) fail(roff, "non-finite value in RT_CLOCK");
          if (c.t_fini < c.t_init) fail(roff, "RT_CLOCK: t_fini before t_init");
          clock = ClockModel{c.t_init, c.off_init, c.t_fini, c.off_fini, c.rtt_init, c.rtt_fini};
          clock_seen = true;
          break;
        }
        case RT_RANK_END: {
          need(16, false);
          uint64_t nc = get<uint64_t>(p), ns = get<uint64_t>(p + 8);
          if (nc != ncoll || ns != nccs)
            fail(roff, "RT_RANK_END of rank " + std::to_string(cur) + " announces " + std::to_string(nc) +
                           " RT_COLL and " + std::to_string(ns) + " RT_CCS records, the section has " +
                           std::to_string(ncoll) + " and " + std::to_string(nccs));
          close_section(true);
          break;
        }
        default:
          break;  // unknown type: skipped (forward compatible)
      }
    }
    close_section(false);
    (void)first_ccs;
    if (have_counters && !names_seen && !t.colls.empty())
      fail(d_.size(), "header says PAPI counters are present but no RT_COUNTER_NAMES record was found");
    t.counter_names = std::move(counter_names);

    for (auto &kv : comms) t.comms.push_back(Communicator{kv.first, kv.second});
    std::stable_sort(t.colls.begin(), t.colls.end(), [](const CollEvent &a, const CollEvent &b) {
      return a.rank != b.rank ? a.rank < b.rank : a.t_entry < b.t_entry;
    });
    // CCS: sort and merge entries of the same (step, src, dst) (a rank may
    // flush one step in several pieces).
    std::sort(t.ccs.begin(), t.ccs.end(), [](const CcsEntry &a, const CcsEntry &b) {
      if (a.step != b.step) return a.step < b.step;
      if (a.src != b.src) return a.src < b.src;
      return a.dst < b.dst;
    });
    std::vector<CcsEntry> merged;
    for (auto &c : t.ccs) {
      if (!merged.empty() && merged.back().step == c.step && merged.back().src == c.src && merged.back().dst == c.dst) {
        merged.back().bytes += c.bytes;
        merged.back().count += c.count;
      } else {
        merged.push_back(c);
      }
    }
    t.ccs = std::move(merged);
    return t;
  }

 private:
  std::string path_;
  std::vector<unsigned char> d_;
};

}  // namespace

const char *op_name(int op) { return op >= 0 && op < OP_COUNT_ ? kOpNames[op] : "unknown"; }

double ClockModel::to_global(double local) const {
  if (t_fini > t_init)
    return local + off_init + (off_fini - off_init) * (local - t_init) / (t_fini - t_init);
  return local + off_init;
}

Trace Trace::read(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    int e = errno;
    throw TraceError("arcoll trace " + path + ": cannot open: " + std::strerror(e) +
                     " (fix: check the path; the profiler prints the trace path at MPI_Finalize)");
  }
  std::vector<unsigned char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw TraceError("arcoll trace " + path + ": read error");
  return Parser(path, std::move(data)).run();
}

}  // namespace arcoll::trace
