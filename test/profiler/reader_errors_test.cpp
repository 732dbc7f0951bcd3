// Unit tests of the trace reader (Trace::read) on synthesized corrupt traces (trace_bytes.hpp): every
// error names the file, the offset and a fix; the good traces: reader_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "trace_bytes.hpp"

using namespace arcoll::trace;
using namespace arcoll::trace::test;

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
