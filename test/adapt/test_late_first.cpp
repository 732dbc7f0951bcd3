// Unit tests of adapt/late_first.c: how many records the first lateness
// exchange of a bcast / scatter waits for unconditionally, and how long it
// waits for the rest.  No MPI.
#include <gtest/gtest.h>

#include <cmath>

extern "C" {
#include "late_first.h"
}

TEST(LateFirst, SmallCommunicatorsWaitForEveryRecord) {
  for (int P = 1; P < 16; ++P) EXPECT_EQ(arcoll_late_first_spare(P), 0) << "P=" << P;
}

TEST(LateFirst, TheSpareGrowsWithTheCommunicator) {
  const int known[][2] = {{16, 1}, {31, 1}, {32, 2}, {64, 3}, {256, 9}};  // {P, spare}
  for (const auto &k : known) EXPECT_EQ(arcoll_late_first_spare(k[0]), k[1]) << "P=" << k[0];
  for (int P = 16; P <= 4096; ++P) { // a few of P - 1, never all
    const int s = arcoll_late_first_spare(P);
    EXPECT_GE(s, 1);
    EXPECT_LT(s, (P - 1) / 8 + 2) << "P=" << P;
  }
}

TEST(LateFirst, PatienceIsTwiceTheBulkAtLeastTheFloor) {
  EXPECT_DOUBLE_EQ(arcoll_late_first_patience(300e-6, 50e-6), ARCOLL_LATE_FIRST_PATIENCE * 300e-6);
  EXPECT_DOUBLE_EQ(arcoll_late_first_patience(10e-6, 264e-6), 264e-6); // the floor
  EXPECT_DOUBLE_EQ(arcoll_late_first_patience(0.0, 1e-4), 1e-4);
  EXPECT_DOUBLE_EQ(arcoll_late_first_patience(2e-4, 0.0), ARCOLL_LATE_FIRST_PATIENCE * 2e-4);
}

TEST(LateFirst, NoPatienceWithoutAMeasureOrAFloor) {
  EXPECT_EQ(arcoll_late_first_patience(0.0, 0.0), 0.0);
  EXPECT_EQ(arcoll_late_first_patience(-1.0, -1.0), 0.0);
  EXPECT_EQ(arcoll_late_first_patience(NAN, NAN), 0.0);
  EXPECT_DOUBLE_EQ(arcoll_late_first_patience(NAN, 3e-5), 3e-5);
}
