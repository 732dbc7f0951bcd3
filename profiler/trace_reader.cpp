// The one parser of arcoll traces (format: trace_format.h, API: trace_reader.hpp).
#include "trace_reader.hpp"

#include <cstddef>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>

#include "trace_writer.hpp"  // checksum64

namespace arcoll::trace {

namespace {

const char *const kOpNames[OP_COUNT_] = {
    "barrier",   "bcast",     "reduce",         "allreduce",            "gather", "gatherv",
    "scatter",   "scatterv",  "allgather",      "allgatherv",           "alltoall",
    "alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block", "scan",   "exscan",
    "neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall", "neighbor_alltoallv",
    "neighbor_alltoallw"};

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
    case RT_BLOCK: return "RT_BLOCK";
    case RT_TRACE_END: return "RT_TRACE_END";
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

  Trace run() {
    t_.path = path_;
    header();
    // Top level: RT_BLOCKs, then RT_TRACE_END.
    uint64_t off = sizeof(arcoll_trace_file_header);
    int64_t block_rank = -1;
    uint32_t block_index = 0;
    uint64_t nblocks = 0;
    for (;;) {
      const uint64_t roff = off;
      if (off == d_.size())
        fail(off, "the file ends without the end-of-trace record (RT_TRACE_END) after " + std::to_string(nblocks) +
                      " record blocks: the trace is truncated");
      if (d_.size() - off < sizeof(arcoll_record_header))
        fail(roff, "truncated record header: " + std::to_string(d_.size() - off) + " bytes left, 8 needed");
      auto rh = get<arcoll_record_header>(off);
      off += sizeof rh;
      if (rh.type == RT_TRACE_END) {
        trace_end(roff, rh.length);
        break;
      }
      if (rh.type != RT_BLOCK)
        fail(roff, "record type " + std::to_string(rh.type) + " (" + record_name(rh.type) +
                       ") where a record block (RT_BLOCK) or the end of the trace (RT_TRACE_END) must start");
      if (rh.length > d_.size() - off)
        fail(roff, "truncated record block: its length field says " + std::to_string(rh.length) +
                       " bytes but only " + std::to_string(d_.size() - off) + " bytes are left in the file");
      if (rh.length < sizeof(arcoll_block_header))
        fail(roff, "record block length field " + std::to_string(rh.length) + " is shorter than the " +
                       std::to_string(sizeof(arcoll_block_header)) + "-byte block header");
      auto bh = get<arcoll_block_header>(off);
      if (checksum64(d_.data() + off + 8, rh.length - 8) != bh.checksum) {
        std::string whose = bh.rank < uint32_t(t_.nranks) ? "the section of rank " + std::to_string(bh.rank)
                                                          : std::string("an unknown rank's section");
        checksum_mismatch(roff, "record block " + std::to_string(bh.index) + " of " + whose + " (bytes " +
                                    std::to_string(roff) + ".." + std::to_string(off + rh.length) + ")");
      }
      if (bh.rank >= uint32_t(t_.nranks))
        fail(roff, "record block of rank " + std::to_string(bh.rank) + ", out of range [0, " +
                       std::to_string(t_.nranks) + ")");
      uint32_t want = int64_t(bh.rank) == block_rank ? block_index + 1 : 0;
      if (bh.index != want)
        fail(roff, "record block " + std::to_string(bh.index) + " of rank " + std::to_string(bh.rank) +
                       " where block " + std::to_string(want) + " must come (blocks lost or reordered)");
      block_rank = bh.rank;
      block_index = bh.index;
      nblocks++;
      records(off + sizeof bh, off + rh.length, int(bh.rank));
      off += rh.length;
    }
    return finish();
  }

