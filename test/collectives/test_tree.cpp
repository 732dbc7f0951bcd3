// Unit tests of collectives/tree.c, the segment rounding of bcast_tree.c and
// the integer parser of coll.c.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <numeric>
#include <random>
#include <vector>

extern "C" {
#include "bcast_tree.h"
#include "coll.h"
#include "tree.h"
#include "tree_extra.h"
#include "tree_inorder.h"
}

namespace {

std::vector<int> random_order(int P, unsigned seed) {
  std::vector<int> o(P);
  std::iota(o.begin(), o.end(), 0);
  std::mt19937 g(seed);
  std::shuffle(o.begin(), o.end(), g);
  return o;
}

// Walk the trees of all ranks: each non-root has one parent that lists it as a
// child, the root reaches everybody, subtree sizes match the formula.
void check_tree(const std::vector<int>& order, bool binomial) {
  const int P = static_cast<int>(order.size());
  std::vector<arcoll_tree_t> t(P);
  for (int r = 0; r < P; ++r) {
    int rc = binomial ? arcoll_tree_binomial(order.data(), P, r, &t[r])
                      : arcoll_tree_chain(order.data(), P, r, &t[r]);
    ASSERT_EQ(rc, MPI_SUCCESS);
    EXPECT_EQ(t[r].root, order[0]);
    EXPECT_EQ(order[t[r].position], r);
  }
  int edges = 0;
  for (int r = 0; r < P; ++r) {
    if (r == order[0]) EXPECT_EQ(t[r].parent, -1);
    for (int c = 0; c < t[r].nchildren; ++c) {
      EXPECT_EQ(t[t[r].children[c]].parent, r);
      ++edges;
    }
  }
  EXPECT_EQ(edges, P - 1);
  // reachability + subtree sizes
  std::vector<int> size(P, 1);
  for (int pos = P - 1; pos > 0; --pos) {
    int r = order[pos];
    size[t[r].parent] += size[r];
  }
  EXPECT_EQ(size[order[0]], P);
  if (binomial)
    for (int pos = 0; pos < P; ++pos) {
      EXPECT_EQ(size[order[pos]], arcoll_binomial_subtree_size(pos, P)) << "P=" << P << " pos=" << pos;
      if (pos % 2 == 1) EXPECT_EQ(t[order[pos]].nchildren, 0);
      // children sorted by subtree size, largest first
      const arcoll_tree_t& v = t[order[pos]];
      for (int c = 1; c < v.nchildren; ++c) EXPECT_GE(size[v.children[c - 1]], size[v.children[c]]);
    }
  for (auto& x : t) arcoll_tree_free(&x);
}

TEST(Tree, BinomialAndChainAllSizes) {
  for (int P = 1; P <= 130; ++P) {
    check_tree(random_order(P, P), true);
    check_tree(random_order(P, P + 1000), false);
  }
}

// Subtrees are contiguous ranges of positions (locality for ranks numbered
// by node and switch; when P-1 is even, once position P-1 is left out: it
// hangs under position h, the largest power of two <= P-2), the leaves are
// exactly the binomial tree's leaves over the same positions (where
// late-rank orders put late ranks), at most two children, the root two from
// P = 3 on, no position but the root with P-2 descendants from P = 4 on (at
// most P/2 - 1 when P is a power of two), depth <= floor(log2 (P-1)) + 1,
// and arcoll_binary_parent_pos agrees with the tree.
TEST(Tree, BinaryContiguousSubtreesBinomialLeaves) {
  for (int P = 1; P <= 130; ++P) {
    const std::vector<int> order = random_order(P, 7 * P);
    std::vector<arcoll_tree_t> t(P);
    for (int r = 0; r < P; ++r) ASSERT_EQ(arcoll_tree_binary(order.data(), P, r, &t[r]), MPI_SUCCESS);
    std::vector<int> rank_pos(P), parent(P, -1);
    for (int pos = 0; pos < P; ++pos) rank_pos[order[pos]] = pos;
    for (int pos = 0; pos < P; ++pos)
      for (int i = 0; i < t[order[pos]].nchildren; ++i) parent[rank_pos[t[order[pos]].children[i]]] = pos;
    int edges = 0;
    for (int pos = 0; pos < P; ++pos) {
      const arcoll_tree_t &v = t[order[pos]];
      EXPECT_EQ(v.position, pos);
      EXPECT_EQ(v.root, order[0]);
      EXPECT_LE(v.nchildren, 2);
      for (int i = 0; i < v.nchildren; ++i) {
        EXPECT_EQ(t[v.children[i]].parent, order[pos]);
      }
      const bool binomial_leaf = pos > 0 && arcoll_binomial_subtree_size(pos, P) == 1;
      EXPECT_EQ(v.nchildren == 0, binomial_leaf || P == 1) << "P=" << P << " pos=" << pos;
      EXPECT_EQ(arcoll_binary_parent_pos(pos, P), pos == 0 ? -1 : parent[pos]) << "P=" << P;
      edges += v.nchildren;
    }
    EXPECT_EQ(edges, P - 1);
    EXPECT_EQ(t[order[0]].nchildren, std::min(P - 1, 2)) << "P=" << P;
    EXPECT_EQ(arcoll_binary_parent_pos(P, P), -1);
    int h = 1;
    while (2 * h <= P - 2) h *= 2;
    const int extra = (P - 1) % 2 == 0 && P - 2 >= 3 ? P - 1 : -1;  // the one off its range
    if (extra > 0) EXPECT_EQ(parent[extra], h) << "P=" << P;
    const bool pow2 = (P & (P - 1)) == 0;
    int log2_n = 0, depth_max = 0;
    while ((2 << log2_n) <= P - 1) ++log2_n;
    for (int pos = 1; pos < P; ++pos) {
      int d = 0, lo = pos, hi = pos, all = 0;  // depth, and the positions below pos
      for (int q = pos; q > 0; q = parent[q]) ++d;
      depth_max = std::max(depth_max, d);
      for (int x = 1; x < P; ++x)
        for (int q = x; q > 0; q = parent[q])
          if (q == pos) {
            ++all;
            if (x != extra) lo = std::min(lo, x), hi = std::max(hi, x);
          }
      if (P >= 4) EXPECT_LT(all - 1, P - 2) << "P=" << P << " pos=" << pos << ": descendants";
      if (pow2) EXPECT_LE(all - 1, P / 2 - 1) << "P=" << P << " pos=" << pos << ": descendants";
      int below = 0;
      for (int x = lo; x <= hi; ++x)
        for (int q = x; q > 0; q = parent[q])
          if (q == pos) { ++below; break; }
      EXPECT_EQ(below, hi - lo + 1) << "P=" << P << " pos=" << pos << ": subtree not contiguous";
    }
    EXPECT_LE(depth_max, P > 1 ? log2_n + 1 : 0) << "P=" << P;
    for (auto &x : t) arcoll_tree_free(&x);
  }
  const int bad[] = {0, 0, 1};
  arcoll_tree_t x;
  EXPECT_EQ(arcoll_tree_binary(bad, 3, 2, &x), MPI_ERR_ARG);
}

// P = 64 (the classic order, before any lateness summary): the root sends to
// 48 and 16, position 32 hangs under 34 with 33 its only child (the in-order
// tree had 32 as the root's only child, above 62 positions).
TEST(Tree, KnownBinaryP64) {
  auto children = [](int P, int pos) {
    std::vector<int> order(P);
    for (int i = 0; i < P; ++i) order[i] = i;
    arcoll_tree_t t;
    EXPECT_EQ(arcoll_tree_binary(order.data(), P, pos, &t), MPI_SUCCESS);
    std::vector<int> c(t.children, t.children + t.nchildren);
    arcoll_tree_free(&t);
    return c;
  };
  EXPECT_EQ(children(64, 0), (std::vector<int>{48, 16}));
  EXPECT_EQ(children(64, 34), (std::vector<int>{32, 35}));
  EXPECT_EQ(children(64, 32), (std::vector<int>{33}));
  EXPECT_EQ(arcoll_binary_parent_pos(32, 64), 34);
  EXPECT_EQ(children(5, 0), (std::vector<int>{2, 1}));
  EXPECT_EQ(children(5, 2), (std::vector<int>{3, 4}));
}

TEST(Tree, KnownBinomialP8) {
  std::vector<int> order = {3, 0, 1, 2, 4, 5, 6, 7};
  arcoll_tree_t t;
  ASSERT_EQ(arcoll_tree_binomial(order.data(), 8, 3, &t), MPI_SUCCESS);
  ASSERT_EQ(t.nchildren, 3);
  EXPECT_EQ(t.children[0], order[4]);
  EXPECT_EQ(t.children[1], order[2]);
  EXPECT_EQ(t.children[2], order[1]);
  arcoll_tree_free(&t);
  ASSERT_EQ(arcoll_tree_binomial(order.data(), 8, order[6], &t), MPI_SUCCESS);
  EXPECT_EQ(t.parent, order[4]);
  EXPECT_EQ(t.nchildren, 1);
  arcoll_tree_free(&t);
}

TEST(Tree, PositionsBySize) {
  for (int P : {1, 2, 3, 5, 8, 13, 64, 256}) {
    std::vector<int> pos(P);
    arcoll_binomial_positions_by_size(P, pos.data());
    EXPECT_EQ(pos[0], 0);
    std::vector<int> sorted = pos;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < P; ++i) EXPECT_EQ(sorted[i], i);
    for (int i = 1; i < P; ++i)
      EXPECT_GE(arcoll_binomial_subtree_size(pos[i - 1], P), arcoll_binomial_subtree_size(pos[i], P));
  }
  std::vector<int> pos(256);
  arcoll_binomial_positions_by_size(256, pos.data());
  EXPECT_EQ(pos[1], 128);
  EXPECT_EQ(pos[255] % 2, 1);  // the last (latest) rank lands on a leaf
  for (int i = 128; i < 256; ++i) EXPECT_EQ(pos[i] % 2, 1);
}

