/**
 * @file block_moves.hpp
 * @brief Hill climbing over moves of whole groups of ranks on the seed-001
 *        cost (cost.hpp): the complete contents of two hosts exchanged, or of
 *        two switch subtrees (e.g. two leaves of different pods).
 *
 * Why: the rank swaps of refine.hpp stop on a plateau when they start from a
 * partition (METIS, the refinement's start from a random mapping): the ranks
 * of one host exchange a lot with each other, so taking any one of them away
 * costs more than it gains, although moving the whole host's contents next to
 * its partners' hosts would pay (issue 18 item 4). These are Kernighan-Lin
 * exchanges of whole parts (Kernighan and Lin, "An efficient heuristic
 * procedure for partitioning graphs", Bell Syst. Tech. J. 49, 1970) at every
 * level of the tree, coarse to fine as in multilevel refinement (Karypis and
 * Kumar, SIAM J. Sci. Comput. 20, 1998), accepted on the contention cost T(pi)
 * rather than on the cut.
 *
 * Groups (tree_groups.hpp): a vertex below the root and the host entries
 * beneath it. Exchanging groups u and w of one depth (same number of entries,
 * different parents) exchanges the ranks of their k-th entries for every k;
 * legal when every entry's slots hold what it receives. Groups with one
 * parent are never exchanged (a relabelling of equal cost), nor levels where
 * all groups have one parent (the leaves of a two-level tree).
 *
 * Candidates of u: every group of the level when it has at most
 * `full_groups` (64 hosts of the 1024-rank fat tree: ~50 candidates each);
 * above that (4096 hosts would be 8M pairs) the groups that exchange the most
 * bytes with u (`partners`), groups sampled under each partner's parent
 * (`per_partner`, the places next to it) and anywhere (`random`), of which
 * the `exact` with the highest positive hop-bytes gain. Ranked by that gain
 * (the exact change of hop-bytes, bytes x links; equal gains in a seeded
 * order) and evaluated on T(pi) by CostModel (ranks moved one pair per
 * apply(), moved back when rejected): the first that lowers T(pi) (relative
 * 1e-12), or keeps it and lowers the hop-bytes (refine.hpp's tie-breaker),
 * is taken. Levels root side first, groups in a seeded order, until a round
 * takes nothing. Why not only positive gains on small levels: on the 1024-rank
 * fat tree every exchange that lowered T(pi) for rd_alltoall from METIS raised
 * the hop-bytes (placement/BLOCK_MOVES.md "Block moves").
 *
 * Deterministic for a seed unless the time limit cuts it; evaluations are
 * CostModel::apply() calls (one or two ranks moved, the unit of
 * RefineOptions::max_evals), moves back included. Slots always respected.
 */
#ifndef ARCOLL_PLACEMENT_BLOCK_MOVES_HPP
#define ARCOLL_PLACEMENT_BLOCK_MOVES_HPP

#include <cstdint>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "refine.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/** Bound of one block pass inside refine_with_blocks(), in CostModel evaluations per rank (a quarter of
 *  kDefaultEvalsPerRank): a count, so the pass ends at the same point on any machine, and independent of
 *  --max-evals, so that a run cut by the clock is reproduced by `--max-evals` its evaluations. From METIS's
 *  mapping on the 1024-rank fat tree a pass ended by itself after 96-188 per rank (placement/BLOCK_MOVES.md). */
constexpr long kBlockEvalsPerRank = 500;
/** Rank descents and block passes alternated at most this many times by refine_with_blocks(). */
constexpr int kBlockAlternations = 8;

struct BlockOptions {
  uint64_t seed = 1;
  double time_limit_s = 10;  ///< wall-clock bound, seconds
  long max_evals = 0;        ///< bound on CostModel::apply() calls (0 = none): deterministic stop
  int full_groups = 64;      ///< levels with at most this many groups: every group is a candidate
  int partners = 3;          ///< larger levels: partner groups (most bytes exchanged) whose parents are tried
  int per_partner = 3;       ///< groups sampled under each partner's parent
  int random = 2;            ///< groups sampled anywhere at the same depth
  int exact = 4;             ///< larger levels: candidates per group evaluated on T(pi)
  int max_rounds = 50;       ///< rounds over all levels (a round that takes nothing ends the pass)
  int threads = 0;           ///< CostModel::set_threads (0 = OpenMP's default); same result for every count
};

struct BlockResult {
  Mapping map;               ///< final mapping (never worse than the start in T(pi))
  double time_s = 0;         ///< its T(pi), seconds
  long evaluations = 0;      ///< CostModel::apply() calls
  long tried = 0;            ///< group exchanges evaluated on T(pi)
  long accepted = 0;         ///< group exchanges taken
  bool hit_time_limit = false;
};

/** Block-move hill climbing from `start` (precondition: respects_slots()). */
BlockResult block_moves(const CommGraph &g, const Topology &topo, const Mapping &start, const BlockOptions &opt);

/**
 * The `refined` stage's search (place.hpp). With opt.blocks: block passes (block_moves(), at most
 * kBlockEvalsPerRank x ranks evaluations each, seeds opt.seed + k) and restart-free descents of refine()
 * alternate, block pass first, while the block pass takes an exchange (at most kBlockAlternations times),
 * then refine() with its restarts; all within opt.max_evals (CostModel evaluations of both kinds) and opt.time_limit_s, and
 * a phase cut by the clock ends the search (so `--max-evals` with the evaluations made reproduces it).
 * opt.max_step_evals bounds the whole-step evaluations of the refine() descents together (the block
 * passes have their own count above); reaching it ends the search like the other budgets.
 * Never worse than `start` in T(pi); `evaluations` counts both searches, `block_moves` the exchanges
 * taken. Without opt.blocks: refine().
 */
RefineResult refine_with_blocks(const CommGraph &g, const Topology &topo, const Mapping &start,
                                const RefineOptions &opt);

}  // namespace arcoll::placement

#endif
