// Test helper: writes small arcoll traces directly in the binary format of
// profiler/trace_format.h (so tests do not need the profiler to make traces):
// CCS entries, collective calls, communicators and clock models (one
// checksummed record block per rank section).
#pragma once

#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "trace_format.h"
#include "trace_writer.hpp"

namespace testtrace {

struct Ccs {
  uint64_t step;
  int32_t src, dst;
  uint64_t bytes;
  uint32_t count = 1;
};

/** One collective call of a rank (times local, seconds; call site "app+0x<callsite>"). */
struct Coll {
  uint32_t rank;
  uint16_t op;
  uint64_t comm_id, seq, bytes, step;
  double t_entry, t_exit;
  int32_t root = ARCOLL_ROOT_NONE;
  uint16_t flags = 0;
  uint32_t callsite = 0x10;
};

class Writer {
 public:
  explicit Writer(uint32_t nranks)
      : nranks_(nranks), ccs_(nranks), colls_(nranks), comms_(nranks), clocks_(nranks) {
    for (auto &c : clocks_) c.t_init = 1.0, c.t_fini = 2.0;  // zero offsets
  }
  /** Collective call; RT_CALLSITE records are written for its call sites. */
  void add_coll(const Coll &c) { colls_.at(c.rank).push_back(c); }
  /** RT_COMM record of communicator `id` in the section of `rank`. */
  void add_comm(uint32_t rank, uint64_t id, const std::vector<int32_t> &world_ranks) {
    comms_.at(rank).emplace_back(id, world_ranks);
  }
  /** Rank r's clock model (default: t_init 1, t_fini 2, zero offsets). */
  void set_clock(uint32_t r, const arcoll_rec_clock &c) { clocks_.at(r) = c; }
  /** Rank r's section ends without RT_RANK_END (a run cut short). */
  void omit_end(uint32_t r) { no_end_.push_back(r); }
  /** Rank r has no section at all (it never wrote its trace). */
  void omit_section(uint32_t r) { no_section_.push_back(r); }
  void add(const Ccs &c) { ccs_.at(static_cast<uint32_t>(c.src) < nranks_ ? c.src : 0).push_back(c); }

  /** Whole file as bytes. Every rank gets RANK_BEGIN (host "nodeXX"), CLOCK,
   *  its COMM, CALLSITE and COLL records, its CCS records (sorted as given)
   *  and RANK_END. */
  std::string bytes() const {
    std::string file;
    arcoll_trace_file_header h = arcoll::trace::make_file_header(nranks_, 1.7e9, 0);
    put(file, &h, sizeof h);
    for (uint32_t r = 0; r < nranks_; ++r) {
      if (std::find(no_section_.begin(), no_section_.end(), r) != no_section_.end()) continue;
      std::string out;  // the section's records, written as one checksummed block
      std::string host = "node" + std::to_string(r + 1);
      arcoll_rec_rank_begin b{};
      b.rank = static_cast<int32_t>(r);
      b.pid = 1000 + static_cast<int32_t>(r);
      b.host_len = static_cast<uint32_t>(host.size());
      record(out, RT_RANK_BEGIN, std::string(reinterpret_cast<const char *>(&b), sizeof b) + host);
      record(out, RT_CLOCK, std::string(reinterpret_cast<const char *>(&clocks_[r]), sizeof clocks_[r]));
      for (auto &[id, members] : comms_[r]) {
        std::string p(16, '\0');
        uint32_t size = static_cast<uint32_t>(members.size());
        std::memcpy(&p[0], &id, 8);
        std::memcpy(&p[8], &size, 4);
        p.append(reinterpret_cast<const char *>(members.data()), members.size() * 4);
        record(out, RT_COMM, p);
      }
      std::vector<uint32_t> sites;  // call-site address -> id (index)
      for (auto &c : colls_[r]) {
        auto it = std::find(sites.begin(), sites.end(), c.callsite);
        uint32_t id = static_cast<uint32_t>(it - sites.begin());
        if (it == sites.end()) {
          sites.push_back(c.callsite);
          char name[32];
          std::snprintf(name, sizeof name, "app+0x%x", c.callsite);
          record(out, RT_CALLSITE, std::string(reinterpret_cast<const char *>(&id), 4) + name);
        }
        arcoll_rec_coll x{};
        x.comm_id = c.comm_id;
        x.seq = c.seq;
        x.bytes = c.bytes;
        x.step = c.step;
        x.t_entry = c.t_entry;
        x.t_exit = c.t_exit;
        x.callsite = id;
        x.op = c.op;
        x.flags = c.flags;
        x.root = c.root;
        record(out, RT_COLL, std::string(reinterpret_cast<const char *>(&x), sizeof x));
      }
      for (auto &e : ccs_[r]) {
        arcoll_rec_ccs x{};
        x.step = e.step;
        x.src = e.src;
        x.dst = e.dst;
        x.bytes = e.bytes;
        x.count = e.count;
        record(out, RT_CCS, std::string(reinterpret_cast<const char *>(&x), sizeof x));
      }
      uint64_t end[2] = {colls_[r].size(), ccs_[r].size()};
      if (std::find(no_end_.begin(), no_end_.end(), r) == no_end_.end())
        record(out, RT_RANK_END, std::string(reinterpret_cast<const char *>(end), sizeof end));
      file += arcoll::trace::encode_block(r, 0, out.data(), out.size());
    }
    return file + arcoll::trace::encode_trace_end(file.size(), nranks_);
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
  std::vector<std::vector<Coll>> colls_;
  std::vector<std::vector<std::pair<uint64_t, std::vector<int32_t>>>> comms_;
  std::vector<arcoll_rec_clock> clocks_;
  std::vector<uint32_t> no_end_, no_section_;
};

}  // namespace testtrace