TEST(Tree, RejectsBadOrders) {
  arcoll_tree_t t;
  std::vector<int> dup = {0, 1, 1};
  EXPECT_EQ(arcoll_tree_binomial(dup.data(), 3, 0, &t), MPI_ERR_ARG);
  std::vector<int> out = {0, 1, 5};
  EXPECT_EQ(arcoll_tree_chain(out.data(), 3, 0, &t), MPI_ERR_ARG);
  EXPECT_EQ(arcoll_tree_binomial(nullptr, 0, 0, &t), MPI_ERR_ARG);
}

TEST(Segments, RoundsToWholeElements) {
  EXPECT_EQ(arcoll_segment_count(65536, 4, 1000000), 16384);
  EXPECT_EQ(arcoll_segment_count(7, 4, 100), 1);     // at least one element
  EXPECT_EQ(arcoll_segment_count(100, 24, 100), 4);  // rounded down
  EXPECT_EQ(arcoll_segment_count(0, 4, 100), 100);   // no segmentation
  EXPECT_EQ(arcoll_segment_count(1 << 20, 1, 17), 17);
}

// The in-order tree of the pipelined tree scan: every rank's view consistent
// with its parent's and children's, subtrees = contiguous rank ranges split
// at the rank, depth floor(log2 P) + 1, and send_up / recv_down exactly the
// ranks whose value / prefix the scan needs (checked by folding the
// definition top-down).
TEST(InorderTree, ConsistentRangesAndFlagsAllSizes) {
  for (int P = 1; P <= 300; ++P) {
    std::vector<arcoll_inorder_node_t> n(P);
    for (int r = 0; r < P; ++r) ASSERT_EQ(arcoll_tree_inorder(P, r, &n[r]), 0);
    int roots = 0, maxlevel = 0, log2P = 0;
    while ((2L << log2P) <= P) ++log2P;
    for (int r = 0; r < P; ++r) {
      const arcoll_inorder_node_t &v = n[r];
      ASSERT_TRUE(v.lo <= r && r < v.hi) << "P=" << P << " r=" << r;
      EXPECT_EQ(v.recv_down, v.lo > 0);
      maxlevel = std::max(maxlevel, v.level);
      if (v.parent < 0) {
        ++roots;
        EXPECT_EQ(v.lo, 0);
        EXPECT_EQ(v.hi, P);
        EXPECT_EQ(v.send_up, 0);
        EXPECT_EQ(v.level, 0);
      } else {
        const arcoll_inorder_node_t &p = n[v.parent];
        EXPECT_EQ(v.is_left ? p.left : p.right, r);
        EXPECT_EQ(v.level, p.level + 1);
        EXPECT_EQ(v.send_up, v.is_left || p.send_up) << "P=" << P << " r=" << r;
      }
      if (v.left >= 0) {  // left subtree = [lo, r), its root in it
        EXPECT_EQ(n[v.left].parent, r);
        EXPECT_EQ(n[v.left].lo, v.lo);
        EXPECT_EQ(n[v.left].hi, r);
        EXPECT_EQ(n[v.left].is_left, 1);
      } else {
        EXPECT_EQ(v.lo, r);
      }
      if (v.right >= 0) {
        EXPECT_EQ(n[v.right].parent, r);
        EXPECT_EQ(n[v.right].lo, r + 1);
        EXPECT_EQ(n[v.right].hi, v.hi);
        EXPECT_EQ(n[v.right].is_left, 0);
      } else {
        EXPECT_EQ(v.hi, r + 1);
      }
    }
    EXPECT_EQ(roots, 1);
    EXPECT_EQ(maxlevel, log2P) << "P=" << P;  // depth floor(log2 P) + 1 levels
    EXPECT_EQ(arcoll_tree_inorder_depth(P), maxlevel + 1) << "P=" << P;
  }
  arcoll_inorder_node_t v;
  EXPECT_EQ(arcoll_tree_inorder(0, 0, &v), -1);
  EXPECT_EQ(arcoll_tree_inorder(4, 4, &v), -1);
  EXPECT_EQ(arcoll_tree_inorder(4, -1, &v), -1);
  EXPECT_EQ(arcoll_tree_inorder_depth(0), 0);
}

