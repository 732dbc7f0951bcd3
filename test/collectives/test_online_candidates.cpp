// Unit tests of which candidates the online selection measures
// (collectives/online.h arcoll_explorer_init): the model's ranking and its 2x
// bound, the far-first twins, the compressed candidates, binomial for the
// rooted collectives. No MPI; the rounds themselves: test_online.cpp.
#include <gtest/gtest.h>

#include <cstring>

#include <string>
#include <vector>

#include "compress_decide.h"
#include "online.h"
#include "online_slots.h"
#include "online_twins.h"

namespace {

// Whether the explorer measures an algorithm of that name (online_slots.h).
bool has(const arcoll_explorer_t &e, const char *name) { return arcoll_explorer_find(&e, name) >= 0; }

TEST(Online, CandidatesPredictedTwiceSlowerAreNotMeasured) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  // the model's ranking alone: no compressed candidate (CompressedIsMeasured...)
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  int pruned = 0;
  for (arcoll_coll_t c : {ARCOLL_COLL_BCAST, ARCOLL_COLL_REDUCE, ARCOLL_COLL_ALLREDUCE, ARCOLL_COLL_SCAN,
                          ARCOLL_COLL_SCATTER, ARCOLL_COLL_GATHER})
    for (int P : {4, 16, 64, 256, 1024})
      for (MPI_Aint bytes : {8, 512, 32768, 1 << 20, 16 << 20}) {
        // small gather: the model's best alone (test_online_tree_first.cpp)
        if (c == ARCOLL_COLL_GATHER && bytes < ARCOLL_ONLINE_SKEW_MAX_BYTES) continue;
        arcoll_explorer_t e;
        arcoll_explorer_init(&e, &m, c, P, bytes, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 1, 0);
        arcoll_choice_t all[32];
        const int n = arcoll_select_candidates(&m, c, P, bytes, 1, all, ARCOLL_ONLINE_MAX_CANDIDATES);
        const int nfull = arcoll_select_candidates(&m, c, P, bytes, 1, all + 8, 24);
        // bcast, reduce, scatter, gather: the tolerant tree (binomial; bcast from
        // ARCOLL_STREAM_MIN_BYTES binary) is measured whatever its prediction,
        // and bcast's streaming candidate from that size too (online.c)
        // - but not a reduce's from ARCOLL_ONLINE_REDUCE_TREE_MAX_BYTES whose chain
        // streams (ReduceStreamingChainLeavesBinomialToTheTwoXRule)
        const bool chain_in = c == ARCOLL_COLL_REDUCE && bytes >= ARCOLL_ONLINE_REDUCE_TREE_MAX_BYTES && has(e, "chain");
        const bool exempt = (c == ARCOLL_COLL_BCAST || c == ARCOLL_COLL_REDUCE || c == ARCOLL_COLL_SCATTER ||
                             c == ARCOLL_COLL_GATHER) &&
                            !chain_in;
        const bool streaming = c == ARCOLL_COLL_BCAST && bytes >= ARCOLL_STREAM_MIN_BYTES;
        const char *tree_name = arcoll_tolerant_tree(c, bytes);
        arcoll_choice_t sc{};
        if (streaming) ASSERT_EQ(arcoll_select_stream(&m, c, P, bytes, &sc), 0);
        auto binomial = [tree_name](const arcoll_choice_t &x) { return !strcmp(x.algo->name, tree_name); };
        auto stream = [&](const arcoll_choice_t &x) { return streaming && x.algo == sc.algo; };
        // a reduce's chain that streams back to back (online_slots.h)
        auto streams = [&](const arcoll_choice_t &x) {
          return arcoll_explorer_chain_streams(&m, c, P, bytes, &x, e.cand[0].predicted_s) == 1;
        };
        for (int i = 1; i < e.n; ++i)
          if (!(exempt && binomial(e.cand[i])) && !stream(e.cand[i]) && !streams(e.cand[i]))
            EXPECT_LE(e.cand[i].predicted_s, 2.0 * e.cand[0].predicted_s)
                << arcoll_coll_name(c) << " P=" << P << " m=" << bytes << " " << e.cand[i].algo->name;
        if (streaming) {  // both there, the others within 2x (above)
          bool tree = false, str = false;
          for (int i = 0; i < e.n; ++i) tree |= binomial(e.cand[i]), str |= stream(e.cand[i]);
          EXPECT_TRUE(tree && str) << "bcast P=" << P << " m=" << bytes;
          continue;
        }
        int within = n > 0 ? 1 : 0;  // the same count from the full list
        bool has = n > 0 && binomial(all[0]);
        // small messages: far-first variants are not measured (FarFirstVariants...);
        // larger ones wait for their near twin's win (online_twins.h)
        auto far = [bytes, &e](const arcoll_choice_t &x) {
          return (x.algo->flags & ARCOLL_ALGO_FAR_FIRST) &&
                 (bytes < ARCOLL_ONLINE_FAR_FIRST_MIN_BYTES || (e.has_far && e.far.algo == x.algo));
        };
        for (int i = 1; i < n; ++i)
          if ((all[i].predicted_s <= 2.0 * all[0].predicted_s || streams(all[i])) && !far(all[i]))
            ++within, has |= binomial(all[i]);
        bool exists = false;
        for (int i = 0; i < nfull; ++i) exists |= binomial(all[8 + i]);
        EXPECT_EQ(e.n, within + (exempt && !has && exists && within < ARCOLL_ONLINE_MAX_CANDIDATES))
            << arcoll_coll_name(c) << " P=" << P << " m=" << bytes;
        if (exempt && exists && within < ARCOLL_ONLINE_MAX_CANDIDATES) {
          bool measured = false;
          for (int i = 0; i < e.n; ++i) measured |= binomial(e.cand[i]);
          EXPECT_TRUE(measured) << arcoll_coll_name(c) << " P=" << P << " m=" << bytes;
        }
        pruned += n - within;
      }
  EXPECT_GT(pruned, 0);  // the rule does drop candidates somewhere in this grid
}

