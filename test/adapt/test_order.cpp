// Unit tests of adapt/order.c (lateness history, site prediction, order) and
// adapt/site.c; adapt/config.c: test_config.cpp.
#include <gtest/gtest.h>

#include <mpi.h>  // before the extern "C" block (mpicxx.h)

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" {
#include "config.h"
#include "order.h"
#include "site.h"
#include "tree.h"
}

namespace {

struct History {
  arcoll_history_t h;
  explicit History(int P, double alpha = 0.5) { EXPECT_EQ(arcoll_history_init(&h, P, alpha), 0); }
  ~History() { arcoll_history_free(&h); }
};

// A summary group: (site, root), t_level, noise, and {rank, lateness} pairs.
arcoll_late_group_t group(uint64_t site, int root, double t_level,
                          std::vector<std::pair<int, double>> late, double noise = 0.0) {
  arcoll_late_group_t g{};
  g.site = site;
  g.root = root;
  g.t_level = (float)t_level;
  g.noise = (float)noise;
  for (auto &x : late) g.late[g.n].rank = x.first, g.late[g.n].lateness = (float)x.second, ++g.n;
  return g;
}

// Fold g and record its (site, root) as sampled call `call`.
int fold(History &H, const arcoll_late_group_t &g, uint64_t call) {
  int changed = -1;
  EXPECT_EQ(arcoll_history_fold(&H.h, &g, &changed), 0);
  arcoll_history_push(&H.h, call, g.site, g.root);
  return changed;
}

std::vector<int> order_of(History &H, uint64_t call, int root) {
  const int *o = arcoll_history_order(&H.h, call, root);
  std::vector<int> v(H.h.P);
  for (int i = 0; i < H.h.P; ++i) v[i] = o ? o[i] : (root + i) % H.h.P;
  return v;
}

// Position of `rank` in `order`, -1 if absent.
int where(const std::vector<int> &order, int rank) {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] == rank) return (int)i;
  return -1;
}

TEST(Order, ClassicWithoutHistory) {
  History H(8);
  EXPECT_EQ(arcoll_history_order(&H.h, 0, 3), nullptr);
}

// A late inner rank swaps with the shallowest leaf of its own subtree whose
// parent has no other child: a neighbour in the order takes the inner place
// (the subtree stays where it was on a machine numbered by node and switch)
// and the late rank's parent is a neighbour too; a late leaf stays.
TEST(Order, LateRankTakesTheShallowestLeafOfItsOwnSubtreeWhoseParentHasNoOtherChild) {
  const int P = 64;
  History H(P);
  // 24: subtree [24, 32), leaf 25 is a child of 24 itself, 27 of 26 alone; 33: a leaf;
  // 48: subtree [48, 64), 51 (child of 50 alone)
  fold(H, group(42, 0, 1e-5, {{24, 1e-3}, {33, 2e-3}, {48, 0.5e-3}}), 0);
  auto order = order_of(H, 1, 0);
  EXPECT_EQ(where(order, 24), 27);
  EXPECT_EQ(order[24], 27);
  EXPECT_EQ(where(order, 33), 33);
  EXPECT_EQ(where(order, 48), 51);
  EXPECT_EQ(order[48], 51);
  for (int i = 0; i < P; ++i)
    if (i != 24 && i != 27 && i != 48 && i != 51) EXPECT_EQ(order[i], i) << i;
  // the parent of each late rank's leaf forwards to it alone
  for (int pos : {27, 51}) EXPECT_EQ(arcoll_binomial_subtree_size(pos - 1, P), 2) << pos;
}

// Where the leaves whose parent has no other child are taken, the shallowest
// free leaf of the subtree (its head's own leaf child).
TEST(Order, ALateRankWhoseSubtreesLoneLeavesAreTakenTakesTheShallowestFreeLeaf) {
  const int P = 8;
  History H(P);
  // rank 4 (subtree [4, 8)): leaf 7 is its only leaf under a lone parent (6);
  // rank 6 (subtree [6, 8)), later, takes it first; then 4 takes 5
  fold(H, group(1, 0, 1e-5, {{6, 2e-3}, {4, 1e-3}}), 0);
  auto order = order_of(H, 1, 0);
  EXPECT_EQ(where(order, 6), 7);
  EXPECT_EQ(where(order, 4), 5);
  for (int r : {4, 6}) EXPECT_EQ(arcoll_binomial_subtree_size(where(order, r), P), 1) << r;
}

