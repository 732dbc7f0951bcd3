// Unit tests of the performance model and the selector (collectives/select.h,
// model.c, select.c).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model_fixtures.hpp"
#include "select.h"

namespace {

const std::vector<int> kProcs = {2, 3, 5, 16, 64, 256, 1024};

// The two models the grid tests run with: pass 0 the built-in, 1 curve_model().
arcoll_model_t pass_model(int pass) {
  arcoll_model_t m;
  if (pass == 0)
    arcoll_model_default(&m);
  else
    m = curve_model();
  return m;
}

std::string point_name(int c, int P, MPI_Aint bytes) {
  return std::string(arcoll_coll_name((arcoll_coll_t)c)) + " P=" + std::to_string(P) +
         " bytes=" + std::to_string(bytes);
}

TEST(Select, NamesAndTables) {
  const char *expect[] = {"bcast", "reduce", "allreduce", "scan", "exscan",
                          "gather", "scatter", "alltoall", "barrier", "allgather",
                          "reduce_scatter_block", "allgatherv", "gatherv", "scatterv",
                          "reduce_scatter", "alltoallv"};
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c) {
    ASSERT_STREQ(arcoll_coll_name((arcoll_coll_t)c), expect[c]);
    int n = -1;
    const arcoll_algo_desc_t *t = arcoll_algorithm_table((arcoll_coll_t)c, &n);
    ASSERT_NE(t, nullptr);
    ASSERT_GT(n, 0);
    for (int i = 0; i < n; ++i) {
      EXPECT_STREQ(t[i].collective, expect[c]);
      EXPECT_EQ(arcoll_algorithm_find((arcoll_coll_t)c, t[i].name), &t[i]);
    }
    EXPECT_EQ(arcoll_algorithm_find((arcoll_coll_t)c, "no_such_algorithm"), nullptr);
  }
  EXPECT_EQ(arcoll_coll_name(ARCOLL_COLL_COUNT), nullptr);
  int n = 7;
  EXPECT_EQ(arcoll_algorithm_table(ARCOLL_COLL_COUNT, &n), nullptr);
  EXPECT_EQ(n, 0);
  ASSERT_NE(arcoll_algorithm_find(ARCOLL_COLL_BCAST, "chain"), nullptr);
  ASSERT_NE(arcoll_algorithm_find(ARCOLL_COLL_SCAN, "pipeline"), nullptr);
}

#ifdef ARCOLL_CLI_PATH
// `arcoll list-algorithms` prints exactly one `collective name` line per
// table entry, in table order (generated from the tables, no MPI needed).
TEST(Select, CliListsEveryAlgorithm) {
  FILE *f = popen(ARCOLL_CLI_PATH " list-algorithms", "r");
  ASSERT_NE(f, nullptr);
  std::vector<std::string> lines;
  char buf[256];
  while (fgets(buf, sizeof buf, f)) {
    std::string l(buf);
    if (!l.empty() && l.back() == '\n') l.pop_back();
    lines.push_back(l);
  }
  ASSERT_EQ(pclose(f), 0);
  std::vector<std::string> expect;
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c) {
    int n = 0;
    const arcoll_algo_desc_t *t = arcoll_algorithm_table((arcoll_coll_t)c, &n);
    for (int i = 0; i < n; ++i) expect.push_back(std::string(arcoll_coll_name((arcoll_coll_t)c)) + " " + t[i].name);
  }
  EXPECT_EQ(lines, expect);
  EXPECT_GE(expect.size(), 31u);
}
#endif

