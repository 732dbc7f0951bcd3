// Unit tests of the tuning files' late sets (adapt/tuning_late.cpp, tuning.h
// "lateness"): written and read back field by field, bad entries rejected
// naming the entry and the field, and a history seeded from a late set
// (order.h arcoll_history_seed) ordering the first call.
#include <gtest/gtest.h>

#include <mpi.h>  // before the extern "C" block (mpicxx.h)

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

extern "C" {
#include "late_trees.h"
#include "order.h"
#include "tree.h"
#include "tuning.h"
}

namespace {

std::string tmp_path(const char *name) {
  return std::string(::testing::TempDir()) + "arcoll_tuning_late_" + name + ".json";
}

arcoll_tuning_late_t late_set(int coll, int P, uint64_t site, int root,
                              std::initializer_list<std::pair<int, float>> late) {
  arcoll_tuning_late_t x{};
  x.coll = coll, x.P = P, x.site = site, x.root = root;
  x.tree = ARCOLL_TREES_SECOND;
  x.t_level = 6.25e-5f, x.noise = 1.5e-6f;
  for (auto [r, s] : late) x.rank[x.n] = r, x.caused[x.n++] = s;
  return x;
}

const char *kGood =
    R"({"arcoll_tuning": 1, "choices": [], "lateness": [{"collective": "bcast", "P": 8,
        "site": "0x00000000000000ab", "root": 0, "t_level_s": 1e-05, "noise_s": 0,
        "tolerant_tree": "first", "late": [{"rank": 3, "caused_s": 0.002}]}]})";

// kGood with `from` replaced by `to` fails to load, the message naming the
// file, the entry and `want`.
void expect_rejected(const std::string &from, const std::string &to, const char *want) {
  std::string text = kGood;
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
  const std::string p = tmp_path("bad");
  std::ofstream(p) << text;
  arcoll_tuning_t t{};
  char err[1024] = "";
  EXPECT_EQ(arcoll_tuning_load(p.c_str(), &t, err, sizeof err), -1) << text;
  EXPECT_EQ(t.nlate, 0);
  const std::string e = err;
  EXPECT_NE(e.find(p), std::string::npos) << e;
  EXPECT_NE(e.find("lateness[0]"), std::string::npos) << e;
  EXPECT_NE(e.find(want), std::string::npos) << e;
  std::remove(p.c_str());
}

}  // namespace

TEST(TuningLate, LateSetsSurviveTheFileFieldByField) {
  arcoll_tuning_t t{};
  const arcoll_tuning_late_t a = late_set(ARCOLL_COLL_BCAST, 64, 0xfedcba9876543210ull, 0, {{32, 3.1e-3f}, {5, 1.25e-4f}});
  arcoll_tuning_late_t b = late_set(ARCOLL_COLL_REDUCE, 256, 7, 17, {{96, 1e-3f}});
  b.tree = 0;
  ASSERT_EQ(arcoll_tuning_add_late(&t, &a), 1);
  ASSERT_EQ(arcoll_tuning_add_late(&t, &b), 1);
  EXPECT_EQ(arcoll_tuning_add_late(&t, &a), 0);  // the first of a key wins
  const std::string p = tmp_path("roundtrip");
  char err[512] = "";
  ASSERT_EQ(arcoll_tuning_save(p.c_str(), &t, err, sizeof err), 0) << err;
  arcoll_tuning_t u{};
  ASSERT_EQ(arcoll_tuning_load(p.c_str(), &u, err, sizeof err), 0) << err;
  ASSERT_EQ(u.nlate, 2);
  for (int i = 0; i < 2; ++i) {
    const arcoll_tuning_late_t &x = t.late[i], &y = u.late[i];
    EXPECT_EQ(x.coll, y.coll);
    EXPECT_EQ(x.P, y.P);
    EXPECT_EQ(x.site, y.site);
    EXPECT_EQ(x.root, y.root);
    EXPECT_EQ(x.tree, y.tree);
    EXPECT_FLOAT_EQ(x.t_level, y.t_level);
    EXPECT_FLOAT_EQ(x.noise, y.noise);
    ASSERT_EQ(x.n, y.n);
    for (int j = 0; j < x.n; ++j) {
      EXPECT_EQ(x.rank[j], y.rank[j]);
      EXPECT_FLOAT_EQ(x.caused[j], y.caused[j]);
    }
  }
  arcoll_tuning_free(&t);
  arcoll_tuning_free(&u);
  std::remove(p.c_str());
}