TEST(Order, LateRankBecomesLeaf) {
  for (int P : {3, 5, 8, 13, 64, 256}) {
    History H(P);
    const int late = P / 2;
    EXPECT_EQ(fold(H, group(42, 0, 1e-5, {{late, 1e-3}}), 0), 1);
    ASSERT_NE(arcoll_history_order(&H.h, 1, 0), nullptr) << P;
    auto order = order_of(H, 1, 0);
    EXPECT_EQ(order[0], 0);
    const int pos = where(order, late);
    EXPECT_EQ(arcoll_binomial_subtree_size(pos, P), 1) << "P=" << P;  // a leaf
    // every other rank keeps its classic position, except the one whose leaf
    // the late rank took (it moves to the late rank's classic position)
    int moved = 0;
    for (int i = 0; i < P; ++i)
      if (order[i] != i && order[i] != late) {
        ++moved;
        EXPECT_EQ(i, late) << "P=" << P << ": rank " << order[i] << " moved to " << i;
      }
    EXPECT_LE(moved, 1);
    std::vector<int> sorted(order);
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < P; ++i) EXPECT_EQ(sorted[i], i);  // a permutation
    // another root has no history: the classic order
    EXPECT_EQ(arcoll_history_order(&H.h, 1, 1), nullptr);
  }
}

TEST(Order, LatenessBelowTheThresholdIsIgnored) {
  History H(8);
  // t_level 1 ms: 0.2 ms of caused lateness is jitter
  EXPECT_EQ(fold(H, group(7, 2, 1e-3, {{0, 2e-4}, {5, 1e-4}}), 0), 0);
  EXPECT_EQ(arcoll_history_order(&H.h, 1, 2), nullptr);
  // t_level 0.15 ms, second fold (alpha 0.5): ewma(0) = 0.5 * 2e-4 + 0.5 * 4e-4 = 3e-4: late;
  // rank 5: 1e-4 -> 1e-4: not late
  History H2(8);
  fold(H2, group(7, 2, 1.5e-4, {{0, 2e-4}, {5, 1e-4}}), 0);
  EXPECT_EQ(fold(H2, group(7, 2, 1.5e-4, {{0, 4e-4}, {5, 1e-4}}), 1), 0);  // already late
  auto a = order_of(H2, 2, 2);
  EXPECT_EQ(a[H2.h.positions[7]], 0);  // rank 0 (classic position 6, subtree of 2): last leaf
  EXPECT_EQ(where(a, 5), 3);           // rank 5: classic place
  int moved = 0;
  for (int i = 0; i < 8; ++i) moved += a[i] != (2 + i) % 8;
  EXPECT_EQ(moved, 2);  // one swap
}

TEST(Order, NoiseLevelRaisesTheThreshold) {
  History H(64);
  // 31 ranks with 100-190 us, noise level (the 33rd largest) 100 us: a rank
  // needs more than 200 us to be late; rank 9 at 1 ms is
  std::vector<std::pair<int, double>> l{{9, 1e-3}};
  for (int r = 10; r < 41; ++r) l.push_back({r, 1.9e-4 - 3e-6 * (r - 10)});
  EXPECT_EQ(fold(H, group(1, 0, 1e-6, l, 1e-4), 0), 1);
  EXPECT_EQ(H.h.entries[0].nlate, 1);
  EXPECT_EQ(H.h.entries[0].late[9], 1);
}

TEST(Order, HysteresisKeepsALateRankUntilHalfTheThreshold) {
  History H(8, 1.0);  // alpha 1: the ewma is the last summary
  EXPECT_EQ(fold(H, group(1, 0, 1e-4, {{4, 3e-4}}), 0), 1);
  EXPECT_EQ(fold(H, group(1, 0, 1e-4, {{4, 0.6e-4}}), 1), 0);  // above 0.5e-4: stays late
  EXPECT_NE(arcoll_history_order(&H.h, 2, 0), nullptr);
  EXPECT_EQ(fold(H, group(1, 0, 1e-4, {{4, 0.4e-4}}), 2), 1);  // below: on time again
  EXPECT_EQ(arcoll_history_order(&H.h, 3, 0), nullptr);
  EXPECT_EQ(fold(H, group(1, 0, 1e-4, {{4, 0.8e-4}}), 3), 0);  // not late: below the threshold
}