// Checked against the definitions: 2^l >= n > 2^(l-1), and p <= n < 2p, p a power of two.
TEST(TreeArithmetic, CeilLog2AndFloorPow2) {
  for (int n = 1; n <= 5000; ++n) {
    const int l = arcoll_ceil_log2(n), p = arcoll_floor_pow2(n);
    EXPECT_GE(1L << l, n) << n;
    if (l > 0) EXPECT_LT(1L << (l - 1), n) << n;
    EXPECT_EQ(p & (p - 1), 0) << n;
    EXPECT_LE(p, n) << n;
    EXPECT_GT(2L * p, n) << n;
  }
  EXPECT_EQ(arcoll_ceil_log2(1), 0);
  EXPECT_EQ(arcoll_ceil_log2(0), 0);
  EXPECT_EQ(arcoll_floor_pow2(0), 1);
  EXPECT_EQ(arcoll_ceil_log2(INT_MAX), 31);
  EXPECT_EQ(arcoll_floor_pow2(INT_MAX), 1 << 30);
}

TEST(ParseInteger, WholeDecimalInRange) {
  long long v = 7;
  EXPECT_EQ(arcoll_parse_integer("42", 0, 100, &v), 0);
  EXPECT_EQ(v, 42);
  EXPECT_EQ(arcoll_parse_integer("-3", -5, 5, &v), 0);
  EXPECT_EQ(v, -3);
  EXPECT_EQ(arcoll_parse_integer("1099511627776", 0, 1LL << 40, &v), 0);
  EXPECT_EQ(v, 1LL << 40);
  // rejected: v unchanged
  for (const char *bad : {"", "3x", "x3", "4 ", "1.5", "101", "-6", "99999999999999999999"}) {
    v = 7;
    EXPECT_EQ(arcoll_parse_integer(bad, -5, 100, &v), -1) << "'" << bad << "'";
    EXPECT_EQ(v, 7) << "'" << bad << "'";
  }
}

}  // namespace