// Below ARCOLL_ONLINE_FAR_FIRST_MIN_BYTES a far-first variant is not
// measured beside its near-first twin; from it on both are kept, as the
// model ranks them: the far one held back for a round after round 0
// (online_twins.h, test_online_twins.cpp).
TEST(Online, FarFirstVariantsAreMeasuredFrom8KiBOnly) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
  const std::pair<arcoll_coll_t, const char *> twins[] = {
      {ARCOLL_COLL_ALLREDUCE, "rabenseifner"},
      {ARCOLL_COLL_REDUCE, "rsag"},
      {ARCOLL_COLL_REDUCE_SCATTER_BLOCK, "recursive_halving_near"},
      {ARCOLL_COLL_REDUCE_SCATTER, "recursive_halving_near"}};
  int both = 0, near_only = 0;
  for (const auto &[c, near] : twins)
    for (int P : {16, 64, 256})
      for (MPI_Aint bytes : {8, 512, 4096, 8192, 65536, 1 << 20}) {
        arcoll_choice_t all[32];
        const int nall = arcoll_select_candidates(&m, c, P, bytes, 1, all, ARCOLL_ONLINE_MAX_CANDIDATES);
        bool far_ranked = false, near_ranked = false;
        for (int i = 0; i < nall; ++i) {
          far_ranked |= (all[i].algo->flags & ARCOLL_ALGO_FAR_FIRST) != 0;
          near_ranked |= !strcmp(all[i].algo->name, near);
        }
        arcoll_explorer_t e;
        arcoll_explorer_init(&e, &m, c, P, bytes, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 2, 0);
        std::vector<arcoll_choice_t> cands(e.cand, e.cand + e.n);
        cands.insert(cands.end(), e.spare, e.spare + e.nspare);
        if (e.has_far) cands.push_back(e.far);
        for (int i = 0; i < e.n; ++i)  // beside its twin in round 0 only when they are all it has
          EXPECT_TRUE(!(e.cand[i].algo->flags & ARCOLL_ALGO_FAR_FIRST) ||
                      arcoll_explorer_near_twin(&e, &e.cand[i]) < 0 || e.n <= 2);
        bool far_kept = false, near_kept = false;
        for (const arcoll_choice_t &x : cands) {
          far_kept |= (x.algo->flags & ARCOLL_ALGO_FAR_FIRST) != 0;
          near_kept |= !strcmp(x.algo->name, near);
        }
        const std::string at = std::string(arcoll_coll_name(c)) + " P=" + std::to_string(P) +
                               " m=" + std::to_string(bytes);
        EXPECT_EQ(near_kept, near_ranked) << at;  // the twin is never dropped by this rule
        if (bytes < ARCOLL_ONLINE_FAR_FIRST_MIN_BYTES) {
          EXPECT_FALSE(far_kept && near_ranked) << at;
          near_only += far_ranked && near_ranked;
        } else {
          EXPECT_EQ(far_kept, far_ranked) << at;
          both += far_ranked && near_ranked;
        }
      }
  EXPECT_GT(near_only, 0);  // the grid has small sizes where both were ranked
  EXPECT_GT(both, 0);
}

