// Unit tests of adapt/order.c (lateness history, site prediction, order) and
// adapt/config.c.
#include <gtest/gtest.h>

#include <mpi.h>  // before the extern "C" block (mpicxx.h)

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
  EXPECT_EQ(arcoll_history_order(&H.h, 0, 3, 1, order.data()), 0);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(order[i], (3 + i) % 8);
}

TEST(Order, LateRankBecomesLeaf) {
  for (int P : {3, 5, 8, 13, 64, 256}) {
    History H(P);
    const int late = P / 2;
    auto w = waits(P, late);
    ASSERT_EQ(arcoll_history_apply(&H.h, 0, 42, w.data()), 0);
    std::vector<int> order(P);
    EXPECT_EQ(arcoll_history_order(&H.h, 1, 0, 1, order.data()), 1);
    EXPECT_EQ(order[0], 0);
    int pos = -1;
    for (int i = 0; i < P; ++i)
      if (order[i] == late) pos = i;
    EXPECT_EQ(arcoll_binomial_subtree_size(pos, P), 1) << "P=" << P;  // a leaf
    // the earliest rank (longest wait) gets the biggest subtree
    int earliest = P - 1 == late ? P - 2 : P - 1;
    EXPECT_EQ(order[H.h.positions[1]], earliest) << P;
    // binomial (non-adaptive) ignores the history
    EXPECT_EQ(arcoll_history_order(&H.h, 1, 0, 0, order.data()), 0);
    EXPECT_EQ(order[late], late);
  }
}

TEST(Order, TiesBrokenByRelativeRank) {
  History H(8);
  std::vector<double> w(8, 1.0);
  ASSERT_EQ(arcoll_history_apply(&H.h, 2, 7, w.data()), 0);
  std::vector<int> a(8), b(8);
  arcoll_history_order(&H.h, 1, 2, 1, a.data());
  arcoll_history_order(&H.h, 1, 2, 1, b.data());
  EXPECT_EQ(a, b);
  EXPECT_EQ(a[4], 3);  // rank 3 = relative rank 1 -> largest subtree (position 4)
}

TEST(Order, EwmaFollowsNewLateRank) {
  History H(8, 0.5);
  std::vector<int> order(8);
  auto w1 = waits(8, 4);
  for (int i = 0; i < 3; ++i) arcoll_history_apply(&H.h, 0, 9, w1.data());
  auto w2 = waits(8, 6);
  for (int i = 0; i < 6; ++i) arcoll_history_apply(&H.h, 0, 9, w2.data());
  arcoll_history_order(&H.h, H.h.ncalls, 0, 1, order.data());
  int pos6 = -1;
  for (int i = 0; i < 8; ++i)
    if (order[i] == 6) pos6 = i;
  EXPECT_EQ(pos6, 7);  // the latest rank is on the last leaf
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
  EXPECT_EQ(arcoll_history_order(&H.h, H.h.ncalls, 0, 1, order.data()), 1);
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
