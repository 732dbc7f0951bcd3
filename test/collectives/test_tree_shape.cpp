// Unit test of the tree shapes of the algorithm tables (collectives/tree.h
// arcoll_tree_shape_t): arcoll_tree_parent_pos gives, for every shape, the
// parents the tree builders give.  That each table entry names the tree its
// algorithm sends over: tree_shape_check.c (MPI).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

extern "C" {
#include "coll.h"
#include "tree.h"
#include "tree_extra.h"
}

namespace {

// Parent position of every position in the tree `build` gives over a
// shuffled order (-1 for the root).
template <class Build>
std::vector<int> builder_parents(int P, unsigned seed, Build build) {
  std::vector<int> order(P);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 g(seed);
  std::shuffle(order.begin(), order.end(), g);
  std::vector<int> pos_of(P), parent(P, -2);
  for (int pos = 0; pos < P; ++pos) pos_of[order[pos]] = pos;
  for (int pos = 0; pos < P; ++pos) {
    arcoll_tree_t t;
    EXPECT_EQ(build(order.data(), P, order[pos], &t), MPI_SUCCESS);
    parent[pos] = t.parent < 0 ? -1 : pos_of[t.parent];
    arcoll_tree_free(&t);
  }
  return parent;
}

void expect_parents(arcoll_tree_shape_t shape, int k, const std::vector<int>& parent,
                    const char* what) {
  const int P = static_cast<int>(parent.size());
  EXPECT_EQ(arcoll_tree_parent_pos(shape, 0, P, k), -1) << what;
  EXPECT_EQ(arcoll_tree_parent_pos(shape, P, P, k), -1) << what;
  for (int pos = 1; pos < P; ++pos)
    ASSERT_EQ(arcoll_tree_parent_pos(shape, pos, P, k), parent[pos])
        << what << " P=" << P << " pos=" << pos << " k=" << k;
}

}  // namespace

TEST(TreeShape, ParentPositionsAreTheBuildersParents) {
  for (int P = 1; P <= 130; ++P) {
    expect_parents(ARCOLL_TREE_LINEAR, 0, builder_parents(P, P, arcoll_tree_flat), "linear");
    expect_parents(ARCOLL_TREE_BINOMIAL, 0, builder_parents(P, P + 1, arcoll_tree_binomial),
                   "binomial");
    expect_parents(ARCOLL_TREE_BINARY, 0, builder_parents(P, P + 2, arcoll_tree_binary), "binary");
    expect_parents(ARCOLL_TREE_CHAIN, 0, builder_parents(P, P + 3, arcoll_tree_chain), "chain");
    for (int k : {2, 3, 4, 8}) {
      auto knomial = [k](const int* o, int n, int me, arcoll_tree_t* t) {
        return arcoll_tree_knomial(o, n, k, me, t);
      };
      expect_parents(ARCOLL_TREE_KNOMIAL, k, builder_parents(P, P + 4 + k, knomial), "knomial");
    }
    // k < 2: the default radix, as the k-nomial algorithms take it
    auto radix = [](const int* o, int n, int me, arcoll_tree_t* t) {
      return arcoll_tree_knomial(o, n, ARCOLL_KNOMIAL_RADIX, me, t);
    };
    expect_parents(ARCOLL_TREE_KNOMIAL, 0, builder_parents(P, P + 20, radix), "knomial default");
    for (int pos = 0; pos <= P; ++pos) EXPECT_EQ(arcoll_tree_parent_pos(ARCOLL_TREE_NONE, pos, P, 0), -1);
  }
}
