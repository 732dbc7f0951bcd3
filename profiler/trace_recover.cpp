// Assembling the part files of an aborted run (trace_recover.hpp).
#include "trace_recover.hpp"

#include <sys/stat.h>
#include <sys/time.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "trace_format.h"
#include "trace_writer.hpp"

namespace arcoll::trace {

namespace {

bool exists(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}

std::string part_name(const std::string &trace, int r) { return trace + ".part" + std::to_string(r); }

/** Length of the leading run of intact blocks of rank `rank` in `d`; *why
 *  says why the rest (if any) was not kept. */
uint64_t intact_prefix(const std::vector<unsigned char> &d, uint32_t rank, std::string *why) {
  uint64_t off = 0;
  uint32_t index = 0;
  while (off < d.size()) {
    if (d.size() - off < sizeof(arcoll_record_header) + sizeof(arcoll_block_header)) {
      *why = "torn block header at byte " + std::to_string(off);
      return off;
    }
    arcoll_record_header rh;
    std::memcpy(&rh, d.data() + off, sizeof rh);
    if (rh.type != RT_BLOCK || rh.length < sizeof(arcoll_block_header)) {
      *why = "no record block at byte " + std::to_string(off);
      return off;
    }
    if (rh.length > d.size() - off - sizeof rh) {
      *why = "block at byte " + std::to_string(off) + " is cut short (torn write)";
      return off;
    }
    arcoll_block_header bh;
    const unsigned char *p = d.data() + off + sizeof rh;
    std::memcpy(&bh, p, sizeof bh);
    if (checksum64(p + 8, rh.length - 8) != bh.checksum) {
      *why = "checksum mismatch in the block at byte " + std::to_string(off);
      return off;
    }
    if (bh.rank != rank || bh.index != index) {
      *why = "block at byte " + std::to_string(off) + " is rank " + std::to_string(bh.rank) + " index " +
             std::to_string(bh.index) + ", expected rank " + std::to_string(rank) + " index " + std::to_string(index);
      return off;
    }
    off += sizeof rh + rh.length;
    index++;
  }
  return off;
}

}  // namespace

RecoverReport recover_trace(const std::string &trace_path, const std::string &out_arg, int nranks) {
  const std::string out = out_arg.empty() ? trace_path : out_arg;
  if (nranks <= 0) {
    // the highest index among consecutive probes (a gap of 64 ends the search)
    int gap = 0;
    for (int r = 0; gap < 64; r++) {
      if (exists(part_name(trace_path, r))) nranks = r + 1, gap = 0;
      else gap++;
    }
  }
  if (nranks <= 0)
    throw std::runtime_error("no part file " + part_name(trace_path, 0) + " (or any " + trace_path +
                             ".partN): nothing to recover; give the ARCOLL_TRACE path of the aborted run");
  // rank 0 creates the trace file at MPI_Init and fills it at MPI_Finalize:
  // an empty one is the placeholder of the aborted run
  struct stat st;
  if (::stat(out.c_str(), &st) == 0 && st.st_size > 0)
    throw std::runtime_error(out + " exists already; recover into another file with -o, or remove it");
  std::FILE *f = std::fopen(out.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot create " + out + ": " + std::strerror(errno));
  RecoverReport rep;
  rep.nranks = nranks;
  rep.found.assign(size_t(nranks), false);
  rep.kept_bytes.assign(size_t(nranks), 0);
  rep.dropped_bytes.assign(size_t(nranks), 0);
  rep.why_dropped.assign(size_t(nranks), "");
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  std::vector<std::vector<unsigned char>> parts(static_cast<size_t>(nranks));
  uint32_t flags = 0;
  for (int r = 0; r < nranks; r++) {
    std::ifstream in(part_name(trace_path, r), std::ios::binary);
    if (!in) continue;
    rep.found[size_t(r)] = true;
    parts[size_t(r)].assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    const uint64_t keep = intact_prefix(parts[size_t(r)], uint32_t(r), &rep.why_dropped[size_t(r)]);
    rep.dropped_bytes[size_t(r)] = parts[size_t(r)].size() - keep;
    parts[size_t(r)].resize(keep);
    rep.kept_bytes[size_t(r)] = keep;
    // counters recorded: an RT_COUNTER_NAMES record type appears in the first block
    const auto &d = parts[size_t(r)];
    const uint64_t first = sizeof(arcoll_record_header) + sizeof(arcoll_block_header);
    for (uint64_t o = first; d.size() >= first && o + sizeof(arcoll_record_header) <= d.size();) {
      arcoll_record_header h;
      std::memcpy(&h, d.data() + o, sizeof h);
      if (h.type == RT_COUNTER_NAMES) flags |= 1u;
      if (h.type == RT_COLL || h.length > d.size() - o - sizeof h) break;  // names precede the calls
      o += sizeof h + h.length;
    }
  }
  arcoll_trace_file_header h = make_file_header(uint32_t(nranks), double(tv.tv_sec) + 1e-6 * double(tv.tv_usec), flags);
  bool ok = std::fwrite(&h, sizeof h, 1, f) == 1;
  uint64_t body = sizeof h;
  for (auto &d : parts) {
    if (!d.empty()) ok = ok && std::fwrite(d.data(), 1, d.size(), f) == d.size();
    body += d.size();
  }
  const std::string end = encode_trace_end(body, uint32_t(nranks));
  ok = ok && std::fwrite(end.data(), 1, end.size(), f) == end.size();
  if (std::fclose(f) != 0) ok = false;
  if (!ok) {
    std::remove(out.c_str());
    throw std::runtime_error("error while writing " + out + ": " + std::strerror(errno));
  }
  return rep;
}

}  // namespace arcoll::trace
