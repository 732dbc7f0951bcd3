// Unit tests of adapt/order.c (lateness history, site prediction, order) and
// adapt/config.c.
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

std::vector<double> waits(int P, int late, double w_late = 1e-6, double w = 1e-3) {
  std::vector<double> v(P, w);
  for (int r = 0; r < P; ++r) v[r] = w + 1e-6 * r;  // distinct, deterministic
  v[late] = w_late;
  return v;
}

TEST(Order, ClassicWithoutHistory) {
  History H(8);
  std::vector<int> order(8);
  EXPECT_EQ(arcoll_history_order(&H.h, 0, 3, 1, 0.0, order.data()), 0);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(order[i], (3 + i) % 8);
}

// Position of `rank` in `order`, -1 if absent.
int where(const std::vector<int> &order, int rank) {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] == rank) return (int)i;
  return -1;
}

TEST(Order, LateRankBecomesLeaf) {
  for (int P : {3, 5, 8, 13, 64, 256}) {
    History H(P);
    const int late = P / 2;
    auto w = waits(P, late);
    ASSERT_EQ(arcoll_history_apply(&H.h, 0, 42, w.data()), 0);
    std::vector<int> order(P);
    EXPECT_EQ(arcoll_history_order(&H.h, 1, 0, 1, 0.0, order.data()), 1);
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
    // binomial (non-adaptive) ignores the history
    EXPECT_EQ(arcoll_history_order(&H.h, 1, 0, 0, 0.0, order.data()), 0);
    EXPECT_EQ(order[late], late);
  }
}

TEST(Order, LatenessBelowTheBoundIsIgnored) {
  // earliness (seconds): root 2 at 5.2 ms; rank 0 arrived 0.2 ms after it,
  // rank 5 0.1 ms after it, the others before it
  History H(8);
  std::vector<double> w(8);
  for (int r = 0; r < 8; ++r) w[r] = 5e-3 + 1e-4 * ((r * 5) % 8);
  ASSERT_EQ(arcoll_history_apply(&H.h, 2, 7, w.data()), 0);
  std::vector<int> a(8);
  // bound 1 ms: nobody is late, the classic order, untouched
  EXPECT_EQ(arcoll_history_order(&H.h, 1, 2, 1, 1e-3, a.data()), 0);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(a[i], (2 + i) % 8);
  // bound 0.15 ms: rank 0 only (classic position 6, subtree of 2: moves to
  // the last leaf); bound 0.05 ms: ranks 0 and 5 (classic position 3, a
  // leaf already: stays)
  EXPECT_EQ(arcoll_history_order(&H.h, 1, 2, 1, 1.5e-4, a.data()), 1);
  EXPECT_EQ(a[H.h.positions[7]], 0);
  EXPECT_EQ(arcoll_binomial_subtree_size(where(a, 0), 8), 1);
  EXPECT_EQ(arcoll_history_order(&H.h, 1, 2, 1, 5e-5, a.data()), 1);
  EXPECT_EQ(a[H.h.positions[7]], 0);
  EXPECT_EQ(where(a, 5), 3);
  int moved = 0;
  for (int i = 0; i < 8; ++i) moved += a[i] != (2 + i) % 8;
  EXPECT_EQ(moved, 2);  // one swap
}

TEST(Order, SeveralLateRanksTakeLeavesLatestLast) {
  const int P = 16;
  History H(P);
  std::vector<double> w(P, 10e-3);
  // ranks 2, 4, 8 (subtrees of 2, 4, 8 in the classic order) are late by 9, 8, 7 ms
  w[2] = 1e-3, w[4] = 2e-3, w[8] = 3e-3;
  ASSERT_EQ(arcoll_history_apply(&H.h, 0, 1, w.data()), 0);
  std::vector<int> order(P);
  EXPECT_EQ(arcoll_history_order(&H.h, 1, 0, 1, 0.0, order.data()), 1);
  for (int r : {2, 4, 8}) EXPECT_EQ(arcoll_binomial_subtree_size(where(order, r), P), 1) << r;
  // the latest rank takes the last entry of the positions sorted by size
  EXPECT_EQ(order[H.h.positions[P - 1]], 2);
  int moved = 0;
  for (int i = 0; i < P; ++i) moved += order[i] != i;
  EXPECT_EQ(moved, 6);  // three swaps, nothing else moves
}