// bcast from ARCOLL_COMPRESS_MIN_BYTES: the compressed chain is a measured
// candidate unless ARCOLL_COMPRESS=off (the model cannot rank it: online.c);
// it never displaces binomial or the best's unsegmented variant.
TEST(Online, CompressedIsMeasuredFrom64KiBUnlessOff) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  for (int P : {2, 4, 20, 64})
    for (MPI_Aint bytes : {(MPI_Aint)8, (MPI_Aint)65535, (MPI_Aint)65536, (MPI_Aint)(4 << 20)})
      for (int ncand : {2, 5, 8}) {
        arcoll_explorer_t e;
        arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 0, 0);
        arcoll_explorer_init(&e, &m, ARCOLL_COLL_BCAST, P, bytes, 1, ncand, 1, 0);
        EXPECT_EQ(has(e, "compressed"), bytes >= ARCOLL_COMPRESS_MIN_BYTES)
            << "P=" << P << " m=" << bytes << " ncand=" << ncand;
        arcoll_explorer_t off;
        arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
        arcoll_explorer_init(&off, &m, ARCOLL_COLL_BCAST, P, bytes, 1, ncand, 1, 0);
        EXPECT_FALSE(has(off, "compressed")) << "P=" << P << " m=" << bytes;
        if (has(off, "binomial") && ncand > 2) EXPECT_TRUE(has(e, "binomial")) << "P=" << P;
        EXPECT_EQ(e.cand[0].algo, off.cand[0].algo);  // the model's best stays first
      }
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 0, 0);
}

// allgather, gather, alltoall: the compressed algorithm is a measured
// candidate when the (P-1) blocks through the busiest link reach
// ARCOLL_COMPRESS_MIN_BYTES, unless ARCOLL_COMPRESS=off.
TEST(Online, CompressedBlocksAreMeasuredFrom64KiBPerLinkUnlessOff) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  for (arcoll_coll_t c : {ARCOLL_COLL_ALLGATHER, ARCOLL_COLL_GATHER, ARCOLL_COLL_ALLTOALL})
    for (int P : {2, 4, 20, 64})
      for (MPI_Aint bytes : {(MPI_Aint)8, (MPI_Aint)1000, (MPI_Aint)21846, (MPI_Aint)65536,
                             (MPI_Aint)(1 << 20)})
        for (int ncand : {5, 8}) {
          arcoll_explorer_t e, off;
          arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 0, 0);
          arcoll_explorer_init(&e, &m, c, P, bytes, 1, ncand, 1, 0);
          EXPECT_EQ(has(e, "compressed"), bytes * (P - 1) >= ARCOLL_COMPRESS_MIN_BYTES)
              << arcoll_coll_name(c) << " P=" << P << " m=" << bytes << " ncand=" << ncand;
          arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);
          arcoll_explorer_init(&off, &m, c, P, bytes, 1, ncand, 1, 0);
          EXPECT_FALSE(has(off, "compressed")) << arcoll_coll_name(c) << " P=" << P;
          EXPECT_EQ(e.cand[0].algo, off.cand[0].algo);  // the model's best stays first
        }
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 0, 0);
}

// reduce from ARCOLL_STREAM_MIN_BYTES: the chain, where admitted, is measured at
// the segment size of least link occupancy per call (back-to-back reduces
// stream), not the model's one-call best; below it, at the model's best.
// The calibrated cluster256 model: its gap curve is least per byte at 8 KiB.
TEST(Online, ReduceChainIsMeasuredAtItsLeastOccupancySegment) {
  arcoll_model_t m;
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  const arcoll_algo_desc_t *chain = arcoll_algorithm_find(ARCOLL_COLL_REDUCE, "chain");
  ASSERT_NE(chain, nullptr);
  int moved = 0, admitted = 0;
  for (int P : {16, 64, 256})
    for (MPI_Aint bytes : {(MPI_Aint)4096, (MPI_Aint)8192, (MPI_Aint)32768, (MPI_Aint)(1 << 20),
                           (MPI_Aint)(4 << 20)}) {
      arcoll_explorer_t e;
      arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, P, bytes, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 2, 0);
      const int at = arcoll_explorer_find(&e, "chain");
      if (at < 0) continue;
      ++admitted;
      arcoll_choice_t one;
      ASSERT_EQ(arcoll_select_config(&m, ARCOLL_COLL_REDUCE, chain, P, bytes, &one), 0);
      const MPI_Aint want = bytes >= ARCOLL_STREAM_MIN_BYTES
                                ? arcoll_select_stream_segment(&m, ARCOLL_COLL_REDUCE, chain, P, bytes)
                                : one.segment_bytes;
      const std::string where = "P=" + std::to_string(P) + " m=" + std::to_string(bytes);
      EXPECT_EQ(e.cand[at].segment_bytes, want) << where;
      EXPECT_DOUBLE_EQ(e.cand[at].predicted_s,
                       arcoll_model_predict(&m, ARCOLL_COLL_REDUCE, chain, P, bytes, want, 0))
          << where;
      moved += want != one.segment_bytes;
    }
  EXPECT_GT(admitted, 0);
  EXPECT_GT(moved, 0);  // the grid has sizes where the two criteria differ
}

