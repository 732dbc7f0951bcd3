// Unit test of collectives/tree_extra.h arcoll_tree_chain_runs: the chain
// (run 0: one chain; or the chain of runs, a run being positions in a row
// whose ranks share a block of `run` rank numbers) over the first
// P - k positions, each of the last k a leaf of the chain rank nearest below
// it in rank numbers; every rank's view agrees with the others'.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

extern "C" {
#include "tree.h"
#include "tree_extra.h"
}

namespace {

struct View {
  int parent;
  std::vector<int> children;
};

// Every rank's view of the tree over `order` with k leaves and runs of `run`.
std::vector<View> views(const std::vector<int>& order, int k, int run) {
  const int P = static_cast<int>(order.size());
  std::vector<View> v(P);
  for (int r = 0; r < P; ++r) {
    arcoll_tree_t t;
    EXPECT_EQ(arcoll_tree_chain_runs(order.data(), P, k, run, r, &t), MPI_SUCCESS);
    EXPECT_EQ(t.rank, r);
    EXPECT_EQ(t.root, order[0]);
    v[r].parent = t.parent;
    v[r].children.assign(t.children, t.children + t.nchildren);
    arcoll_tree_free(&t);
  }
  return v;
}

std::vector<int> shuffled(int P, unsigned seed) {
  std::vector<int> order(P);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 g(seed);
  std::shuffle(order.begin() + (P > 0 ? 1 : 0), order.end(), g);
  return order;
}

}  // namespace

// Depth of every rank below the root (-1: not reached).
std::vector<int> depths(const std::vector<View>& v, int root) {
  std::vector<int> d(v.size(), -1), stack = {root};
  d[root] = 0;
  while (!stack.empty()) {
    const int r = stack.back();
    stack.pop_back();
    for (int c : v[r].children) {
      d[c] = d[r] + 1;
      stack.push_back(c);
    }
  }
  return d;
}

TEST(TreeChainLeaves, RunsThenLeavesOffTheirRankNeighbours) {
  for (int P = 1; P <= 70; ++P)
    for (int k : {0, 1, 2, 3, 5, 8, P - 1, P, P + 4})
      for (int run : {0, 1, 2, 3, 8, P}) {
        if (k < 0) continue;
        // shuffled orders (runs of one or a few positions) and rank order from a root (blocks)
        for (int sorted = 0; sorted < 2; ++sorted) {
          std::vector<int> order = shuffled(P, 100u * P + k + 7u * run);
          if (sorted)
            for (int p = 0; p < P; ++p) order[p] = (P / 3 + p) % P;
          const int kk = std::min(k, P - 1), nchain = P - kk;
          const int L = run <= 1 ? P : run;  // one chain: a single block
          const auto head = [&](int p) { return p == 0 || order[p] / L != order[p - 1] / L; };
          std::vector<int> pos(P), heads;
          for (int p = 0; p < P; ++p) pos[order[p]] = p;
          for (int p = 0; p < nchain; ++p)
            if (head(p)) heads.push_back(p);
          const std::vector<View> v = views(order, k, run);
          int longest = 0;
          for (size_t h = 0; h < heads.size(); ++h)
            longest = std::max(longest, (h + 1 < heads.size() ? heads[h + 1] : nchain) - heads[h]);
          for (int p = 0; p < P; ++p) {
            const int r = order[p];
            const size_t h = std::upper_bound(heads.begin(), heads.end(), p) - heads.begin() - 1;
            if (p == 0) {
              EXPECT_EQ(v[r].parent, -1);
            } else if (p < nchain) {  // a head from the previous head, else from p - 1
              EXPECT_EQ(v[r].parent, order[head(p) ? heads[h - 1] : p - 1])
                  << "P=" << P << " k=" << k << " run=" << run << " pos " << p;
              if (!head(p)) EXPECT_EQ(order[p] / L, order[p - 1] / L);  // a run: one block
            } else {  // a leaf: the first rank below it (mod P) on the chain
              int q = r;
              do q = (q + P - 1) % P;
              while (pos[q] >= nchain);
              EXPECT_EQ(v[r].parent, q) << "P=" << P << " k=" << k << " leaf " << r;
              EXPECT_TRUE(v[r].children.empty());
            }
            // the next head first, then the run's successor, then the leaves in position order
            std::vector<int> first;
            if (p < nchain && head(p) && h + 1 < heads.size()) first.push_back(order[heads[h + 1]]);
            if (p + 1 < nchain && !head(p + 1)) first.push_back(order[p + 1]);
            ASSERT_GE(v[r].children.size(), first.size());
            for (size_t i = 0; i < first.size(); ++i) EXPECT_EQ(v[r].children[i], first[i]);
            for (size_t i = first.size() + 1; i < v[r].children.size(); ++i)
              EXPECT_LT(pos[v[r].children[i - 1]], pos[v[r].children[i]]);
            for (int c : v[r].children) EXPECT_EQ(v[c].parent, r);  // views agree
          }
          // one tree: P - 1 edges, every rank reached from the root, depth of the runs
          size_t edges = 0;
          for (const View& x : v) edges += x.children.size();
          EXPECT_EQ(edges, static_cast<size_t>(P - 1));
          const std::vector<int> d = depths(v, order[0]);
          EXPECT_EQ(std::count(d.begin(), d.end(), -1), 0) << "P=" << P << " k=" << k;
          const int deepest = static_cast<int>(heads.size()) - 1 + longest - 1 + (kk > 0 ? 1 : 0);
          EXPECT_LE(*std::max_element(d.begin(), d.end()), deepest) << "P=" << P << " run=" << run;
        }
      }
}