TEST(Order, EwmaFollowsNewLateRank) {
  History H(8, 0.5);
  std::vector<int> order(8);
  auto w1 = waits(8, 4);
  for (int i = 0; i < 3; ++i) arcoll_history_apply(&H.h, 0, 9, w1.data());
  auto w2 = waits(8, 6);
  for (int i = 0; i < 6; ++i) arcoll_history_apply(&H.h, 0, 9, w2.data());
  // bound 0.1 ms: rank 4's remaining 12 us of EWMA lateness is not late
  arcoll_history_order(&H.h, H.h.ncalls, 0, 1, 1e-4, order.data());
  EXPECT_EQ(where(order, 6), H.h.positions[7]);  // the latest rank is on the last leaf
  EXPECT_EQ(where(order, 4), 4);                  // rank 4 is on time again: classic place
}

TEST(Predict, PeriodicSites) {
  History H(4);
  std::vector<double> w(4, 1.0);
  // sequence of (site, root): A0 B0 C1 A0 B0 C1 ...
  const uint64_t sites[3] = {100, 200, 300};
  const int roots[3] = {0, 0, 1};
  for (int i = 0; i < 9; ++i) arcoll_history_apply(&H.h, roots[i % 3], sites[i % 3], w.data());
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

TEST(Predict, AperiodicUsesLastSiteOfRoot) {
  History H(4);
  std::vector<double> w(4, 1.0);
  const uint64_t seq[] = {5, 6, 7, 5, 5, 8};
  for (uint64_t x : seq) arcoll_history_apply(&H.h, 0, x, w.data());
  uint64_t s = 0;
  ASSERT_EQ(arcoll_history_predict(&H.h, 6, 0, &s), 1);
  EXPECT_EQ(s, 8u);
}

TEST(Predict, ManySitesEvictDeterministically) {
  History H(4);
  std::vector<double> w(4, 1.0);
  for (int i = 0; i < 3 * ARCOLL_MAX_ENTRIES; ++i) arcoll_history_apply(&H.h, 0, 1000 + i, w.data());
  EXPECT_EQ(H.h.nentries, ARCOLL_MAX_ENTRIES);
  std::vector<int> order(4);
  // equal waits: nobody is late, the classic order
  EXPECT_EQ(arcoll_history_order(&H.h, H.h.ncalls, 0, 1, 0.0, order.data()), 0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(order[i], i);
}

TEST(Site, KeyIsStableAndDistinct) {
  const void* a = reinterpret_cast<const void*>(&arcoll_site_key);
  EXPECT_EQ(arcoll_site_key(a), arcoll_site_key(a));
  EXPECT_NE(arcoll_site_key(a), arcoll_site_key(static_cast<const char*>(a) + 4));
  EXPECT_NE(arcoll_site_key(nullptr), 0u);
}

TEST(Config, DefaultsAndErrors) {
  arcoll_config_t c;
  char err[512];
  unsetenv("ARCOLL_BCAST_ALGORITHM");
  unsetenv("ARCOLL_BCAST_SEGMENT");
  unsetenv("ARCOLL_BCAST_EXCHANGE_INTERVAL");
  unsetenv("ARCOLL_BCAST_EWMA_ALPHA");
  unsetenv("ARCOLL_DEBUG");
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
  for (int k = 0; k < ARCOLL_COLL_COUNT; ++k) EXPECT_EQ(c.mode[k], ARCOLL_MODE_AUTO);
  EXPECT_EQ(c.segment_bytes, 65536);
  EXPECT_EQ(c.segment_set, 0);
  setenv("ARCOLL_BCAST_ALGORITHM", "binomial", 1);
  setenv("ARCOLL_BCAST_SEGMENT", "0", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
  EXPECT_EQ(c.mode[ARCOLL_COLL_BCAST], ARCOLL_MODE_FORCED);
  ASSERT_NE(c.forced[ARCOLL_COLL_BCAST], nullptr);
  EXPECT_STREQ(c.forced[ARCOLL_COLL_BCAST]->name, "binomial");
  EXPECT_EQ(c.segment_bytes, 0);
  EXPECT_EQ(c.segment_set, 1);
  setenv("ARCOLL_BCAST_ALGORITHM", "adaptive", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
  EXPECT_EQ(c.mode[ARCOLL_COLL_BCAST], ARCOLL_MODE_ADAPTIVE);
  setenv("ARCOLL_BCAST_ALGORITHM", "fast", 1);
  EXPECT_EQ(arcoll_config_parse(&c, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("ARCOLL_BCAST_ALGORITHM='fast'"), std::string::npos);
  EXPECT_NE(std::string(err).find("adaptive"), std::string::npos);
  setenv("ARCOLL_BCAST_ALGORITHM", "adaptive", 1);
  setenv("ARCOLL_BCAST_SEGMENT", "64k", 1);
  EXPECT_EQ(arcoll_config_parse(&c, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("ARCOLL_BCAST_SEGMENT"), std::string::npos);
  unsetenv("ARCOLL_BCAST_SEGMENT");
  setenv("ARCOLL_BCAST_EXCHANGE_INTERVAL", "0", 1);
  EXPECT_EQ(arcoll_config_parse(&c, err, sizeof err), -1);
  unsetenv("ARCOLL_BCAST_EXCHANGE_INTERVAL");
  unsetenv("ARCOLL_BCAST_ALGORITHM");
}

TEST(Config, AlgorithmNamesPerCollective) {
  arcoll_config_t c;
  char err[1024];
  setenv("ARCOLL_REDUCE_ALGORITHM", "rsag", 1);
  setenv("ARCOLL_SCAN_ALGORITHM", "pmpi", 1);
  setenv("ARCOLL_BARRIER_ALGORITHM", "auto", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0) << err;
  EXPECT_EQ(c.mode[ARCOLL_COLL_REDUCE], ARCOLL_MODE_FORCED);
  EXPECT_STREQ(c.forced[ARCOLL_COLL_REDUCE]->name, "rsag");
  EXPECT_EQ(c.mode[ARCOLL_COLL_SCAN], ARCOLL_MODE_PMPI);
  EXPECT_EQ(c.mode[ARCOLL_COLL_BARRIER], ARCOLL_MODE_AUTO);
  // adaptive is a bcast-only mode; unknown names list every valid one
  setenv("ARCOLL_REDUCE_ALGORITHM", "adaptive", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), -1);
  std::string e(err);
  EXPECT_NE(e.find("ARCOLL_REDUCE_ALGORITHM='adaptive' is not valid"), std::string::npos) << e;
  for (const char *n : {"auto", "pmpi", "binomial", "rsag", "chain"})
    EXPECT_NE(e.find(n), std::string::npos) << n << " missing in: " << e;
  unsetenv("ARCOLL_REDUCE_ALGORITHM");
  unsetenv("ARCOLL_SCAN_ALGORITHM");
  unsetenv("ARCOLL_BARRIER_ALGORITHM");
  setenv("ARCOLL_MODEL", "/nonexistent/arcoll-model.json", 1);
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("/nonexistent/arcoll-model.json"), std::string::npos) << err;
  unsetenv("ARCOLL_MODEL");
  ASSERT_EQ(arcoll_config_parse(&c, err, sizeof err), 0);
}

}  // namespace
