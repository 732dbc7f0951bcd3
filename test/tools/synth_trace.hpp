// Test helper: writes small arcoll traces directly in the binary format of
// profiler/trace_format.h (so tests do not need the profiler to make traces).
#pragma once

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "trace_format.h"

namespace testtrace {

struct Ccs {
  uint64_t step;
  int32_t src, dst;
  uint64_t bytes;
};

class Writer {
 public:
  explicit Writer(uint32_t nranks) : nranks_(nranks), ccs_(nranks) {}
  /** Rank r's section ends without RT_RANK_END (a run cut short). */
  void omit_end(uint32_t r) { no_end_.push_back(r); }
  /** Rank r has no section at all (it never wrote its trace). */
  void omit_section(uint32_t r) { no_section_.push_back(r); }
  void add(const Ccs &c) { ccs_.at(static_cast<uint32_t>(c.src) < nranks_ ? c.src : 0).push_back(c); }

  /** Whole file as bytes. Every rank gets RANK_BEGIN (host "nodeXX"), CLOCK
   *  (zero offsets), its CCS records (sorted as given) and RANK_END. */
  std::string bytes() const {
    std::string out;
    arcoll_trace_file_header h{};
    std::memcpy(h.magic, ARCOLL_TRACE_MAGIC, 8);
    h.version = ARCOLL_TRACE_VERSION;
    h.nranks = nranks_;
    h.created = 1.7e9;
    put(out, &h, sizeof h);
    for (uint32_t r = 0; r < nranks_; ++r) {
      if (std::find(no_section_.begin(), no_section_.end(), r) != no_section_.end()) continue;
      std::string host = "node" + std::to_string(r + 1);
      arcoll_rec_rank_begin b{};
      b.rank = static_cast<int32_t>(r);
      b.pid = 1000 + static_cast<int32_t>(r);
      b.host_len = static_cast<uint32_t>(host.size());
      record(out, RT_RANK_BEGIN, std::string(reinterpret_cast<const char *>(&b), sizeof b) + host);
      arcoll_rec_clock c{};
      c.t_init = 1.0;
      c.t_fini = 2.0;
      record(out, RT_CLOCK, std::string(reinterpret_cast<const char *>(&c), sizeof c));
      for (auto &e : ccs_[r]) {
        arcoll_rec_ccs x{};
        x.step = e.step;
        x.src = e.src;
        x.dst = e.dst;
        x.bytes = e.bytes;
        x.count = 1;
        record(out, RT_CCS, std::string(reinterpret_cast<const char *>(&x), sizeof x));
      }
      uint64_t end[2] = {0, ccs_[r].size()};
      if (std::find(no_end_.begin(), no_end_.end(), r) != no_end_.end()) continue;
      record(out, RT_RANK_END, std::string(reinterpret_cast<const char *>(end), sizeof end));
    }
    return out;
  }

  void write(const std::string &path) const {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    std::string b = bytes();
    f.write(b.data(), static_cast<std::streamsize>(b.size()));
  }

 private:
  static void put(std::string &out, const void *p, size_t n) { out.append(static_cast<const char *>(p), n); }
  static void record(std::string &out, uint32_t type, const std::string &payload) {
    arcoll_record_header rh{type, static_cast<uint32_t>(payload.size())};
    put(out, &rh, sizeof rh);
    out += payload;
  }
  uint32_t nranks_;
  std::vector<std::vector<Ccs>> ccs_;
  std::vector<uint32_t> no_end_, no_section_;
};

}  // namespace testtrace
