// Unit tests of collectives/tree_extra.h (2-path, rotated binomial,
// two-tree, flat and k-nomial trees): for many P and shuffled orders, every rank's view must be
// consistent (parent/children agree), form one tree rooted at order[0]
// spanning all ranks, and have the documented shape.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "tree_extra.h"

namespace {

using Builder = std::function<int(const int *, int, int, arcoll_tree_t *)>;

struct Views {
  std::vector<int> parent;
  std::vector<std::vector<int>> children;
};

Views build_all(const Builder &b, const std::vector<int> &order, bool positions = true) {
  const int P = static_cast<int>(order.size());
  Views v{std::vector<int>(P), std::vector<std::vector<int>>(P)};
  for (int r = 0; r < P; ++r) {
    arcoll_tree_t t;
    EXPECT_EQ(b(order.data(), P, r, &t), MPI_SUCCESS);
    EXPECT_EQ(t.rank, r);
    EXPECT_EQ(t.root, order[0]);
    if (positions) EXPECT_EQ(order[t.position], r);
    v.parent[r] = t.parent;
    v.children[r].assign(t.children, t.children + t.nchildren);
    arcoll_tree_free(&t);
  }
  return v;
}

// parent/children consistent, acyclic, spanning, rooted at order[0].
void expect_tree(const Views &v, const std::vector<int> &order) {
  const int P = static_cast<int>(order.size());
  std::vector<int> indeg(P, 0);
  for (int r = 0; r < P; ++r)
    for (int c : v.children[r]) {
      ASSERT_GE(c, 0);
      ASSERT_LT(c, P);
      EXPECT_EQ(v.parent[c], r) << "child " << c << " of " << r;
      ++indeg[c];
    }
  for (int r = 0; r < P; ++r) {
    if (r == order[0]) {
      EXPECT_EQ(v.parent[r], -1);
      EXPECT_EQ(indeg[r], 0);
    } else {
      EXPECT_EQ(indeg[r], 1) << "rank " << r;
      int x = r, steps = 0; // walks up to the root
      while (x != order[0] && steps <= P) x = v.parent[x], ++steps;
      EXPECT_EQ(x, order[0]) << "rank " << r << " does not reach the root";
    }
  }
}

std::vector<int> shuffled(int P, unsigned seed) {
  std::vector<int> o(P);
  std::iota(o.begin(), o.end(), 0);
  std::mt19937 g(seed);
  std::shuffle(o.begin(), o.end(), g);
  return o;
}

TEST(TreeExtra, TwoPathIsTwoChains) {
  for (int P = 1; P <= 40; ++P) {
    auto order = shuffled(P, 7u + P);
    Views v = build_all(arcoll_tree_2path, order);
    expect_tree(v, order);
    EXPECT_EQ(v.children[order[0]].size(), static_cast<size_t>(std::min(P - 1, 2)));
    int depth_max = 0;
    for (int r = 0; r < P; ++r) {
      EXPECT_LE(v.children[r].size(), r == order[0] ? 2u : 1u);
      int d = 0;
      for (int x = r; x != order[0]; x = v.parent[x]) ++d;
      depth_max = std::max(depth_max, d);
    }
    EXPECT_EQ(depth_max, P / 2) << "P " << P; // longest chain ceil((P-1)/2)
  }
}

TEST(TreeExtra, FlatTreeIsTheRootAndLeavesInOrder) {
  for (int P = 1; P <= 40; ++P) {
    auto order = shuffled(P, 11u + P);
    Views v = build_all(arcoll_tree_flat, order);
    expect_tree(v, order);
    // the root's children are order[1..P-1] in that order; everybody else a leaf
    EXPECT_EQ(v.children[order[0]], std::vector<int>(order.begin() + 1, order.end())) << P;
    for (int i = 1; i < P; ++i) EXPECT_TRUE(v.children[order[i]].empty());
  }
}

TEST(TreeExtra, RotatedBinomialIsSpanningAndRotates) {
  for (int P : {1, 2, 3, 5, 8, 13, 64, 100}) {
    auto order = shuffled(P, 11u + P);
    for (int shift : {0, 1, P / 3, P - 2}) {
      Views v = build_all(
          [shift](const int *o, int p, int me, arcoll_tree_t *t) {
            return arcoll_tree_binomial_rotated(o, p, shift, me, t);
          },
          order, false);
      expect_tree(v, order);
    }
    if (P >= 4) { // shift 1 moves the root's first child (position 1) to the next rank
      Views v0 = build_all([](const int *o, int p, int me, arcoll_tree_t *t) {
        return arcoll_tree_binomial_rotated(o, p, 0, me, t);
      }, order, false);
      Views v1 = build_all([](const int *o, int p, int me, arcoll_tree_t *t) {
        return arcoll_tree_binomial_rotated(o, p, 1, me, t);
      }, order, false);
      EXPECT_EQ(v0.parent[order[1]], order[0]);
      EXPECT_EQ(v1.parent[order[2]], order[0]);
      EXPECT_NE(v0.children[order[2]], v1.children[order[2]]);
    }
  }
}

TEST(TreeExtra, TwoTreesAreBinaryAndComplementary) {
  for (int P = 1; P <= 130; ++P) {
    auto order = shuffled(P, 3u + P);
    Views t[2];
    for (int w = 0; w < 2; ++w) {
      t[w] = build_all([w](const int *o, int p, int me, arcoll_tree_t *tr) {
        return arcoll_tree_twotree(o, p, w, me, tr);
      }, order);
      expect_tree(t[w], order);
      for (int r = 0; r < P; ++r)
        EXPECT_LE(t[w].children[r].size(), r == order[0] ? 1u : 2u);
    }
    // inner in both trees: at most 2 ranks (the paper: none; our simplified
    // relabelling leaves the ends of the in-order numbering)
    int both = 0;
    for (int r = 0; r < P; ++r)
      if (r != order[0] && !t[0].children[r].empty() && !t[1].children[r].empty()) ++both;
    EXPECT_LE(both, 2) << "P " << P;
  }
}

TEST(TreeExtra, KnomialShape) {
  for (int radix : {2, 3, 4, 8}) {
    for (int P = 1; P <= 130; ++P) {
      auto order = shuffled(P, 5u * radix + P);
      Views v = build_all([radix](const int *o, int p, int me, arcoll_tree_t *t) {
        return arcoll_tree_knomial(o, p, radix, me, t);
      }, order);
      expect_tree(v, order);
      // depth = ceil(log_radix P); the parent of position q is q with its
      // lowest non-zero base-radix digit cleared (computed here digit by digit)
      std::vector<int> pos(P);
      for (int i = 0; i < P; ++i) pos[order[i]] = i;
      int D = 0;
      for (long u = 1; u < P; u *= radix) ++D;
      int depth_max = 0;
      for (int q = 1; q < P; ++q) {
        std::vector<int> digits;
        for (int x = q; x > 0; x /= radix) digits.push_back(x % radix);
        size_t low = 0;
        while (digits[low] == 0) ++low;
        digits[low] = 0;
        int parent = 0;
        for (size_t i = digits.size(); i-- > 0;) parent = parent * radix + digits[i];
        EXPECT_EQ(pos[v.parent[order[q]]], parent) << "radix " << radix << " P " << P << " q " << q;
        int d = 0;
        for (int x = order[q]; x != order[0]; x = v.parent[x]) ++d;
        depth_max = std::max(depth_max, d);
      }
      EXPECT_LE(depth_max, D) << "radix " << radix << " P " << P;
      if (P == 64 && radix == 4) {
        // the root serves 3 per level: 48, 32, 16, 12, 8, 4, 3, 2, 1
        std::vector<int> want;
        for (int q : {48, 32, 16, 12, 8, 4, 3, 2, 1}) want.push_back(order[q]);
        EXPECT_EQ(v.children[order[0]], want);
      }
    }
  }
  // radix 2 is the binomial tree
  auto order = shuffled(100, 9u);
  for (int r = 0; r < 100; ++r) {
    arcoll_tree_t a, b;
    ASSERT_EQ(arcoll_tree_knomial(order.data(), 100, 2, r, &a), MPI_SUCCESS);
    ASSERT_EQ(arcoll_tree_binomial(order.data(), 100, r, &b), MPI_SUCCESS);
    EXPECT_EQ(a.parent, b.parent);
    EXPECT_EQ(std::vector<int>(a.children, a.children + a.nchildren),
              std::vector<int>(b.children, b.children + b.nchildren));
    arcoll_tree_free(&a);
    arcoll_tree_free(&b);
  }
  arcoll_tree_t t;
  EXPECT_EQ(arcoll_tree_knomial(order.data(), 100, 1, 0, &t), MPI_ERR_ARG);
}

TEST(TreeExtra, RejectsBadOrder) {
  std::vector<int> order{0, 1, 1};
  arcoll_tree_t t;
  EXPECT_EQ(arcoll_tree_2path(order.data(), 3, 0, &t), MPI_ERR_ARG);
  EXPECT_EQ(arcoll_tree_twotree(order.data(), 3, 0, 0, &t), MPI_ERR_ARG);
  EXPECT_EQ(arcoll_tree_binomial_rotated(order.data(), 3, 1, 0, &t), MPI_ERR_ARG);
  std::vector<int> ok{2, 0, 1};
  EXPECT_EQ(arcoll_tree_2path(ok.data(), 3, 5, &t), MPI_ERR_ARG); // 5 not in order
}

} // namespace