TEST(Model, EveryAlgorithmHasAFormula) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c) {
    int n = 0;
    const arcoll_algo_desc_t *t = arcoll_algorithm_table((arcoll_coll_t)c, &n);
    for (int i = 0; i < n; ++i) {
      SCOPED_TRACE(std::string(t[i].collective) + " " + t[i].name);
      EXPECT_EQ(arcoll_model_predict(&m, (arcoll_coll_t)c, &t[i], 1, 4096, 0, 0), 0.0);
      double p = arcoll_model_predict(&m, (arcoll_coll_t)c, &t[i], 16, 4096, 0, 0);
      EXPECT_GT(p, 0.0);
      EXPECT_TRUE(std::isfinite(p));
    }
  }
  arcoll_algo_desc_t fake = {"bcast", "nope", nullptr, 0, ""};
  EXPECT_LT(arcoll_model_predict(&m, ARCOLL_COLL_BCAST, &fake, 16, 4096, 0, 0), 0.0);
  EXPECT_LT(arcoll_model_predict(&m, ARCOLL_COLL_COUNT, arcoll_algorithm_find(ARCOLL_COLL_BCAST, "chain"),
                                 16, 4096, 0, 0), 0.0);
}

// Seed 000 closed forms on the linear model for the cases the model keeps
// exactly: binomial reduce = log P (t_s + M/B + gamma M); scan linear =
// (P-1)(t_s + M/B + gamma M); barrier = ceil(log2 P) t_s; bcast chain,
// scatter_rdb.
TEST(Model, ClosedFormsOfTheLinearModel) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  const double ts = m.inter.t_s, B = m.inter.B, g = m.gamma, M = 1 << 20;
  auto pred = [&](arcoll_coll_t c, const char *a, int P) {
    return arcoll_model_predict(&m, c, arcoll_algorithm_find(c, a), P, (MPI_Aint)M, 0, 0);
  };
  EXPECT_NEAR(pred(ARCOLL_COLL_REDUCE, "binomial", 64), 6 * (ts + M / B + g * M), 1e-12);
  EXPECT_NEAR(pred(ARCOLL_COLL_SCAN, "linear", 64), 63 * (ts + M / B + g * M), 1e-12);
  EXPECT_NEAR(pred(ARCOLL_COLL_BARRIER, "dissemination", 100), 7 * ts, 1e-15);
  // one-segment chain broadcast = (P-1) T_send(M)
  EXPECT_NEAR(pred(ARCOLL_COLL_BCAST, "chain", 10), 9 * (ts + M / B), 1e-12);
  // scatter + recursive-doubling allgather, P = 8 (rendezvous pieces):
  // 2 log2 P t_s + 2 (P-1)/P M/B (Thakur, Rabenseifner, Gropp 2005); off
  // powers of two it runs, and costs, scatter_ring
  EXPECT_NEAR(pred(ARCOLL_COLL_BCAST, "scatter_rdb", 8), 6 * ts + 2 * (7.0 / 8) * M / B, 1e-12);
  EXPECT_EQ(pred(ARCOLL_COLL_BCAST, "scatter_rdb", 6), pred(ARCOLL_COLL_BCAST, "scatter_ring", 6));
  EXPECT_LT(pred(ARCOLL_COLL_BCAST, "scatter_rdb", 256), pred(ARCOLL_COLL_BCAST, "scatter_ring", 256));
  // the curve is interpolated linearly, and extrapolated with slope G
  arcoll_model_t c = curve_model();
  EXPECT_NEAR(arcoll_model_p2p(&c.inter, &c.inter_curve, 512), (4e-6 + 6.3e-6) / 2, 1e-15);
  EXPECT_NEAR(arcoll_model_p2p(&c.inter, &c.inter_curve, 8 << 20), 3.6e-3 + (4 << 20) / 1.17e9, 1e-12);
  EXPECT_NEAR(arcoll_model_p2p(&m.inter, &m.intra_curve, 1000), ts + 1000 / B, 1e-15);
}

