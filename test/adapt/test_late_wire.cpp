// Unit tests of the records' compact wire format (adapt/late_wire.h):
// round trips within the stated precision, sizes, unfilled slots, and
// rejection of bytes that are not a packed message.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

extern "C" {
#include "late_wire.h"
}

namespace {

// n consecutive calls of one site and root, `period` seconds apart, each
// `dur` long, entered `gap` after the previous exit, starting at t0.
arcoll_late_msg_t calls(int n, double t0, double dur, double gap, uint64_t first_call) {
  arcoll_late_msg_t m{};
  m.n = n;
  m.first_call = first_call;
  double t = t0;
  for (int j = 0; j < n; ++j) {
    arcoll_late_record_t &r = m.rec[j];
    r.entry = t;
    r.exit = t + dur + 1e-6 * j;  // durations differ
    r.gap = j ? gap : 0.0;
    r.site = 0x1234567890abcdefULL;
    r.pos = 17;
    r.root = 3;
    r.t_level = 2.5e-5f;
    r.flags = ARCOLL_LATE_VALID | (j == 2 ? ARCOLL_LATE_CHAIN : 0) | (j == 3 ? ARCOLL_LATE_BINARY : 0) |
              (j == 4 ? ARCOLL_LATE_BINARY | ARCOLL_LATE_TRIAL : 0);
    t = r.exit + gap;
  }
  return m;
}

void expect_near(const arcoll_late_msg_t &a, const arcoll_late_msg_t &b, double tol) {
  ASSERT_EQ(a.n, b.n);
  EXPECT_EQ(a.first_call, b.first_call);
  for (int j = 0; j < a.n; ++j) {
    SCOPED_TRACE(j);
    EXPECT_EQ(a.rec[j].flags, b.rec[j].flags);
    EXPECT_EQ(a.rec[j].site, b.rec[j].site);
    EXPECT_EQ(a.rec[j].pos, b.rec[j].pos);
    EXPECT_EQ(a.rec[j].root, b.rec[j].root);
    EXPECT_EQ(a.rec[j].t_level, b.rec[j].t_level);
    EXPECT_NEAR(a.rec[j].entry, b.rec[j].entry, tol);
    EXPECT_NEAR(a.rec[j].exit, b.rec[j].exit, tol);
    EXPECT_NEAR(a.rec[j].gap, b.rec[j].gap, tol);
  }
}

TEST(LateWire, OneSiteRoundTripsIn141BytesWithinANanosecond) {
  // an hour into the run (large absolute times), calls 0.2 ms apart
  const arcoll_late_msg_t m = calls(ARCOLL_LATE_SAMPLES, 3600.123456789, 1.8e-4, 2e-5, 1000);
  unsigned char buf[ARCOLL_LATE_WIRE_MAX];
  const int bytes = arcoll_late_msg_pack(&m, buf);
  EXPECT_EQ(bytes, 17 + 33 + 13 * (ARCOLL_LATE_SAMPLES - 1));
  EXPECT_LT(bytes, (int)sizeof m);
  arcoll_late_msg_t back;
  ASSERT_EQ(arcoll_late_msg_unpack(buf, bytes, &back), 0);
  expect_near(m, back, 1e-9);
}

TEST(LateWire, CallsSecondsApartStayWithinAMicrosecond) {
  const arcoll_late_msg_t m = calls(ARCOLL_LATE_SAMPLES, 50.0, 0.5, 9.75, 8);
  unsigned char buf[ARCOLL_LATE_WIRE_MAX];
  arcoll_late_msg_t back;
  ASSERT_EQ(arcoll_late_msg_unpack(buf, arcoll_late_msg_pack(&m, buf), &back), 0);
  expect_near(m, back, 1e-6);
}

TEST(LateWire, ChangingSitesAndUnfilledSlotsKeepTheirFields) {
  arcoll_late_msg_t m = calls(ARCOLL_LATE_SAMPLES, 1.0, 1e-4, 1e-5, 0);
  m.rec[3].site = 42, m.rec[3].root = 5, m.rec[3].pos = 0;  // another site and root
  m.rec[4].t_level = 1e-3f;                                  // another size
  m.rec[6] = arcoll_late_record_t{};                         // never filled
  m.rec[7].flags = ARCOLL_LATE_OTHER;                        // unmeasured, still timed
  unsigned char buf[ARCOLL_LATE_WIRE_MAX];
  const int bytes = arcoll_late_msg_pack(&m, buf);
  // with their place: 0, 3 (new site), 4 (site back, other t_level), 5 (t_level
  // back); repeated: 1, 2 (other flags, same place), 7 (as 5, the last one
  // with times before the unfilled 6, whose flags byte is all it takes)
  EXPECT_EQ(bytes, 17 + 33 + 13 + 13 + 33 + 33 + 33 + 1 + 13);
  arcoll_late_msg_t back;
  ASSERT_EQ(arcoll_late_msg_unpack(buf, bytes, &back), 0);
  expect_near(m, back, 1e-9);
  EXPECT_EQ(back.rec[6].flags, 0);
  EXPECT_EQ(back.rec[6].entry, 0.0);
}

TEST(LateWire, EmptyMessage) {
  arcoll_late_msg_t m{};
  m.first_call = 77;
  unsigned char buf[ARCOLL_LATE_WIRE_MAX];
  const int bytes = arcoll_late_msg_pack(&m, buf);
  EXPECT_EQ(bytes, 17);
  arcoll_late_msg_t back;
  ASSERT_EQ(arcoll_late_msg_unpack(buf, bytes, &back), 0);
  EXPECT_EQ(back.n, 0);
  EXPECT_EQ(back.first_call, 77u);
}

TEST(LateWire, RejectsWhatIsNotAPackedMessage) {
  const arcoll_late_msg_t m = calls(4, 1.0, 1e-4, 1e-5, 0);
  unsigned char buf[ARCOLL_LATE_WIRE_MAX + 8];
  const int bytes = arcoll_late_msg_pack(&m, buf);
  arcoll_late_msg_t back;
  for (int cut = 0; cut < bytes; ++cut) {  // truncated anywhere
    SCOPED_TRACE(cut);
    EXPECT_EQ(arcoll_late_msg_unpack(buf, cut, &back), -1);
    EXPECT_EQ(back.n, 0);
  }
  EXPECT_EQ(arcoll_late_msg_unpack(buf, bytes + 1, &back), -1);  // trailing byte
  std::vector<unsigned char> b(buf, buf + bytes);
  b[0] = ARCOLL_LATE_SAMPLES + 1;  // too many records
  EXPECT_EQ(arcoll_late_msg_unpack(b.data(), bytes, &back), -1);
  b.assign(buf, buf + bytes);
  b[17] |= ARCOLL_LATE_WIRE_SAME;  // record 0 cannot repeat a predecessor
  EXPECT_EQ(arcoll_late_msg_unpack(b.data(), bytes, &back), -1);
  b.assign(buf, buf + bytes);
  b[17] |= 0x40;  // flag bits no record has
  EXPECT_EQ(arcoll_late_msg_unpack(b.data(), bytes, &back), -1);
}

TEST(LateWire, PackRefusesCountsAndFlagsOutOfRange) {
  arcoll_late_msg_t m = calls(2, 1.0, 1e-4, 1e-5, 0);
  unsigned char buf[ARCOLL_LATE_WIRE_MAX];
  m.rec[1].flags = 0x40;
  EXPECT_EQ(arcoll_late_msg_pack(&m, buf), -1);
  m = calls(2, 1.0, 1e-4, 1e-5, 0);
  m.n = ARCOLL_LATE_SAMPLES + 1;
  EXPECT_EQ(arcoll_late_msg_pack(&m, buf), -1);
  m.n = -1;
  EXPECT_EQ(arcoll_late_msg_pack(&m, buf), -1);
}

}  // namespace