TEST(Order, SeveralLateRanksTakeLeavesLatestLast) {
  const int P = 16;
  History H(P);
  // ranks 2, 4, 8 (subtrees of 2, 4, 8 in the classic order) caused 9, 8, 7 ms
  fold(H, group(1, 0, 1e-5, {{2, 9e-3}, {4, 8e-3}, {8, 7e-3}}), 0);
  auto order = order_of(H, 1, 0);
  for (int r : {2, 4, 8}) EXPECT_EQ(arcoll_binomial_subtree_size(where(order, r), P), 1) << r;
  // each takes the shallowest leaf of its own subtree under a parent with no
  // other child: positions 3 (of [2, 4)), 7 (of [4, 8)), 11 (of [8, 16));
  // the rank there takes its place
  EXPECT_EQ(where(order, 2), 3);
  EXPECT_EQ(where(order, 4), 7);
  EXPECT_EQ(where(order, 8), 11);
  EXPECT_EQ(order[2], 3);
  EXPECT_EQ(order[4], 7);
  EXPECT_EQ(order[8], 11);
  int moved = 0;
  for (int i = 0; i < P; ++i) moved += order[i] != i;
  EXPECT_EQ(moved, 6);  // three swaps, nothing else moves
}

TEST(Order, EwmaFollowsNewLateRank) {
  History H(8, 0.5);
  for (int i = 0; i < 3; ++i) fold(H, group(9, 0, 1e-4, {{4, 1e-3}}), i);
  for (int i = 3; i < 9; ++i) fold(H, group(9, 0, 1e-4, {{6, 1e-3}}), i);
  // rank 4's remaining 1e-3 / 2^6 = 16 us of EWMA lateness is below 50 us
  auto order = order_of(H, 9, 0);
  EXPECT_EQ(where(order, 6), H.h.positions[7]);  // the latest rank is on the last leaf
  EXPECT_EQ(where(order, 4), 4);                  // rank 4 is on time again: classic place
}

TEST(Order, TowardTheRootLateRanksTakeTheShallowestLeafOfTheirOwnSubtreeElseNearTheRoot) {
  const int P = 16;
  History H(P);
  arcoll_history_set_up(&H.h);
  // ranks 8 (subtree 8..15), 4 (subtree 4..7), 3 (a leaf) caused 3, 2, 1 ms
  fold(H, group(1, 0, 1e-5, {{8, 3e-3}, {4, 2e-3}, {3, 1e-3}}), 0);
  auto order = order_of(H, 1, 0);
  for (int r : {8, 4}) {  // a leaf of the subtree it headed: its neighbours stay together
    const int size = arcoll_binomial_subtree_size(r, P);
    EXPECT_EQ(arcoll_binomial_subtree_size(where(order, r), P), 1) << r;
    EXPECT_GT(where(order, r), r) << r;
    EXPECT_LT(where(order, r), r + size) << r;
    // the shallowest one (fewest ancestors forward its data): r + 1
    EXPECT_EQ(where(order, r), r + 1) << r;
  }
  EXPECT_EQ(where(order, 3), 3);  // already on a leaf: stays
  // whoever took an inner place came from the same subtree
  EXPECT_GE(order[8], 8);
  EXPECT_GE(order[4], 4);
  EXPECT_LT(order[4], 8);
  std::vector<int> sorted(order);
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < P; ++i) EXPECT_EQ(sorted[i], i);
  // more late ranks than the subtree has leaves: the rest go near the root
  History U(P);
  arcoll_history_set_up(&U.h);
  fold(U, group(1, 0, 1e-5, {{2, 3e-3}, {3, 2e-3}}), 0);  // subtree of 2 = {2, 3}
  auto o2 = order_of(U, 1, 0);
  EXPECT_EQ(where(o2, 3), 3);  // a leaf already
  EXPECT_EQ(arcoll_binomial_subtree_size(where(o2, 2), P), 1);
  EXPECT_EQ(where(o2, 2), 1);  // its own subtree's only leaf is taken: the root's leaf child
}