 private:
  void header() {
    if (d_.size() < 12)
      fail(0, "file is " + std::to_string(d_.size()) + " bytes, shorter than the trace header (truncated)");
    if (std::memcmp(d_.data(), ARCOLL_TRACE_MAGIC, 8) != 0)
      fail(0, "bad magic: expected \"ARCTRACE\"; this is not an arcoll trace",
           "pass the .arctrace file written by the arcoll profiler (ARCOLL_TRACE names it)");
    uint32_t version = get<uint32_t>(8);
    if (version != ARCOLL_TRACE_VERSION)
      fail(8, "trace format version " + std::to_string(version) + ", this reader reads version " +
                  std::to_string(ARCOLL_TRACE_VERSION) +
                  (version < ARCOLL_TRACE_VERSION
                       ? " (older traces are not read: version 1 has no checksums, version 2 no clock "
                         "synchronisation cost)"
                       : ""),
           "record the trace again with this arcoll, or read it with the arcoll release that wrote it");
    if (d_.size() < sizeof(arcoll_trace_file_header))
      fail(0, "file is " + std::to_string(d_.size()) + " bytes, shorter than the " +
                  std::to_string(sizeof(arcoll_trace_file_header)) + "-byte header (truncated)");
    auto h = get<arcoll_trace_file_header>(0);
    if (checksum64(d_.data(), offsetof(arcoll_trace_file_header, checksum)) != h.checksum)
      checksum_mismatch(0, "the file header");
    // Each rank's state costs memory: bound nranks by what the file can hold
    // (a section is at least a block header and an RT_RANK_BEGIN).
    const uint64_t rest = d_.size() - sizeof h, min_section = kMinSectionBytes;
    if (h.nranks == 0 || uint64_t(h.nranks) * min_section > rest)
      fail(12, "header field nranks = " + std::to_string(h.nranks) + (h.nranks == 0 ? " (no ranks)" : "") +
                   ": the sections of " + std::to_string(h.nranks) + " ranks need at least " +
                   std::to_string(uint64_t(h.nranks) * min_section) + " bytes (" + std::to_string(min_section) +
                   " per rank), the file has " + std::to_string(rest) +
                   " after the header: the header is corrupted or the file truncated");
    t_.version = h.version;
    t_.nranks = static_cast<int>(h.nranks);
    t_.created = h.created;
    have_counters_ = (h.flags & 1u) != 0;
    t_.ranks.resize(h.nranks);
    for (int r = 0; r < t_.nranks; r++) t_.ranks[r].rank = r;
    seen_.assign(h.nranks, false);
  }

  void trace_end(uint64_t roff, uint32_t len) {
    const uint64_t p = roff + sizeof(arcoll_record_header);
    if (len != sizeof(arcoll_rec_trace_end))
      fail(roff, "RT_TRACE_END length field " + std::to_string(len) + ", expected " +
                     std::to_string(sizeof(arcoll_rec_trace_end)));
    if (d_.size() - p < len)
      fail(roff, "truncated RT_TRACE_END: " + std::to_string(d_.size() - p) + " bytes left, " + std::to_string(len) +
                     " needed");
    auto e = get<arcoll_rec_trace_end>(p);
    if (checksum64(d_.data() + p + 8, len - 8) != e.checksum) checksum_mismatch(roff, "the end-of-trace record");
    if (e.body_bytes != roff)
      fail(roff, "RT_TRACE_END says the trace body is " + std::to_string(e.body_bytes) + " bytes, it is " +
                     std::to_string(roff) + " (blocks lost or duplicated)");
    if (e.nranks != uint32_t(t_.nranks))
      fail(roff, "RT_TRACE_END says " + std::to_string(e.nranks) + " ranks, the header " + std::to_string(t_.nranks));
    if (p + len != d_.size())
      fail(p + len, std::to_string(d_.size() - p - len) + " bytes after the end-of-trace record (RT_TRACE_END)");
  }

  void close_section(bool complete) {
    if (cur_ < 0) return;
    RankInfo &ri = t_.ranks[cur_];
    ri.complete = complete;
    ri.clock = clock_seen_ ? clock_ : ClockModel{};
    ri.ready = clock_seen_ ? ri.clock.to_global(ri.clock.t_ready) : 0.0;
    for (std::size_t i = first_coll_; i < t_.colls.size(); i++) {
      t_.colls[i].t_entry = ri.clock.to_global(raw_entry_[i - first_coll_]);
      t_.colls[i].t_exit = ri.clock.to_global(raw_exit_[i - first_coll_]);
    }
    cur_ = -1;
  }

  // The records of one verified block [off, end) of rank `brank`.
  void records(uint64_t off, const uint64_t end, const int brank) {
    while (off < end) {
      const uint64_t roff = off;
      if (end - off < sizeof(arcoll_record_header))
        fail(roff, "record header crosses the end of its block: " + std::to_string(end - off) + " bytes left, 8 needed");
      auto rh = get<arcoll_record_header>(off);
      off += sizeof rh;
      if (rh.length > end - off)
        fail(roff, std::string(record_name(rh.type)) + " length field " + std::to_string(rh.length) +
                       " crosses the end of its block (" + std::to_string(end - off) + " bytes left in the block)");
      const uint64_t p = off;
      const uint32_t len = rh.length;
      off += len;
      record(rh.type, roff, p, len, brank);
    }
  }

