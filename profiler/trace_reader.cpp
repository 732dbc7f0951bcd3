// The one parser of arcoll traces (format: trace_format.h, API: trace_reader.hpp):
// file level - header, record blocks, end-of-trace record, final sort and
// merge; the records inside a block in trace_records.cpp.
#include "trace_reader.hpp"

#include <cstddef>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "trace_parser.hpp"
#include "trace_writer.hpp"  // checksum64

namespace arcoll::trace {

namespace {

const char *const kOpNames[OP_COUNT_] = {
    "barrier",   "bcast",     "reduce",         "allreduce",            "gather", "gatherv",
    "scatter",   "scatterv",  "allgather",      "allgatherv",           "alltoall",
    "alltoallv", "alltoallw", "reduce_scatter", "reduce_scatter_block", "scan",   "exscan",
    "neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall", "neighbor_alltoallv",
    "neighbor_alltoallw"};

}  // namespace

namespace detail {

const char *const kHintRerecord =
    "the file is damaged or was not (completely) written by the arcoll profiler; "
    "re-run the program with LD_PRELOAD=libarcoll_profiler.so to record it again";

Trace Parser::run() {
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

void Parser::header() {
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

void Parser::trace_end(uint64_t roff, uint32_t len) {
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

void Parser::records(uint64_t off, const uint64_t end, const int brank) {
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

Trace Parser::finish() {
  close_section(false);
  if (have_counters_ && !names_seen_ && !t_.colls.empty())
    fail(d_.size(), "header says PAPI counters are present but no RT_COUNTER_NAMES record was found");
  Trace t = std::move(t_);
  t.counter_names = std::move(counter_names_);
  for (auto &kv : comms_) t.comms.push_back(Communicator{kv.first, kv.second});
  std::stable_sort(t.colls.begin(), t.colls.end(), [](const CollEvent &a, const CollEvent &b) {
    return a.rank != b.rank ? a.rank < b.rank : a.t_entry < b.t_entry;
  });
  // CCS and receives: sort and merge entries of the same (step, src, dst) (a
  // rank may flush one step in several pieces).
  for (auto *v : {&t.ccs, &t.recvs}) {
    std::sort(v->begin(), v->end(), [](const CcsEntry &a, const CcsEntry &b) {
      if (a.step != b.step) return a.step < b.step;
      if (a.src != b.src) return a.src < b.src;
      return a.dst < b.dst;
    });
    std::vector<CcsEntry> merged;
    for (auto &c : *v) {
      if (!merged.empty() && merged.back().step == c.step && merged.back().src == c.src &&
          merged.back().dst == c.dst) {
        merged.back().bytes += c.bytes;
        merged.back().count += c.count;
        merged.back().blocking += c.blocking;
        merged.back().order = std::min(merged.back().order, c.order);  // a step flushed in pieces
      } else {
        merged.push_back(c);
      }
    }
    *v = std::move(merged);
  }
  return t;
}

}  // namespace detail

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
  return detail::Parser(path, std::move(data)).run();
}

}  // namespace arcoll::trace