// Toward the root the latest ranks are detached (their result straight to the root) while the
// i-th is late by i tree levels; toward the leaves none is.
TEST(Order, TowardTheRootTheLatestRanksAreDetachedWhileLateByATreeLevelEach) {
  const int P = 16;
  History H(P);
  arcoll_history_set_up(&H.h);
  // t_level 1 ms: rank 8 (3 ms) and 4 (2 ms) detached, 3 (1 ms, third: needs 3 ms) not
  fold(H, group(1, 0, 1e-3, {{8, 3e-3}, {4, 2e-3}, {3, 1e-3}}), 0);
  const int *o = arcoll_history_order(&H.h, 1, 0);
  ASSERT_NE(o, nullptr);
  const unsigned char *d = arcoll_history_detached(&H.h, o);
  ASSERT_NE(d, nullptr);
  const auto order = order_of(H, 1, 0);
  for (int pos = 0; pos < P; ++pos)
    EXPECT_EQ(d[pos] != 0, order[pos] == 8 || order[pos] == 4) << "position " << pos << " rank " << order[pos];
  // a shorter tree level: all three
  History A(P);
  arcoll_history_set_up(&A.h);
  fold(A, group(1, 0, 1e-5, {{8, 3e-3}, {4, 2e-3}, {3, 1e-3}}), 0);
  const int *oa = arcoll_history_order(&A.h, 1, 0);
  const unsigned char *da = arcoll_history_detached(&A.h, oa);
  ASSERT_NE(da, nullptr);
  int n = 0;
  for (int pos = 0; pos < P; ++pos) n += da[pos];
  EXPECT_EQ(n, 3);
  EXPECT_EQ(da[0], 0);
  // still late (hysteresis) but by less than a tree level: late, not detached
  History N(P, 0.5);
  arcoll_history_set_up(&N.h);
  fold(N, group(1, 0, 1e-3, {{8, 3e-3}}), 0);
  EXPECT_NE(arcoll_history_detached(&N.h, arcoll_history_order(&N.h, 1, 0)), nullptr);  // EWMA 3 ms
  fold(N, group(1, 0, 1e-3, {}), 1);  // 1.5 ms
  EXPECT_NE(arcoll_history_detached(&N.h, arcoll_history_order(&N.h, 2, 0)), nullptr);
  fold(N, group(1, 0, 1e-3, {}), 2);  // 0.75 ms: above half the threshold, below a level
  const int *on = arcoll_history_order(&N.h, 3, 0);
  ASSERT_NE(on, nullptr);
  EXPECT_EQ(where(order_of(N, 3, 0), 8), 9);
  EXPECT_EQ(arcoll_history_detached(&N.h, on), nullptr);
  // toward the leaves: never
  History B(P);
  fold(B, group(1, 0, 1e-5, {{8, 3e-3}, {4, 2e-3}}), 0);
  const int *ob = arcoll_history_order(&B.h, 1, 0);
  ASSERT_NE(ob, nullptr);
  EXPECT_EQ(arcoll_history_detached(&B.h, ob), nullptr);
  EXPECT_EQ(arcoll_history_detached(&B.h, nullptr), nullptr);
}

TEST(Order, SameFoldsGiveTheSameOrderEverywhere) {
  // two "ranks" fed the same summaries compute identical orders
  History A(32), B(32);
  for (int i = 0; i < 20; ++i) {
    auto g = group(5 + i % 2, i % 3, 2e-5, {{(7 * i) % 32, 1e-3 * (1 + i % 4)}, {(11 * i + 3) % 32, 5e-4}});
    fold(A, g, i), fold(B, g, i);
    EXPECT_EQ(order_of(A, i + 1, i % 3), order_of(B, i + 1, i % 3)) << i;
  }
}