  void record(uint32_t type, uint64_t roff, uint64_t p, uint32_t len, int brank) {
    auto need = [&](uint64_t n, bool exact) {
      if (exact ? len != n : len < n)
        fail(roff, std::string(record_name(type)) + " has a payload of " + std::to_string(len) + " bytes, expected " +
                       (exact ? "" : "at least ") + std::to_string(n));
    };
    if (type == RT_BLOCK || type == RT_TRACE_END)
      fail(roff, std::string(record_name(type)) + " inside a record block");
    if (type != RT_RANK_BEGIN && cur_ < 0) {
      if (type < RT_RANK_BEGIN || type > RT_RANK_END) return;  // unknown, outside a section: skip
      fail(roff, std::string(record_name(type)) + " outside a rank section (no RT_RANK_BEGIN before it)");
    }
    if (type != RT_RANK_BEGIN && cur_ != brank)
      fail(roff, std::string(record_name(type)) + " in a block of rank " + std::to_string(brank) +
                     " continues the section of rank " + std::to_string(cur_));
    switch (type) {
      case RT_RANK_BEGIN: {
        need(sizeof(arcoll_rec_rank_begin), false);
        auto rb = get<arcoll_rec_rank_begin>(p);
        if (rb.rank != brank)
          fail(roff, "RT_RANK_BEGIN of rank " + std::to_string(rb.rank) + " in a block of rank " + std::to_string(brank));
        if (seen_[rb.rank]) fail(roff, "second section for rank " + std::to_string(rb.rank));
        if (rb.rank <= last_)
          fail(roff, "section of rank " + std::to_string(rb.rank) + " after rank " + std::to_string(last_) +
                         " (sections must be in world-rank order)");
        if (sizeof rb + uint64_t(rb.host_len) != len)
          fail(roff, "RT_RANK_BEGIN host name length field " + std::to_string(rb.host_len) +
                         " does not match the record length " + std::to_string(len));
        close_section(false);  // previous section without RT_RANK_END: incomplete
        cur_ = last_ = rb.rank;
        seen_[cur_] = true;
        t_.ranks[cur_].pid = rb.pid;
        t_.ranks[cur_].host.assign(reinterpret_cast<const char *>(d_.data() + p + sizeof rb), rb.host_len);
        callsites_.clear();
        first_coll_ = t_.colls.size();
        ncoll_ = nccs_ = 0;
        raw_entry_.clear();
        raw_exit_.clear();
        clock_seen_ = false;
        clock_ = ClockModel{};
        break;
      }
      case RT_CALLSITE: {
        need(4, false);
        uint32_t id = get<uint32_t>(p);
        if (id != callsites_.size())
          fail(roff, "call-site id " + std::to_string(id) + " out of sequence (expected " +
                         std::to_string(callsites_.size()) + ")");
        callsites_.emplace_back(reinterpret_cast<const char *>(d_.data() + p + 4), len - 4);
        break;
      }
      case RT_COMM: {
        need(16, false);
        uint64_t id = get<uint64_t>(p);
        uint32_t size = get<uint32_t>(p + 8);
        if (16 + uint64_t(size) * 4 != len)  // checked before the member list is allocated
          fail(roff, "RT_COMM member count field " + std::to_string(size) + " needs " +
                         std::to_string(16 + uint64_t(size) * 4) + " payload bytes, the record has " +
                         std::to_string(len));
        std::vector<int> wr(size);
        for (uint32_t i = 0; i < size; i++) {
          int32_t w = get<int32_t>(p + 16 + 4 * uint64_t(i));
          if (w < -1 || w >= t_.nranks)
            fail(roff, "RT_COMM world rank " + std::to_string(w) + " out of range [-1, " +
                           std::to_string(t_.nranks) + ")");
          wr[i] = w;
        }
        auto it = comms_.find(id);
        if (it == comms_.end())
          comms_.emplace(id, std::move(wr));
        else if (it->second != wr)
          fail(roff, "communicator " + std::to_string(id) + " recorded with two different rank lists");
        break;
      }
      case RT_COLL: {
        need(sizeof(arcoll_rec_coll), false);
        auto c = get<arcoll_rec_coll>(p);
        if (c.op >= OP_COUNT_) fail(roff, "unknown collective operation " + std::to_string(c.op));
        if (c.callsite >= callsites_.size())
          fail(roff, "call-site id " + std::to_string(c.callsite) + " not defined by an earlier RT_CALLSITE");
        if (!std::isfinite(c.t_entry) || !std::isfinite(c.t_exit)) fail(roff, "non-finite time in RT_COLL");
        CollEvent e;
        e.rank = cur_;
        e.comm_id = c.comm_id;
        e.seq = c.seq;
        e.bytes = c.bytes;
        e.step = c.step;
        e.t_entry = e.t_exit = 0;
        e.callsite = callsites_[c.callsite];
        e.op = c.op;
        e.flags = c.flags;
        e.root = c.root;
        raw_entry_.push_back(c.t_entry);
        raw_exit_.push_back(c.t_exit);
        t_.colls.push_back(std::move(e));
        ncoll_++;
        break;
      }
      case RT_CCS: {
        need(sizeof(arcoll_rec_ccs), false);
        auto c = get<arcoll_rec_ccs>(p);
        if (c.src != cur_)
          fail(roff, "RT_CCS source rank " + std::to_string(c.src) + " in the section of rank " + std::to_string(cur_));
        if (c.dst < 0 || c.dst >= t_.nranks)
          fail(roff, "RT_CCS destination rank " + std::to_string(c.dst) + " out of range [0, " +
                         std::to_string(t_.nranks) + ")");
        t_.ccs.push_back(CcsEntry{c.step, c.src, c.dst, c.bytes, c.count});
        nccs_++;
        break;
      }
      case RT_COUNTER_NAMES: {
        need(4, false);
        uint32_t n = get<uint32_t>(p);
        if (uint64_t(n) > len - 4)  // every name takes at least its NUL
          fail(roff, "RT_COUNTER_NAMES count field " + std::to_string(n) + " but the record holds only " +
                         std::to_string(len - 4) + " bytes of names");
        std::vector<std::string> names;
        uint64_t q = p + 4;
        for (uint32_t i = 0; i < n; i++) {
          const void *z = std::memchr(d_.data() + q, 0, p + len - q);
          if (!z) fail(roff, "RT_COUNTER_NAMES: name " + std::to_string(i) + " is not NUL-terminated");
          const char *s = reinterpret_cast<const char *>(d_.data() + q);
          names.emplace_back(s);
          q += names.back().size() + 1;
        }
        if (names_seen_ && names != counter_names_) fail(roff, "RT_COUNTER_NAMES differ between ranks");
        counter_names_ = std::move(names);
        names_seen_ = true;
        break;
      }
      case RT_COUNTERS: {
        if (!names_seen_) fail(roff, "RT_COUNTERS before RT_COUNTER_NAMES");
        need(8 + 8 * uint64_t(counter_names_.size()), true);
        uint64_t idx = get<uint64_t>(p);
        if (idx >= ncoll_)
          fail(roff, "RT_COUNTERS for collective #" + std::to_string(idx) + " but this section has " +
                         std::to_string(ncoll_) + " RT_COLL records so far");
        auto &v = t_.colls[first_coll_ + idx].counters;
        v.resize(counter_names_.size());
        for (std::size_t i = 0; i < v.size(); i++) v[i] = get<int64_t>(p + 8 + 8 * i);
        break;
      }
      case RT_CLOCK: {
        need(sizeof(arcoll_rec_clock), false);
        auto c = get<arcoll_rec_clock>(p);
        for (double x : {c.t_init, c.off_init, c.t_fini, c.off_fini, c.rtt_init, c.rtt_fini, c.cost_init, c.cost_fini,
                         c.t_ready})
          if (!std::isfinite(x)) fail(roff, "non-finite value in RT_CLOCK");
        if (c.t_fini < c.t_init) fail(roff, "RT_CLOCK: t_fini before t_init");
        clock_ = ClockModel{c.t_init,   c.off_init,  c.t_fini,   c.off_fini, c.rtt_init,
                            c.rtt_fini, c.cost_init, c.cost_fini, c.t_ready};
        clock_seen_ = true;
        break;
      }
      case RT_RANK_END: {
        need(16, false);
        uint64_t nc = get<uint64_t>(p), ns = get<uint64_t>(p + 8);
        if (nc != ncoll_ || ns != nccs_)
          fail(roff, "RT_RANK_END of rank " + std::to_string(cur_) + " announces " + std::to_string(nc) +
                         " RT_COLL and " + std::to_string(ns) + " RT_CCS records, the section has " +
                         std::to_string(ncoll_) + " and " + std::to_string(nccs_));
        close_section(true);
        break;
      }
      default:
        break;  // unknown type: skipped (forward compatible)
    }
  }

  Trace finish() {
    close_section(false);
    if (have_counters_ && !names_seen_ && !t_.colls.empty())
      fail(d_.size(), "header says PAPI counters are present but no RT_COUNTER_NAMES record was found");
    Trace t = std::move(t_);
    t.counter_names = std::move(counter_names_);
    for (auto &kv : comms_) t.comms.push_back(Communicator{kv.first, kv.second});
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
  std::vector<double> raw_entry_, raw_exit_;  // local times of this section
  bool clock_seen_ = false;
  ClockModel clock_;
  std::vector<std::string> counter_names_;
  bool names_seen_ = false;
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
  // The header first: a file that is no trace is not read whole.
  std::vector<unsigned char> data(sizeof(arcoll_trace_file_header));
  in.read(reinterpret_cast<char *>(data.data()), std::streamsize(data.size()));
  data.resize(std::size_t(in.gcount()));
  if (!in.bad() && data.size() >= 8 && std::memcmp(data.data(), ARCOLL_TRACE_MAGIC, 8) == 0)
    data.insert(data.end(), std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) throw TraceError("arcoll trace " + path + ": read error");
  return Parser(path, std::move(data)).run();
}

}  // namespace arcoll::trace