// The late chain's order (rank order from the root, the late rank last): its runs are the
// blocks of 8 rank numbers without the late rank, so none spans two nodes or switches of
// 8 or 16 ranks; runs of 8 positions instead held ranks 25-32 and 41-48, each fed across a
// switch beside the head chain (SMPI two-level tree, 16 ranks per switch).
TEST(TreeChainLeaves, RunsAreBlocksOfRankNumbers) {
  const int P = 64, late = 24;
  std::vector<int> order;
  for (int r = 0; r < P; ++r)
    if (r != late) order.push_back(r);
  order.push_back(late);
  const std::vector<View> v = views(order, 1, 8);
  const std::vector<int> heads = {0, 8, 16, 25, 32, 40, 48, 56};
  for (size_t i = 0; i + 1 < heads.size(); ++i) {
    EXPECT_EQ(v[heads[i]].children[0], heads[i + 1]);
    EXPECT_EQ(v[heads[i + 1]].parent, heads[i]);
  }
  EXPECT_EQ(v[16].children, (std::vector<int>{25, 17}));  // 24 is late: the block's head is 25
  EXPECT_EQ(v[25].children, (std::vector<int>{32, 26}));
  EXPECT_EQ(v[25].parent, 16);
  EXPECT_EQ(v[31].children, std::vector<int>{});  // the run ends at the block's end, not at 32
  EXPECT_EQ(v[32].parent, 25);
  EXPECT_EQ(v[23].children, std::vector<int>{late});  // the late leaf off its rank neighbour
  for (int r = 1; r < P; ++r)
    if (r != late && r % 8 && r != 25) EXPECT_EQ(v[r].parent, r - 1) << r;
}

TEST(TreeChainLeaves, NoLeavesIsTheChain) {
  const std::vector<int> order = shuffled(17, 5);
  for (int r = 0; r < 17; ++r) {
    arcoll_tree_t a, b;
    ASSERT_EQ(arcoll_tree_chain_runs(order.data(), 17, 0, r % 3 ? 1 : 17, r, &a), MPI_SUCCESS);
    ASSERT_EQ(arcoll_tree_chain(order.data(), 17, r, &b), MPI_SUCCESS);
    EXPECT_EQ(a.parent, b.parent);
    ASSERT_EQ(a.nchildren, b.nchildren);
    for (int i = 0; i < a.nchildren; ++i) EXPECT_EQ(a.children[i], b.children[i]);
    arcoll_tree_free(&a);
    arcoll_tree_free(&b);
  }
}

TEST(TreeChainLeaves, RejectsNegativeLeavesAndBadOrders) {
  std::vector<int> order = {2, 0, 1, 3};
  arcoll_tree_t t;
  EXPECT_EQ(arcoll_tree_chain_runs(order.data(), 4, -1, 0, 0, &t), MPI_ERR_ARG);
  EXPECT_EQ(arcoll_tree_chain_runs(order.data(), 4, -1, 2, 0, &t), MPI_ERR_ARG);
  EXPECT_EQ(arcoll_tree_chain_runs(order.data(), 4, 0, 2, 7, &t), MPI_ERR_ARG);  // 7 not in it
  order[3] = 0;  // not a permutation
  EXPECT_EQ(arcoll_tree_chain_runs(order.data(), 4, 1, 0, 0, &t), MPI_ERR_ARG);
}