// A site whose root moves (sampled calls from roots 0 and 1, rank 24 late in
// both): a root never sampled takes the site's late set on its own order; a
// site with one root gives another root the classic order
// (LateRankBecomesLeaf); the root itself is never late in it.
TEST(Order, ARootNeverSampledAtASiteWhoseRootMovesTakesTheSitesLateSet) {
  const int P = 64;
  History H(P);
  fold(H, group(42, 0, 1e-5, {{24, 1e-3}}), 0);
  EXPECT_EQ(arcoll_history_order(&H.h, 36, 36), nullptr) << "one root so far";
  fold(H, group(42, 1, 1e-5, {{24, 1e-3}}), 1);
  for (int root : {36, 37, 25}) {
    const int *o = arcoll_history_order(&H.h, (uint64_t)root, root);
    ASSERT_NE(o, nullptr) << root;
    auto order = order_of(H, (uint64_t)root, root);
    EXPECT_EQ(order[0], root);
    EXPECT_EQ(arcoll_binomial_subtree_size(where(order, 24), P), 1) << "root " << root;
    std::vector<int> sorted(order);
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < P; ++i) EXPECT_EQ(sorted[i], i) << root;
    int moved = 0;  // one swap at most, nothing else moves
    for (int i = 0; i < P; ++i) moved += order[i] != (root + i) % P;
    EXPECT_LE(moved, 2) << root;
  }
  EXPECT_EQ(arcoll_history_order(&H.h, 24, 24), nullptr) << "the late rank as the root";
  EXPECT_EQ(arcoll_history_order(&H.h, 37, 37), arcoll_history_order(&H.h, 37, 37)) << "cached";
  // a rank late at the site only now: the derived order follows the newest fold
  fold(H, group(42, 2, 1e-5, {{24, 1e-3}, {40, 2e-3}}), 2);
  auto order = order_of(H, 36, 36);
  EXPECT_EQ(arcoll_binomial_subtree_size(where(order, 40), P), 1);
  EXPECT_EQ(arcoll_binomial_subtree_size(where(order, 24), P), 1);
}

TEST(Predict, PeriodicSites) {
  History H(4);
  // sequence of (site, root) per call: A0 B0 C1 A0 B0 C1 ...
  const uint64_t sites[3] = {100, 200, 300};
  const int roots[3] = {0, 0, 1};
  for (int i = 0; i < 9; ++i) arcoll_history_push(&H.h, i, sites[i % 3], roots[i % 3]);
  uint64_t s = 0;
  ASSERT_EQ(arcoll_history_predict(&H.h, 9, 0, &s), 1);
  EXPECT_EQ(s, 100u);
  ASSERT_EQ(arcoll_history_predict(&H.h, 10, 0, &s), 1);
  EXPECT_EQ(s, 200u);
  ASSERT_EQ(arcoll_history_predict(&H.h, 11, 1, &s), 1);
  EXPECT_EQ(s, 300u);
  // the root contradicts the period: last site seen with that root
  ASSERT_EQ(arcoll_history_predict(&H.h, 9, 1, &s), 1);
  EXPECT_EQ(s, 300u);
  EXPECT_EQ(arcoll_history_predict(&H.h, 9, 3, &s), 0);  // root never seen
}

TEST(Predict, PeriodSeenThroughSampledCalls) {
  // only calls 4..7 and 20..23 are sampled (exchanges every 16 calls): the
  // period 2 of A B A B ... is still recognised by the call index
  History H(4);
  for (uint64_t c : {4, 5, 6, 7, 20, 21, 22, 23}) arcoll_history_push(&H.h, c, c % 2 ? 200 : 100, 0);
  uint64_t s = 0;
  ASSERT_EQ(arcoll_history_predict(&H.h, 41, 0, &s), 1);
  EXPECT_EQ(s, 200u);
  ASSERT_EQ(arcoll_history_predict(&H.h, 42, 0, &s), 1);
  EXPECT_EQ(s, 100u);
}

TEST(Predict, AperiodicUsesLastSiteOfRoot) {
  History H(4);
  const uint64_t seq[] = {5, 6, 7, 5, 5, 8};
  for (int i = 0; i < 6; ++i) arcoll_history_push(&H.h, i, seq[i], 0);
  uint64_t s = 0;
  ASSERT_EQ(arcoll_history_predict(&H.h, 6, 0, &s), 1);
  EXPECT_EQ(s, 8u);
}

TEST(Predict, ManySitesEvictDeterministically) {
  History H(4);
  for (int i = 0; i < 3 * ARCOLL_MAX_ENTRIES; ++i) fold(H, group(1000 + i, 0, 1e-3, {}), i);
  EXPECT_EQ(H.h.nentries, ARCOLL_MAX_ENTRIES);
  // nobody late: the classic order
  EXPECT_EQ(arcoll_history_order(&H.h, 3 * ARCOLL_MAX_ENTRIES, 0), nullptr);
}

TEST(Site, KeyIsStableAndDistinct) {
  const void* a = reinterpret_cast<const void*>(&arcoll_site_key);
  EXPECT_EQ(arcoll_site_key(a), arcoll_site_key(a));
  EXPECT_NE(arcoll_site_key(a), arcoll_site_key(static_cast<const char*>(a) + 4));
  EXPECT_NE(arcoll_site_key(nullptr), 0u);
}

}  // namespace