TEST(Model, PredictionsMonotoneInSize) {
  for (int pass = 0; pass < 2; ++pass) {
    const arcoll_model_t m = pass_model(pass);
    for (int c = 0; c < ARCOLL_COLL_COUNT; ++c) {
      int n = 0;
      const arcoll_algo_desc_t *t = arcoll_algorithm_table((arcoll_coll_t)c, &n);
      for (int i = 0; i < n; ++i)
        for (int P : kProcs)
          for (MPI_Aint seg : {(MPI_Aint)0, (MPI_Aint)4096}) {
            double prev = 0;
            // ksegment caps its piece count at the element count (the model
            // assumes 8-byte elements), so below 8 P bytes it degenerates to
            // a chain, slower than with more bytes: monotone from 4 P bytes on
            MPI_Aint b0 = std::string(t[i].name) == "ksegment" ? 4 * (MPI_Aint)P : 1;
            for (MPI_Aint b = b0; b <= ((MPI_Aint)64 << 20); b *= 2) {
              double p = arcoll_model_predict(&m, (arcoll_coll_t)c, &t[i], P, b, seg, 0);
              // direct scan: no formula above P = 64 (scan.h), at every size
              if ((c == ARCOLL_COLL_SCAN || c == ARCOLL_COLL_EXSCAN) && std::string(t[i].name) == "direct" &&
                  P > 64) {
                ASSERT_LT(p, 0);
                continue;
              }
              ASSERT_GE(p, prev * (1 - 1e-12))
                  << t[i].collective << " " << t[i].name << " P=" << P << " seg=" << seg << " bytes=" << b
                  << " pass=" << pass;
              prev = p;
            }
          }
    }
  }
}

// Brute force over the table with an independently written candidate set
// (one segment, every power of two from 1 KiB below the message; every
// algorithm with its default parameter k): the selector must predict no more
// than the brute force's best, report its own choice's prediction, and pick
// the same algorithm whenever the brute force's best beats every other
// algorithm by more than 1 %.
TEST(Select, SameAsBruteForce) {
  for (int pass = 0; pass < 2; ++pass) {
    const arcoll_model_t m = pass_model(pass);
    for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
      for (int P : kProcs)
        for (MPI_Aint bytes : {(MPI_Aint)8, (MPI_Aint)1000, (MPI_Aint)65536, (MPI_Aint)1 << 20,
                               (MPI_Aint)16 << 20})
          for (int commutative = 0; commutative < 2; ++commutative) {
            int n = 0;
            const arcoll_algo_desc_t *t = arcoll_algorithm_table((arcoll_coll_t)c, &n);
            std::vector<double> best_of(n, INFINITY);
            for (int i = 0; i < n; ++i) {
              if (!commutative && (t[i].flags & ARCOLL_ALGO_COMMUTATIVE_ONLY)) continue;
              std::vector<MPI_Aint> segs{0};
              if (t[i].flags & ARCOLL_ALGO_SEGMENTED)
                for (MPI_Aint s = 1024; s < bytes; s *= 2) segs.push_back(s);
              std::vector<int> ks{0};  // every algorithm with its default parameter,
              if (std::string(t[i].name) == "knomial")  // knomial also radix 3, 8, 16 (< P)
                for (int r : {3, 8, 16})
                  if (r < P) ks.push_back(r);
              for (MPI_Aint s : segs)
                for (int k : ks) {
                  double p = arcoll_model_predict(&m, (arcoll_coll_t)c, &t[i], P, bytes, s, k);
                  if (p >= 0) best_of[i] = std::min(best_of[i], p);  // < 0: no formula here
                }
            }
            int bi = 0;
            for (int i = 1; i < n; ++i)
              if (best_of[i] < best_of[bi]) bi = i;
            double second = INFINITY;
            for (int i = 0; i < n; ++i)
              if (i != bi) second = std::min(second, best_of[i]);
            arcoll_choice_t ch;
            ASSERT_EQ(arcoll_select(&m, (arcoll_coll_t)c, P, bytes, commutative, &ch), 0);
            std::string where = point_name(c, P, bytes) + " comm=" + std::to_string(commutative);
            ASSERT_NE(ch.algo, nullptr) << where;
            EXPECT_LE(ch.predicted_s, best_of[bi] * (1 + 1e-12)) << where;
            EXPECT_DOUBLE_EQ(ch.predicted_s, arcoll_model_predict(&m, (arcoll_coll_t)c, ch.algo, P, bytes,
                                                                  ch.segment_bytes, ch.k))
                << where;
            if (!commutative) EXPECT_FALSE(ch.algo->flags & ARCOLL_ALGO_COMMUTATIVE_ONLY) << where;
            if (!(ch.algo->flags & ARCOLL_ALGO_SEGMENTED)) EXPECT_EQ(ch.segment_bytes, 0) << where;
            if (second > best_of[bi] * 1.01) EXPECT_EQ(ch.algo, &t[bi]) << where << " brute " << t[bi].name;
          }
  }
}

