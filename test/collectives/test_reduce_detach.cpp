// The detaching reduce's parent rule (collectives/reduce_detach.h, arcoll_red_detach_observe): a child
// gets the notice after calls_needed consecutive late calls of its own, not when its lateness is its
// child's (the marker), one child at a time per parent, never a detached one; and the tree's parents.
#include <gtest/gtest.h>

#include <vector>

#include "reduce_detach.h"
#include "tree_extra.h"

namespace {

struct State {
  std::vector<unsigned char> view;
  std::vector<unsigned short> late;
  arcoll_red_detach_t d{};
  State(int P, double late_s, int calls) : view(P, 0), late(P, 0) {
    d.P = P, d.asked = -1, d.late_s = late_s, d.calls_needed = calls;
    d.view = view.data(), d.late = late.data();
  }
};

}  // namespace

TEST(ReduceDetach, NoticeAfterConsecutiveLateCallsOnly) {
  State s(8, 1e-4, 3);
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 3, 2e-4, 0), 0);
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 3, 2e-4, 0), 0);
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 3, 5e-5, 0), 0);  // on time: the count starts again
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 3, 2e-4, 0), 0);
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 3, 2e-4, 0), 0);
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 3, 2e-4, 0), 1);
  EXPECT_EQ(s.late[3], 3);
}

TEST(ReduceDetach, AChildThatWaitedForItsOwnChildIsNotLate) {
  State s(8, 1e-4, 2);
  for (int call = 0; call < 5; ++call) EXPECT_EQ(arcoll_red_detach_observe(&s.d, 2, 1e-3, 1), 0);
  EXPECT_EQ(s.late[2], 0);
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 2, 1e-3, 0), 0);
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 2, 1e-3, 1), 0);  // the marker resets the count
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 2, 1e-3, 0), 0);
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 2, 1e-3, 0), 1);
}

TEST(ReduceDetach, OneChildAtATimeAndNeverADetachedOneOrTheRoot) {
  State s(8, 1e-4, 1);
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 4, 1e-3, 0), 1);
  s.d.asked = 4;  // the body records the notice it sent
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 6, 1e-3, 0), 0);  // late too, but 4 has not detached yet
  s.view[4] = 1;                                              // 4 announced itself
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 6, 1e-3, 0), 1);
  State t(8, 1e-4, 1);
  t.view[5] = 1;
  EXPECT_EQ(arcoll_red_detach_observe(&t.d, 5, 1e-3, 0), 0);  // already sends to the root
  EXPECT_EQ(arcoll_red_detach_observe(&t.d, 0, 1e-3, 0), 0);  // position 0 is the root
  EXPECT_EQ(arcoll_red_detach_observe(&t.d, 8, 1e-3, 0), 0);  // no such position
}

TEST(ReduceDetach, AParentDetachesAtMostTwoChildren) {
  State s(16, 1e-4, 1);
  for (int c : {3, 5}) {
    EXPECT_EQ(arcoll_red_detach_observe(&s.d, c, 1e-3, 0), 1) << c;
    s.d.asked = c, s.view[c] = 1, ++s.d.children_detached;  // the body's bookkeeping
  }
  EXPECT_EQ(arcoll_red_detach_observe(&s.d, 7, 1e-3, 0), 0);  // late, but two have detached
  EXPECT_EQ(s.late[7], 1);
}

TEST(ReduceDetach, ParentsOfTheKnomialTree) {
  // radix 2 (binomial): clear the lowest set bit; radix 8 over 64 positions: 12 -> 8, 8 -> 0, 63 -> 56
  EXPECT_EQ(arcoll_knomial_parent_pos(1, 2), 0);
  EXPECT_EQ(arcoll_knomial_parent_pos(6, 2), 4);
  EXPECT_EQ(arcoll_knomial_parent_pos(12, 2), 8);
  EXPECT_EQ(arcoll_knomial_parent_pos(12, 8), 8);
  EXPECT_EQ(arcoll_knomial_parent_pos(8, 8), 0);
  EXPECT_EQ(arcoll_knomial_parent_pos(63, 8), 56);
  EXPECT_EQ(arcoll_knomial_parent_pos(5, 3), 3);  // 5 = 12 in base 3 -> 10 = 3
  EXPECT_EQ(arcoll_knomial_parent_pos(0, 2), -1);  // the root has none
  EXPECT_EQ(arcoll_knomial_parent_pos(5, 1), -1);  // no radix below 2
}
