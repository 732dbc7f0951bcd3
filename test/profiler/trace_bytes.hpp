// Synthesized trace files for the trace reader's tests (reader_test.cpp: good traces,
// reader_errors_test.cpp: corrupt ones): Bytes builds a trace record by record and seals it as the
// profiler's writer does; good() is a valid 2-rank trace; expect_error*() read a file and check the
// TraceError names the file, an offset, a fix and `needle`.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "trace_reader.hpp"
#include "trace_writer.hpp"

namespace arcoll::trace::test {


// Builds a trace: header(), then records; begin(rank) starts the section
// (and the record blocks) of `rank`. file() seals it as the writer does: the
// records of each begin() in one checksummed block, then RT_TRACE_END.
struct Bytes {
  std::vector<unsigned char> b;  // records of the current block
  arcoll_trace_file_header h{};
  std::vector<std::pair<uint32_t, std::vector<unsigned char>>> blocks;
  uint32_t rank = 0;
  template <class T>
  void raw(const T &v) {
    const unsigned char *p = reinterpret_cast<const unsigned char *>(&v);
    b.insert(b.end(), p, p + sizeof v);
  }
  void str(const std::string &s) { b.insert(b.end(), s.begin(), s.end()); }
  void header(uint32_t nranks, uint32_t version = ARCOLL_TRACE_VERSION, const char *magic = "ARCTRACE",
              uint32_t flags = 0) {
    h = make_file_header(nranks, 1.7e9, flags);
    std::memcpy(h.magic, magic, 8);
    h.version = version;
  }
  void seal() {
    if (!b.empty()) blocks.emplace_back(rank, std::move(b));
    b.clear();
  }
  std::string file() {
    seal();
    std::string out(reinterpret_cast<const char *>(&h), sizeof h);
    std::map<uint32_t, uint32_t> index;
    for (auto &[r, recs] : blocks) out += encode_block(r, index[r]++, recs.data(), recs.size());
    return out + encode_trace_end(out.size(), h.nranks);
  }
  void rec(uint32_t type, uint32_t len) { raw(arcoll_record_header{type, len}); }
  void begin(int32_t r, const std::string &host = "node") {
    seal();
    rank = uint32_t(r);
    rec(RT_RANK_BEGIN, uint32_t(sizeof(arcoll_rec_rank_begin) + host.size()));
    raw(arcoll_rec_rank_begin{r, 100 + r, uint32_t(host.size()), 0});
    str(host);
  }
  void callsite(uint32_t id, const std::string &name) {
    rec(RT_CALLSITE, uint32_t(4 + name.size()));
    raw(id);
    str(name);
  }
  void coll(uint64_t seq, double t0, double t1, uint32_t cs = 0, uint16_t op = OP_BCAST, int32_t root = 0,
            uint64_t comm = 0) {
    arcoll_rec_coll c{};
    c.comm_id = comm;
    c.seq = seq;
    c.bytes = 16;
    c.step = seq;
    c.t_entry = t0;
    c.t_exit = t1;
    c.callsite = cs;
    c.op = op;
    c.root = root;
    rec(RT_COLL, sizeof c);
    raw(c);
  }
  void ccs(uint64_t step, int src, int dst, uint64_t bytes) {
    arcoll_rec_ccs c{step, src, dst, bytes, 1, 0};
    rec(RT_CCS, sizeof c);
    raw(c);
  }
  void recv(uint64_t step, int src, int dst, uint64_t bytes, uint32_t count = 1, uint32_t blocking = 0) {
    arcoll_rec_ccs c{step, src, dst, bytes, count, blocking};
    rec(RT_RECV, sizeof c);
    raw(c);
  }
  void clock(double t_init, double off_init, double t_fini, double off_fini) {
    arcoll_rec_clock c{t_init, off_init, t_fini, off_fini, 1e-6, 2e-6, 3e-6, 4e-6, t_init + 0.5, 0};
    rec(RT_CLOCK, sizeof c);
    raw(c);
  }
  void end(uint64_t ncoll, uint64_t nccs) {
    rec(RT_RANK_END, 16);
    raw(ncoll);
    raw(nccs);
  }
};

inline std::string write_raw(const std::string &name, const std::string &bytes) {
  std::string path = ::testing::TempDir() + "arcoll_reader_" + name + ".arctrace";
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  return path;
}
inline std::string write_file(const std::string &name, Bytes b) { return write_raw(name, b.file()); }

/** A valid 2-rank trace: rank 1 arrives 0.5 s late at the bcast (global time). */
inline Bytes good() {
  Bytes b;
  b.header(2, ARCOLL_TRACE_VERSION, "ARCTRACE", 1);
  // rank 0
  b.begin(0, "n0");
  std::string names = std::string("perf::TASK-CLOCK") + '\0';
  b.rec(RT_COUNTER_NAMES, uint32_t(4 + names.size()));
  b.raw(uint32_t(1));
  b.str(names);
  b.rec(RT_COMM, 16 + 8);
  b.raw(uint64_t(5));
  b.raw(uint32_t(2));
  b.raw(uint32_t(0));
  b.raw(int32_t(1));
  b.raw(int32_t(0));
  b.callsite(0, "app+0x10");
  b.coll(0, 10.0, 10.6);
  b.rec(RT_COUNTERS, 16);
  b.raw(uint64_t(0));
  b.raw(int64_t(12345));
  b.ccs(0, 0, 1, 100);
  b.ccs(0, 0, 1, 50);  // same step in two pieces: merged
  b.clock(1.0, 0.0, 20.0, 0.0);
  b.end(1, 2);
  // rank 1: local clock 100 s behind rank 0, drifting by +0.1 s over its run
  b.begin(1, "n1");
  b.rec(RT_COUNTER_NAMES, uint32_t(4 + names.size()));
  b.raw(uint32_t(1));
  b.str(names);
  b.callsite(0, "app+0x10");
  b.coll(0, -89.55, -89.4);  // global: -89.55 + 100 + 0.1*(10.45/19)... see test
  b.rec(RT_COUNTERS, 16);
  b.raw(uint64_t(0));
  b.raw(int64_t(7));
  b.ccs(1, 1, 0, 8);
  b.clock(-99.0, 100.0, -80.0, 100.1);
  b.end(1, 1);
  return b;
}

inline void expect_error_raw(const std::string &bytes, const std::string &name, const std::string &needle) {
  std::string path = write_raw(name, bytes);
  try {
    Trace::read(path);
    FAIL() << "no TraceError for " << name;
  } catch (const TraceError &e) {
    std::string w = e.what();
    EXPECT_NE(w.find(path), std::string::npos) << w;
    EXPECT_NE(w.find("offset"), std::string::npos) << w;
    EXPECT_NE(w.find("fix:"), std::string::npos) << w;
    EXPECT_NE(w.find(needle), std::string::npos) << w;
  }
}
inline void expect_error(Bytes b, const std::string &name, const std::string &needle) {
  expect_error_raw(b.file(), name, needle);
}


}  // namespace arcoll::trace::test
