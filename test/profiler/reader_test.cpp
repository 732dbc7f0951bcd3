// Unit tests of the one trace reader (Trace::read) and of print_summary on
// synthesized good and corrupt traces.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "summary.hpp"
#include "trace_reader.hpp"
#include "trace_writer.hpp"

using namespace arcoll::trace;

namespace {

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
  void recv(uint64_t step, int src, int dst, uint64_t bytes, uint32_t count = 1) {
    arcoll_rec_ccs c{step, src, dst, bytes, count, 0};
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

std::string write_raw(const std::string &name, const std::string &bytes) {
  std::string path = ::testing::TempDir() + "arcoll_reader_" + name + ".arctrace";
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  return path;
}
std::string write_file(const std::string &name, Bytes b) { return write_raw(name, b.file()); }

/** A valid 2-rank trace: rank 1 arrives 0.5 s late at the bcast (global time). */
Bytes good() {
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

void expect_error_raw(const std::string &bytes, const std::string &name, const std::string &needle) {
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
void expect_error(Bytes b, const std::string &name, const std::string &needle) {
  expect_error_raw(b.file(), name, needle);
}

}  // namespace

TEST(TraceReader, ReadsGoodTrace) {
  Trace t = Trace::read(write_file("good", good()));
  ASSERT_EQ(t.nranks, 2);
  EXPECT_EQ(t.version, 3u);
  EXPECT_TRUE(t.ranks[0].complete);
  EXPECT_TRUE(t.ranks[1].complete);
  EXPECT_EQ(t.ranks[1].host, "n1");
  EXPECT_EQ(t.ranks[1].pid, 101);
  ASSERT_EQ(t.counter_names, std::vector<std::string>{"perf::TASK-CLOCK"});
  ASSERT_EQ(t.colls.size(), 2u);
  EXPECT_EQ(t.colls[0].rank, 0);
  EXPECT_EQ(t.colls[0].callsite, "app+0x10");
  EXPECT_EQ(t.colls[0].counters, std::vector<int64_t>{12345});
  EXPECT_EQ(t.colls[1].counters, std::vector<int64_t>{7});
  EXPECT_DOUBLE_EQ(t.colls[0].t_entry, 10.0);
  // rank 1: global = local + 100 + 0.1 * (local + 99) / 19
  double l = -89.55;
  EXPECT_NEAR(t.colls[1].t_entry, l + 100 + 0.1 * (l + 99) / 19, 1e-12);
  ASSERT_EQ(t.comms.size(), 1u);
  EXPECT_EQ(t.comms[0].id, 5u);
  EXPECT_EQ(t.comms[0].world_ranks, (std::vector<int>{1, 0}));
  ASSERT_EQ(t.ccs.size(), 2u);
  EXPECT_EQ(t.ccs[0].step, 0u);
  EXPECT_EQ(t.ccs[0].src, 0);
  EXPECT_EQ(t.ccs[0].dst, 1);
  EXPECT_EQ(t.ccs[0].bytes, 150u);
  EXPECT_EQ(t.ccs[0].count, 2u);
  EXPECT_EQ(t.ccs[1].step, 1u);
  EXPECT_EQ(t.ccs[1].bytes, 8u);
}

TEST(TraceReader, Summary) {
  Trace t = Trace::read(write_file("summary", good()));
  std::ostringstream os;
  print_summary(t, os, 3);
  std::string s = os.str();
  EXPECT_NE(s.find("2 ranks"), std::string::npos) << s;
  EXPECT_NE(s.find("bcast at app+0x10"), std::string::npos) << s;
  // The only bcast is each rank's first call: reported apart; rank 1 enters
  // at ~10.5 global, rank 0 at 10.0: rank 1 arrives last, spread ~0.5 s.
  EXPECT_NE(s.find("first collective after MPI_Init (not counted below): bcast at app+0x10 on 2 ranks: arrival "
                   "spread 499"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("(last: rank 1)"), std::string::npos) << s;
  EXPECT_NE(s.find("clock synchronisation (binomial tree, 2 ranks): at MPI_Init max 3.000 us"), std::string::npos) << s;
  EXPECT_NE(s.find("ranks causing waiting"), std::string::npos) << s;
  EXPECT_NE(s.find("in 0 calls"), std::string::npos) << s;
}

TEST(TraceReader, ClockSynchronisationFields) {
  Trace t = Trace::read(write_file("clockfields", good()));
  EXPECT_DOUBLE_EQ(t.ranks[0].clock.cost_init, 3e-6);
  EXPECT_DOUBLE_EQ(t.ranks[0].clock.cost_fini, 4e-6);
  EXPECT_DOUBLE_EQ(t.ranks[0].ready, 1.5);
  // rank 1: local -98.5 -> global -98.5 + 100 + 0.1 * 0.5 / 19
  EXPECT_NEAR(t.ranks[1].ready, 1.5 + 0.1 * 0.5 / 19, 1e-12);
  ClockSyncStats st = clock_sync_stats(t);
  EXPECT_DOUBLE_EQ(st.cost_init_max, 3e-6);
  EXPECT_DOUBLE_EQ(st.error_max, 1e-6);
}

TEST(TraceReader, BadMagic) {
  Bytes b;
  b.header(1, ARCOLL_TRACE_VERSION, "NOTTRACE");
  expect_error(b, "magic", "bad magic");
}

TEST(TraceReader, WrongVersion) {
  for (uint32_t v : {1u, 2u, 4u}) {
    Bytes b;
    b.header(1, v);
    b.begin(0);
    b.end(0, 0);
    expect_error(b, "version" + std::to_string(v),
                 "trace format version " + std::to_string(v) + ", this reader reads version 3");
  }
}

TEST(TraceReader, TruncatedHeader) {
  std::string f = good().file();
  expect_error_raw(f.substr(0, 20), "trunc_header", "shorter than the 40-byte header (truncated)");
}

TEST(TraceReader, TruncatedInsideABlock) {
  std::string f = good().file();
  expect_error_raw(f.substr(0, f.size() - 40), "trunc_record", "truncated record block");
}

TEST(TraceReader, TruncatedAtABlockBoundary) {
  std::string f = good().file();
  expect_error_raw(f.substr(0, f.size() - 32), "trunc_end", "without the end-of-trace record (RT_TRACE_END)");
}

TEST(TraceReader, RankOutOfRange) {
  Bytes b;
  b.header(2);
  b.begin(0);
  b.end(0, 0);
  b.begin(2);
  expect_error(b, "rank_range", "record block of rank 2, out of range [0, 2)");
}

TEST(TraceReader, CcsDestinationOutOfRange) {
  Bytes b;
  b.header(2);
  b.begin(0);
  b.ccs(0, 0, 7, 1);
  expect_error(b, "ccs_range", "destination rank 7 out of range");
}

TEST(TraceReader, ReceivesAreReadMergedAndSummarised) {
  Bytes b;
  b.header(2);
  b.begin(0);
  b.ccs(0, 0, 1, 64);
  b.end(0, 1);  // RT_RANK_END counts RT_CCS only
  b.begin(1, "n1");
  b.recv(0, 0, 1, 40);
  b.recv(0, 0, 1, 24, 2);  // the same step in two pieces: merged
  b.recv(3, 0, 1, 8);
  b.end(0, 0);
  Trace t = Trace::read(write_file("recvs", b));
  ASSERT_EQ(t.recvs.size(), 2u);
  EXPECT_EQ(t.recvs[0].step, 0u);
  EXPECT_EQ(t.recvs[0].src, 0);
  EXPECT_EQ(t.recvs[0].dst, 1);
  EXPECT_EQ(t.recvs[0].bytes, 64u);
  EXPECT_EQ(t.recvs[0].count, 3u);
  EXPECT_EQ(t.recvs[1].step, 3u);
  ASSERT_EQ(t.ccs.size(), 1u);
  std::ostringstream os;
  print_summary(t, os, 0);
  EXPECT_NE(os.str().find("4 receives recorded"), std::string::npos) << os.str();
}

TEST(TraceReader, KeepsEachSendersOrderWithinAStep) {
  // Rank 0 wrote step 0's sends in first-message order (to 2, then 1, then - a second piece of the step,
  // its table flushed - 2 again and 3) and step 1's to 3: CcsEntry::order counts per sender and step, a
  // merged entry keeps its first place; the entries stay sorted by (step, src, dst).
  Bytes b;
  b.header(4);
  b.begin(0);
  b.ccs(0, 0, 2, 10);
  b.ccs(0, 0, 1, 20);
  b.ccs(0, 0, 2, 5);
  b.ccs(0, 0, 3, 1);
  b.ccs(1, 0, 3, 7);
  b.end(0, 5);
  for (int r = 1; r < 4; ++r) {
    b.begin(r, "n" + std::to_string(r));
    b.end(0, 0);
  }
  Trace t = Trace::read(write_file("send_order", b));
  ASSERT_EQ(t.ccs.size(), 4u);
  const int dst[] = {1, 2, 3, 3};
  const uint32_t order[] = {1, 0, 3, 0};
  const uint64_t bytes[] = {20, 15, 1, 7};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(t.ccs[i].dst, dst[i]) << i;
    EXPECT_EQ(t.ccs[i].order, order[i]) << i;
    EXPECT_EQ(t.ccs[i].bytes, bytes[i]) << i;
  }
}

TEST(TraceReader, ReceiveInAnotherRanksSectionOrFromAMissingRank) {
  Bytes b;
  b.header(2);
  b.begin(0);
  b.recv(0, 1, 1, 8);  // rank 0's section holds a receive of rank 1
  expect_error(b, "recv_section", "RT_RECV destination rank 1 in the section of rank 0");
  Bytes c;
  c.header(2);
  c.begin(1);
  c.recv(0, 2, 1, 8);
  expect_error(c, "recv_range", "RT_RECV source rank 2 out of range [0, 2)");
}

TEST(TraceReader, WrongRecordLength) {
  Bytes b;
  b.header(1);
  b.begin(0);
  b.rec(RT_CLOCK, 8);
  b.raw(double(0));
  expect_error(b, "length", "RT_CLOCK has a payload of 8 bytes");
}

TEST(TraceReader, UndefinedCallsite) {
  Bytes b;
  b.header(1);
  b.begin(0);
  b.coll(0, 1, 2, 3);
  expect_error(b, "callsite", "call-site id 3");
}

TEST(TraceReader, EndCountMismatch) {
  Bytes b;
  b.header(1);
  b.begin(0);
  b.end(1, 0);
  expect_error(b, "endcount", "announces 1 RT_COLL");
}

TEST(TraceReader, MissingSectionsAreIncomplete) {
  Bytes b;
  b.header(3);
  b.begin(0);
  b.callsite(0, "x+0x1");
  b.coll(0, 1, 2);
  // no RT_RANK_END for rank 0, rank 1 missing, rank 2 complete
  b.begin(2);
  b.end(0, 0);
  Trace t = Trace::read(write_file("missing", b));
  EXPECT_FALSE(t.ranks[0].complete);
  EXPECT_FALSE(t.ranks[1].complete);
  EXPECT_TRUE(t.ranks[2].complete);
  ASSERT_EQ(t.colls.size(), 1u);
  EXPECT_DOUBLE_EQ(t.colls[0].t_entry, 1.0);  // no clock record: identity
}

TEST(TraceReader, UnknownRecordSkipped) {
  Bytes b;
  b.header(1);
  b.begin(0);
  b.rec(99, 3);
  b.str("abc");
  b.end(0, 0);
  Trace t = Trace::read(write_file("unknown", b));
  EXPECT_TRUE(t.ranks[0].complete);
}

TEST(TraceReader, MissingFile) {
  EXPECT_THROW(Trace::read("/nonexistent/arcoll.arctrace"), TraceError);
}
