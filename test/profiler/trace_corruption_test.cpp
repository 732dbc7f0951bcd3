// Checksummed blocks of the trace writer and the reader's defence against
// corrupted files: every flipped byte and every truncation of a trace is an
// error, checksum errors name the block, the rank and the offset, and counts
// read from the file never cause a large allocation.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <vector>

#include "trace_reader.hpp"
#include "trace_writer.hpp"

// Largest single allocation while `g_track` is set (operator new replaced).
static std::atomic<bool> g_track{false};
static std::atomic<size_t> g_max_alloc{0};
void *operator new(size_t n) {
  if (g_track.load(std::memory_order_relaxed)) {
    size_t m = g_max_alloc.load();
    while (n > m && !g_max_alloc.compare_exchange_weak(m, n)) {
    }
  }
  if (void *p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }

using namespace arcoll::trace;

namespace {

std::string slurp(const std::string &p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}
std::string tmp(const std::string &name) { return ::testing::TempDir() + "arcoll_corrupt_" + name; }
std::string write(const std::string &name, const std::string &bytes) {
  std::string p = tmp(name + ".arctrace");
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
  return p;
}

/** `nranks` sections written by RecordWriter with a `buffer`-byte buffer
 *  (small: several blocks per rank), each with `ncoll` bcasts, CCS entries to
 *  the next rank and, on rank 0, a communicator of `comm_size` members. */
std::string trace_bytes(uint32_t nranks, int ncoll, size_t buffer, uint32_t comm_size = 2) {
  arcoll_trace_file_header h = make_file_header(nranks, 1.7e9, 0);
  std::string file(reinterpret_cast<const char *>(&h), sizeof h);
  for (uint32_t r = 0; r < nranks; ++r) {
    RecordWriter w(buffer);
    const std::string part = tmp("part" + std::to_string(r));
    EXPECT_TRUE(w.open(part, r)) << w.error();
    const std::string host = "node" + std::to_string(r);
    arcoll_rec_rank_begin rb{int32_t(r), 7, uint32_t(host.size()), 0};
    w.record2(RT_RANK_BEGIN, &rb, sizeof rb, host.data(), uint32_t(host.size()));
    if (r == 0) {
      std::vector<int32_t> members(comm_size);
      for (uint32_t i = 0; i < comm_size; ++i) members[i] = int32_t(i % nranks);
      unsigned char head[16] = {0};
      head[0] = 42;
      std::memcpy(head + 8, &comm_size, 4);
      w.record2(RT_COMM, head, 16, members.data(), uint32_t(4 * comm_size));
    }
    uint32_t id = 0;
    w.record2(RT_CALLSITE, &id, 4, "app+0x10", 8);
    for (int k = 0; k < ncoll; ++k) {
      arcoll_rec_coll c{};
      c.seq = uint64_t(k);
      c.bytes = 1000u + uint64_t(k);
      c.step = uint64_t(k);
      c.t_entry = 1.0 + k;
      c.t_exit = 1.5 + k;
      c.op = OP_BCAST;
      w.record(RT_COLL, &c, sizeof c);
      arcoll_rec_ccs e{uint64_t(k), int32_t(r), int32_t((r + 1) % nranks), 64, 1, 0};
      w.record(RT_CCS, &e, sizeof e);
    }
    uint64_t end[2] = {uint64_t(ncoll), uint64_t(ncoll)};
    w.record(RT_RANK_END, end, sizeof end);
    EXPECT_TRUE(w.close()) << w.error();
    file += slurp(part).substr(0, w.committed());
  }
  return file + encode_trace_end(file.size(), nranks);
}

size_t count_blocks(const std::string &f) {
  size_t n = 0;
  for (size_t off = sizeof(arcoll_trace_file_header); off + 8 <= f.size();) {
    arcoll_record_header rh;
    std::memcpy(&rh, &f[off], 8);
    n += rh.type == RT_BLOCK;
    off += 8 + rh.length;
  }
  return n;
}

std::string error_of(const std::string &path) {
  try {
    Trace::read(path);
  } catch (const TraceError &e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(TraceBlocks, WriterSplitsSectionsIntoBlocksAndTheReaderJoinsThem) {
  std::string f = trace_bytes(3, 20, 256);
  EXPECT_GE(count_blocks(f), 3u * 8) << "20 x (72 + 40) bytes per rank in 256-byte blocks";
  Trace t = Trace::read(write("blocks", f));
  ASSERT_EQ(t.nranks, 3);
  ASSERT_EQ(t.colls.size(), 60u);
  ASSERT_EQ(t.ccs.size(), 60u);
  for (int r = 0; r < 3; ++r) EXPECT_TRUE(t.ranks[r].complete);
  EXPECT_EQ(t.ranks[2].host, "node2");
  EXPECT_EQ(t.colls[59].bytes, 1019u);
  EXPECT_EQ(t.colls[59].rank, 2);
}

TEST(TraceBlocks, ARecordLargerThanTheBufferGetsItsOwnBlock) {
  Trace t = Trace::read(write("large", trace_bytes(2, 3, 256, 1000)));  // RT_COMM of 4016 bytes
  ASSERT_EQ(t.comms.size(), 1u);
  EXPECT_EQ(t.comms[0].world_ranks.size(), 1000u);
  EXPECT_EQ(t.comms[0].world_ranks[999], 1);
}

TEST(TraceBlocks, DiskFullCommitsNothingAndSaysWhy) {
  RecordWriter w(256);
  ASSERT_TRUE(w.open("/dev/full", 0));
  arcoll_rec_ccs e{};
  bool ok = true;
  for (int i = 0; i < 20 && ok; ++i) ok = w.record(RT_CCS, &e, sizeof e);
  EXPECT_FALSE(ok);
  EXPECT_TRUE(w.failed());
  EXPECT_EQ(w.committed(), 0u);
  EXPECT_NE(w.error().find("No space"), std::string::npos) << w.error();
}

TEST(TraceBlocks, EveryFlippedByteIsAnError) {
  const std::string good = trace_bytes(2, 4, 256);
  const std::string path = tmp("flipped.arctrace");
  ASSERT_NO_THROW(Trace::read(write("flipped", good)));
  for (size_t i = 0; i < good.size(); ++i)
    for (unsigned char mask : {0x01, 0x80}) {
      std::string f = good;
      f[i] = char(f[i] ^ mask);
      std::ofstream(path, std::ios::binary | std::ios::trunc) << f;
      std::string e = error_of(path);
      EXPECT_NE(e.find(path), std::string::npos) << "byte " << i << " ^ " << int(mask) << " accepted: " << e;
    }
}

TEST(TraceBlocks, EveryTruncationIsAnError) {
  const std::string good = trace_bytes(2, 4, 256);
  const std::string path = tmp("cut.arctrace");
  for (size_t n = 0; n < good.size(); ++n) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << good.substr(0, n);
    std::string e = error_of(path);
    EXPECT_NE(e.find("truncated"), std::string::npos) << "cut at " << n << ": " << e;
  }
}

TEST(TraceBlocks, ChecksumMismatchNamesTheBlockTheRankAndTheOffset) {
  std::string f = trace_bytes(2, 4, 1 << 20);  // one block per rank
  // Rank 1's block starts after the header and rank 0's block.
  arcoll_record_header rh;
  std::memcpy(&rh, &f[sizeof(arcoll_trace_file_header)], 8);
  const size_t b1 = sizeof(arcoll_trace_file_header) + 8 + rh.length;
  std::memcpy(&rh, &f[b1], 8);
  f[b1 + 100] ^= 0x04;
  const std::string path = write("mismatch", f);
  EXPECT_EQ(error_of(path), "arcoll trace " + path + ": checksum mismatch in record block 0 of the section of rank 1 (bytes " +
                                std::to_string(b1) + ".." + std::to_string(b1 + 8 + rh.length) + ") at byte offset " +
                                std::to_string(b1) + " of " + path +
                                " (the trace is corrupted; re-record it: run the program again with "
                                "LD_PRELOAD=libarcoll_profiler.so)");
  f = trace_bytes(2, 4, 1 << 20);
  f[20] ^= 0x01;  // `created` in the header
  EXPECT_NE(error_of(write("header", f)).find("checksum mismatch in the file header at byte offset 0"), std::string::npos);
}

// A header announcing 11.5 million ranks once made the reader allocate
// ~1.1 GB before failing; counts inside records likewise must be checked
// against the bytes that hold them before anything is allocated.
TEST(TraceBlocks, HugeCountsAreRejectedBeforeAllocating) {
  struct Case {
    const char *name, *expect;
    std::string bytes;
  };
  std::vector<Case> cases;
  for (uint32_t n : {11500000u, 0xFFFFFFFFu}) {
    std::string f = trace_bytes(2, 2, 256);
    std::memcpy(&f[12], &n, 4);
    uint64_t sum = checksum64(f.data(), 32);
    std::memcpy(&f[32], &sum, 8);
    cases.push_back({"nranks", "header field nranks = ", f});
  }
  // Records whose count fields exceed their payload, in correctly checksummed blocks.
  auto sealed = [](uint32_t type, const std::string &payload, bool begin = true) {
    arcoll_trace_file_header h = make_file_header(1, 0, 0);
    std::string recs;
    arcoll_rec_rank_begin rb{0, 1, 0, 0};
    arcoll_record_header r0{RT_RANK_BEGIN, sizeof rb}, r1{type, uint32_t(payload.size())};
    if (begin) recs.append(reinterpret_cast<const char *>(&r0), 8).append(reinterpret_cast<const char *>(&rb), sizeof rb);
    recs.append(reinterpret_cast<const char *>(&r1), 8) += payload;
    std::string f = std::string(reinterpret_cast<const char *>(&h), sizeof h) + encode_block(0, 0, recs.data(), recs.size());
    return f + encode_trace_end(f.size(), 1);
  };
  std::string comm(16, '\0'), names(4, '\0');
  comm[8] = comm[9] = comm[10] = '\xff', comm[11] = '\x3f';
  names[0] = names[1] = names[2] = names[3] = '\xff';
  cases.push_back({"comm", "RT_COMM member count field 1073741823", sealed(RT_COMM, comm)});
  cases.push_back({"names", "RT_COUNTER_NAMES count field 4294967295", sealed(RT_COUNTER_NAMES, names + "a")});
  std::string host(sizeof(arcoll_rec_rank_begin), '\0');
  host[8] = host[9] = host[10] = '\xff';  // host_len 16777215
  cases.push_back({"host", "host name length field 16777215", sealed(RT_RANK_BEGIN, host, false)});
  for (const Case &c : cases) {
    const std::string path = write(std::string("huge_") + c.name, c.bytes);
    g_max_alloc = 0;
    g_track = true;
    std::string e = error_of(path);
    g_track = false;
    EXPECT_NE(e.find(c.expect), std::string::npos) << e;
    EXPECT_NE(e.find("at byte offset"), std::string::npos) << e;
    EXPECT_LT(g_max_alloc.load(), size_t(64) << 10) << c.name << ": largest allocation while reading";
  }
}