// The candidate list of the online selection (select.h): the 4 best
// algorithms, then one slot for a second configuration of a segmented one.
TEST(Select, CandidatesAreTheBestAlgorithmsPlusOneUnsegmented) {
  int fired_first = 0, fired_other = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const arcoll_model_t m = pass_model(pass);
    for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
      for (int P : kProcs)
        for (MPI_Aint bytes : {(MPI_Aint)512, (MPI_Aint)4096, (MPI_Aint)32768, (MPI_Aint)1 << 20}) {
          arcoll_choice_t full[64], five[5];
          const int nf = arcoll_select_candidates(&m, (arcoll_coll_t)c, P, bytes, 1, full, 64);
          const int n = arcoll_select_candidates(&m, (arcoll_coll_t)c, P, bytes, 1, five, 5);
          const std::string where = point_name(c, P, bytes);
          ASSERT_EQ(n, std::min(nf, 5)) << where;
          if (n < 5) continue;
          for (int i = 0; i < 4; ++i) {  // the 4 best, as ranked by the model
            EXPECT_EQ(five[i].algo, full[i].algo) << where;
            EXPECT_EQ(five[i].segment_bytes, full[i].segment_bytes) << where;
          }
          const arcoll_choice_t &last = five[4];
          if (full[0].segment_bytes > 0) {  // the best, unsegmented
            ++fired_first;
            EXPECT_EQ(last.algo, full[0].algo) << where;
            EXPECT_EQ(last.segment_bytes, 0) << where;
            continue;
          }
          int j = 1;
          while (j < 4 && full[j].segment_bytes <= 0) ++j;
          double unseg = j < 4 ? arcoll_model_predict(&m, (arcoll_coll_t)c, full[j].algo, P, bytes, 0, full[j].k)
                               : -1;
          if (j < 4 && unseg >= 0 && unseg < full[4].predicted_s) {  // a second configuration
            ++fired_other;
            EXPECT_EQ(last.algo, full[j].algo) << where;
            EXPECT_EQ(last.segment_bytes, 0) << where;
            EXPECT_DOUBLE_EQ(last.predicted_s, unseg) << where;
          } else {  // the 5th best algorithm
            EXPECT_EQ(last.algo, full[4].algo) << where;
            EXPECT_EQ(last.segment_bytes, full[4].segment_bytes) << where;
          }
        }
  }
  EXPECT_GT(fired_first, 0);  // both rules are exercised by this grid
  EXPECT_GT(fired_other, 0);
}

TEST(Select, LargeBcastIsSegmentedAndSmallIsNot) {
  arcoll_model_t m = curve_model();
  arcoll_choice_t ch;
  ASSERT_EQ(arcoll_select(&m, ARCOLL_COLL_BCAST, 64, (MPI_Aint)64 << 20, 1, &ch), 0);
  // 64 MiB over 64 ranks: one-segment algorithms pay ~ (P-1) or log P times
  // M/B; a pipelined or scatter-based one must win
  arcoll_choice_t one;
  ASSERT_EQ(arcoll_select(&m, ARCOLL_COLL_BCAST, 64, 8, 1, &one), 0);
  EXPECT_LT(ch.predicted_s, arcoll_model_predict(&m, ARCOLL_COLL_BCAST,
                                                 arcoll_algorithm_find(ARCOLL_COLL_BCAST, "binomial"), 64,
                                                 (MPI_Aint)64 << 20, 0, 0) / 3);
  EXPECT_TRUE(std::string(one.algo->name) != "chain");  // 8 bytes: never the 63-hop chain
}

}  // namespace