// A reduce's chain predicted over 2x the best for one call is measured when,
// back to back, it streams faster than the best's one call and its fill is
// within the exploration's budget (online_slots.h arcoll_explorer_chain_streams):
// cluster256 model, P = 256, 1 MiB (rsag 2.04 ms, the chain 15.7 ms for one
// call, 0.77 ms per call streaming); not at 32 KiB nor at P = 1024, 1 MiB,
// where its fill is over 10 x the best's call.
TEST(Online, ReduceChainThatStreamsIsMeasuredBeyondTheTwoXRule) {
  arcoll_model_t m;
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  const arcoll_algo_desc_t *chain = arcoll_algorithm_find(ARCOLL_COLL_REDUCE, "chain");
  ASSERT_NE(chain, nullptr);
  struct Case { int P; MPI_Aint bytes; bool measured; };
  for (const Case &k : {Case{256, 1 << 20, true}, Case{256, 32768, false}, Case{1024, 1 << 20, false}}) {
    const std::string where = "P=" + std::to_string(k.P) + " m=" + std::to_string(k.bytes);
    arcoll_explorer_t e;
    arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, k.P, k.bytes, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 2, 0);
    const MPI_Aint s = arcoll_select_stream_segment(&m, ARCOLL_COLL_REDUCE, chain, k.P, k.bytes);
    ASSERT_GT(s, 0) << where;
    ASSERT_LT(s, k.bytes) << where;
    // the 2x rule alone drops it: its one call, at either segment size
    arcoll_choice_t one;
    ASSERT_EQ(arcoll_select_config(&m, ARCOLL_COLL_REDUCE, chain, k.P, k.bytes, &one), 0);
    EXPECT_GT(one.predicted_s, 2.0 * e.cand[0].predicted_s) << where;
    const double at_s = arcoll_model_predict(&m, ARCOLL_COLL_REDUCE, chain, k.P, k.bytes, s, 0);
    EXPECT_GT(at_s, 2.0 * e.cand[0].predicted_s) << where;
    EXPECT_EQ(arcoll_explorer_chain_streams(&m, ARCOLL_COLL_REDUCE, k.P, k.bytes, &one,
                                            e.cand[0].predicted_s),
              k.measured ? 1 : 0) << where;
    const int at = arcoll_explorer_find(&e, "chain");
    EXPECT_EQ(at >= 0, k.measured) << where;
    if (at >= 0) EXPECT_EQ(e.cand[at].segment_bytes, s) << where;  // streaming, at s
  }
  // not for another collective, one segment, or a best faster than its period
  arcoll_choice_t one;
  ASSERT_EQ(arcoll_select_config(&m, ARCOLL_COLL_REDUCE, chain, 256, 1 << 20, &one), 0);
  EXPECT_EQ(arcoll_explorer_chain_streams(&m, ARCOLL_COLL_ALLREDUCE, 256, 1 << 20, &one, 2e-3), 0);
  EXPECT_EQ(arcoll_explorer_chain_streams(&m, ARCOLL_COLL_REDUCE, 256, 1 << 20, &one, 1e-4), 0);
  arcoll_choice_t whole = one;
  whole.segment_bytes = 0;
  EXPECT_EQ(arcoll_explorer_chain_streams(&m, ARCOLL_COLL_REDUCE, 256, 1 << 20, &whole, 2e-3), 0);
  EXPECT_EQ(arcoll_explorer_chain_streams(&m, ARCOLL_COLL_REDUCE, 256, 1 << 20, &one, 2e-3), 1);
}