TEST(TuningLate, BadLateSetsAreRejectedNamingTheEntryAndTheField) {
  expect_rejected("\"root\": 0", "\"root\": 8", "\"root\" must be 0..P-1");
  expect_rejected("\"rank\": 3", "\"rank\": 0", "the root cannot be late");
  expect_rejected("\"rank\": 3", "\"rank\": -1", "out of 0..P-1");
  expect_rejected(R"([{"rank": 3, "caused_s": 0.002}])",
                  R"([{"rank": 3, "caused_s": 0.002}, {"rank": 3, "caused_s": 0.001}])", "listed twice");
  expect_rejected("\"late\": [{\"rank\": 3, \"caused_s\": 0.002}]", "\"late\": []", "field \"late\"");
  expect_rejected("\"caused_s\": 0.002", "\"caused_s\": -1", "caused_s");
  expect_rejected("\"site\": \"0x00000000000000ab\"", "\"site\": 171", "field \"site\"");
  expect_rejected("\"site\": \"0x00000000000000ab\"", "\"site\": \"0xzz\"", "field \"site\"");
  expect_rejected("\"tolerant_tree\": \"first\"", "\"tolerant_tree\": \"chain\"", "tolerant_tree");
  expect_rejected("\"collective\": \"bcast\"", "\"collective\": \"broadcast\"", "unknown collective");
  expect_rejected("\"P\": 8", "\"P\": 1", "field \"P\"");
  expect_rejected("\"t_level_s\": 1e-05", "\"t_level_s\": \"fast\"", "t_level_s");
  // the same key twice: the second entry is named
  std::string twice = kGood;
  const size_t a = twice.find('{', twice.find("\"lateness\"")), b = twice.rfind(']');
  twice.insert(b, ", " + twice.substr(a, b - a));
  const std::string p = tmp_path("twice");
  std::ofstream(p) << twice;
  arcoll_tuning_t t{};
  char err[1024] = "";
  EXPECT_EQ(arcoll_tuning_load(p.c_str(), &t, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("lateness[1]: a second late set"), std::string::npos) << err;
  std::remove(p.c_str());
}

TEST(TuningLate, SeededHistoryOrdersTheFirstCallUntilItsRootIsSampled) {
  const int P = 64;
  arcoll_history_t h;
  ASSERT_EQ(arcoll_history_init(&h, P, 0.5), 0);
  arcoll_late_group_t g{};
  g.site = 42, g.root = 0, g.n = 1, g.t_level = 6e-5f, g.noise = 0.0f;
  g.late[0] = {32, 1e-6f};  // below the threshold now: it was late when the earlier run ended
  ASSERT_EQ(arcoll_history_seed(&h, &g), 0);
  const int *order = arcoll_history_order(&h, 0, 0);
  ASSERT_NE(order, nullptr);
  int pos = -1;
  for (int i = 0; i < P; ++i)
    if (order[i] == 32) pos = i;
  ASSERT_GE(pos, 0);
  EXPECT_EQ(arcoll_binomial_subtree_size(pos, P), 1) << "rank 32 on a leaf, position " << pos;
  EXPECT_EQ(order[0], 0);
  std::vector<int> seen(P, 0);
  for (int i = 0; i < P; ++i) ++seen[order[i]];
  for (int r = 0; r < P; ++r) EXPECT_EQ(seen[r], 1) << "a permutation";
  EXPECT_EQ(arcoll_history_order(&h, 0, 5), nullptr);  // another root: nothing known
  // once calls of root 0 are sampled, their site decides: another site -> its own entry (none)
  arcoll_history_push(&h, 0, 43, 0);
  EXPECT_EQ(arcoll_history_order(&h, 1, 0), nullptr);
  arcoll_history_push(&h, 1, 42, 0);
  EXPECT_EQ(arcoll_history_order(&h, 2, 0), order);
  arcoll_history_free(&h);
}

// The program rebuilt between the runs: its call site has another key.  The
// first summary of that root takes the seeded entry over: a late rank whose
// records are missing (it lags) is held with the seed's figure and stays on
// its leaf; one whose records came in and caused nothing leaves the late set
// at once (the first summary replaces the seed).
TEST(TuningLate, TheFirstSummaryReplacesTheSeedEvenFromAnotherSite) {
  const int P = 64;
  for (int present : {0, 1}) {
    for (uint64_t site : {42ull, 77ull}) {
      arcoll_history_t h;
      ASSERT_EQ(arcoll_history_init(&h, P, 0.5), 0);
      arcoll_late_group_t g{};
      g.site = 42, g.root = 0, g.n = 1, g.t_level = 6e-5f;
      g.late[0] = {32, 1.5e-3f};
      ASSERT_EQ(arcoll_history_seed(&h, &g), 0);
      arcoll_late_group_t sum{};  // this run's first summary: nobody listed
      sum.site = site, sum.root = 0, sum.t_level = 6e-5f;
      std::vector<unsigned char> in(P, 1);
      in[32] = (unsigned char)present;
      EXPECT_EQ(arcoll_history_hold_missing(&h, in.data(), &sum), present ? 0 : 1);
      arcoll_history_push(&h, 0, site, 0);
      int changed = -1;
      ASSERT_EQ(arcoll_history_fold(&h, &sum, &changed), 0);
      EXPECT_EQ(changed, present) << "site " << site << ", records of rank 32 present " << present;
      const int *order = arcoll_history_order(&h, 1, 0);
      if (present) {
        EXPECT_EQ(order, nullptr);
      } else {
        ASSERT_NE(order, nullptr);
        int pos = -1;
        for (int i = 0; i < P; ++i)
          if (order[i] == 32) pos = i;
        EXPECT_EQ(arcoll_binomial_subtree_size(pos, P), 1) << "position " << pos;
      }
      // a second site of the same root starts fresh: the seed was taken over once
      arcoll_late_group_t third{};
      third.site = 78, third.root = 0, third.t_level = 6e-5f;
      ASSERT_EQ(arcoll_history_fold(&h, &third, &changed), 0);
      arcoll_history_push(&h, 1, 78, 0);
      arcoll_history_push(&h, 2, 78, 0);
      EXPECT_EQ(arcoll_history_order(&h, 3, 0), nullptr);
      arcoll_history_free(&h);
    }
  }
}

// ARCOLL_TUNING_OUT's late sets: the file's sets of sites this run did not
// track come first, in the file's order; a site this run tracked with
// nobody late (n == 0) drops its old set and writes nothing; this run's
// sets replace the file's of the same key; invalid records are skipped.
TEST(TuningLate, TheOutputKeepsTheFilesUntrackedSetsAndDropsStaleOnes) {
  const int bcast = ARCOLL_COLL_BCAST, reduce = ARCOLL_COLL_REDUCE;
  arcoll_tuning_t file{};
  auto add = [&](const arcoll_tuning_late_t &x) { return arcoll_tuning_add_late(&file, &x); };
  ASSERT_EQ(add(late_set(bcast, 64, 7, 0, {{32, 1e-3f}})), 1);
  ASSERT_EQ(add(late_set(reduce, 64, 9, 0, {{5, 2e-3f}})), 1);
  ASSERT_EQ(add(late_set(bcast, 256, 7, 0, {{96, 3e-3f}})), 1);
  ASSERT_EQ(add(late_set(bcast, 64, 8, 3, {{1, 4e-3f}})), 1);
  std::vector<arcoll_tuning_late_t> run = {
      late_set(bcast, 64, 7, 0, {{40, 5e-4f}}),  // remade: this run's figure wins
      late_set(reduce, 64, 9, 0, {}),            // tracked, nobody late: dropped
      late_set(bcast, 64, 8, 3, {{3, 1e-3f}}),   // invalid (the root late): skipped, key tracked
  };
  arcoll_tuning_t out{};
  ASSERT_EQ(arcoll_tuning_merge_late(&out, run.data(), (int)run.size(), &file), 0);
  ASSERT_EQ(out.nlate, 2);
  EXPECT_EQ(out.late[0].P, 256);  // the untracked file set, first (older)
  EXPECT_EQ(out.late[0].rank[0], 96);
  EXPECT_EQ(out.late[1].P, 64);
  EXPECT_EQ(out.late[1].site, 7u);
  EXPECT_EQ(out.late[1].rank[0], 40);
  EXPECT_FLOAT_EQ(out.late[1].caused[0], 5e-4f);
  arcoll_tuning_t none{};
  ASSERT_EQ(arcoll_tuning_merge_late(&none, run.data(), (int)run.size(), nullptr), 0);
  EXPECT_EQ(none.nlate, 1);
  arcoll_tuning_free(&out);
  arcoll_tuning_free(&none);
  arcoll_tuning_free(&file);
}
