// Unit tests of the one trace reader (Trace::read) and of print_summary on synthesized good traces
// (trace_bytes.hpp); the corrupt ones: reader_errors_test.cpp.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "summary.hpp"
#include "trace_bytes.hpp"

using namespace arcoll::trace;
using namespace arcoll::trace::test;

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

TEST(TraceReader, ReceivesAreReadMergedAndSummarised) {
  Bytes b;
  b.header(2);
  b.begin(0);
  b.ccs(0, 0, 1, 64);
  b.end(0, 1);  // RT_RANK_END counts RT_CCS only
  b.begin(1, "n1");
  b.recv(0, 0, 1, 40, 1, 1);  // by MPI_Recv (arcoll_rec_ccs::blocking)
  b.recv(0, 0, 1, 24, 2);     // the same step in two pieces: merged
  b.recv(3, 0, 1, 8, 1, 5);   // a count above the messages': capped at them
  b.end(0, 0);
  Trace t = Trace::read(write_file("recvs", b));
  ASSERT_EQ(t.recvs.size(), 2u);
  EXPECT_EQ(t.recvs[0].step, 0u);
  EXPECT_EQ(t.recvs[0].src, 0);
  EXPECT_EQ(t.recvs[0].dst, 1);
  EXPECT_EQ(t.recvs[0].bytes, 64u);
  EXPECT_EQ(t.recvs[0].count, 3u);
  EXPECT_EQ(t.recvs[0].blocking, 1u);
  EXPECT_EQ(t.recvs[1].step, 3u);
  EXPECT_EQ(t.recvs[1].blocking, 1u);
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