// From ARCOLL_ONLINE_REDUCE_TREE_MAX_BYTES a reduce whose chain streams
// leaves binomial to the 2x rule (online.c): cluster256 model, 1 MiB, P = 64
// and 256, binomial predicted 2.8x and 3.6x rsag, round 0 measures rsag and
// the chain, the chain last (the decision's call goes on with it); binomial
// waits among the spare ones (readmitted if the model is off).  Below the
// size, or where the chain is not measured, binomial still is.
TEST(Online, ReduceStreamingChainLeavesBinomialToTheTwoXRule) {
  arcoll_model_t m;
  char err[256];
  ASSERT_EQ(arcoll_model_load(ARCOLL_TEST_CLUSTER_MODEL, &m, err, sizeof err), 0) << err;
  struct Case { int P; MPI_Aint bytes; bool chain, binomial; };
  for (const Case &k : {Case{64, 1 << 20, true, false}, Case{256, 1 << 20, true, false},
                        Case{256, 32768, false, true}, Case{64, 32768, false, true},
                        Case{256, 262144, false, true}}) {
    const std::string where = "P=" + std::to_string(k.P) + " m=" + std::to_string(k.bytes);
    arcoll_explorer_t e;
    arcoll_explorer_init(&e, &m, ARCOLL_COLL_REDUCE, k.P, k.bytes, 1, ARCOLL_ONLINE_MAX_CANDIDATES, 2, 0);
    EXPECT_EQ(has(e, "chain"), k.chain) << where;
    EXPECT_EQ(has(e, "binomial"), k.binomial) << where;
    if (k.binomial) continue;
    EXPECT_STREQ(e.cand[e.n - 1].algo->name, "chain") << where;
    bool spare = false;
    for (int i = 0; i < e.nspare; ++i) spare |= !strcmp(e.spare[i].algo->name, "binomial");
    EXPECT_TRUE(spare) << where;
    arcoll_choice_t all[32];
    const int n = arcoll_select_candidates(&m, ARCOLL_COLL_REDUCE, k.P, k.bytes, 1, all, 32);
    for (int i = 0; i < n; ++i)
      if (!strcmp(all[i].algo->name, "binomial"))
        EXPECT_GT(all[i].predicted_s, 2.0 * e.cand[0].predicted_s) << where;
  }
}

} // namespace

// A model whose start-up time dwarfs the per-message gap (the calibrated
// cluster256 model on a faster platform: binomial's log2 P start-ups
// predicted 2.5x linear's one) still measures binomial for the rooted
// collectives with late-rank orders (gather from 8 KiB: below, the model's
// best alone runs, OnlineTreeFirst.SmallGatherRunsTheModelsBestWithoutMeasuring).
TEST(Online, BinomialIsMeasuredForRootedCollectivesWhateverTheModelSays) {
  arcoll_model_t m;
  arcoll_model_default(&m);
  m.inter.t_s *= 50, m.inter.L *= 50, m.intra.t_s *= 50, m.intra.L *= 50;
  const MPI_Aint bytes = ARCOLL_ONLINE_SKEW_MAX_BYTES;
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 0, 0);  // gather's compressed candidate apart
  for (arcoll_coll_t c : {ARCOLL_COLL_SCATTER, ARCOLL_COLL_GATHER}) {
    arcoll_choice_t all[32];
    const int n = arcoll_select_candidates(&m, c, 64, bytes, 1, all, 32);
    double lin = -1, bin = -1;
    for (int i = 0; i < n; ++i) {
      if (!strcmp(all[i].algo->name, "linear")) lin = all[i].predicted_s;
      if (!strcmp(all[i].algo->name, "binomial")) bin = all[i].predicted_s;
    }
    ASSERT_GT(lin, 0) << arcoll_coll_name(c);
    ASSERT_GT(bin, 2.0 * lin) << arcoll_coll_name(c) << ": the case needs binomial predicted > 2x linear";
    arcoll_explorer_t e;
    ASSERT_EQ(arcoll_explorer_init(&e, &m, c, 64, bytes, 1, ARCOLL_ONLINE_DEFAULT_CANDIDATES, 1, 0), 2)
        << arcoll_coll_name(c);
    EXPECT_STREQ(e.cand[0].algo->name, "linear");
    EXPECT_STREQ(e.cand[1].algo->name, "binomial");
  }
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 0, 0);
}
