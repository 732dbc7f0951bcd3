/**
 * @file refine.hpp
 * @brief Swap/move local search on the seed-001 cost (cost.hpp).
 *
 * Seed 001_6a837e3d9ad6c429.txt searched mappings exhaustively (O(P!)) and
 * names heuristics as the open problem; this is the simplest one: hill
 * climbing over (a) swaps of two ranks on different hosts and (b) moves of a
 * rank to a host with a free slot, accepting strict improvements (relative
 * gain > 1e-12) and, on the plateaus of the max-based cost (equal cost within
 * 1e-12 relative), moves that lower the hop-bytes of the rank graph (a
 * lexicographic tie-breaker: the step maximum often pins the cost to one
 * link while the rest of the mapping is still improvable), visiting candidates in an order shuffled by a std::mt19937_64
 * seeded with `seed`; when a pass finds nothing, a perturbation of
 * `kick` random swaps from the best mapping restarts the descent, up to
 * `restarts` times. Slots are always respected.
 *
 * Deterministic for a given seed as long as the search ends before
 * `time_limit_s` (the time limit only cuts it short).
 */
#ifndef ARCOLL_PLACEMENT_REFINE_HPP
#define ARCOLL_PLACEMENT_REFINE_HPP

#include <cmath>
#include <cstdint>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/**
 * Default bound on the refinement's candidate evaluations per rank of the
 * trace (`arcoll place` without `--max-evals`: 2000 x ranks). Why: with this
 * bound the search ends on a count, not on the clock, wherever it is
 * reachable within the time limit, so two runs with the same seed write the
 * same mapping on any machine. The searches of the placement suite
 * (placement/SUITE.md) ended by themselves (the restarts below) after
 * 20k-52k evaluations at 32 ranks, 64k-197k at 64 ranks and 0.92M at 1024
 * ranks (halo2d); 2000 x ranks cuts only the longest 64-rank ones, where the
 * last 30 % of the evaluations lowered T(pi) by <= 2.5 % (node16 wavefront).
 */
constexpr long kDefaultEvalsPerRank = 2000;

/**
 * Default bound on the refinement's work per rank of the trace, in whole-step evaluations of the
 * cost model (CostModel::step_evaluations(): steps computed, not answered from its memo; `arcoll
 * place` without `--max-step-evals`: 50000 x ranks, i.e. 25 per candidate of the default
 * kDefaultEvalsPerRank budget). Why: a candidate costs the distinct steps of its two ranks, 0-7.3
 * whole steps per candidate on the placement suite's traces (<= 0.35M per search at 32 ranks,
 * <= 0.93M at 64, none at 1024: they end as before) but ~470 on ScaLAPACK LU's 2251 distinct levels
 * (24.3M at 32 ranks, 4.7 s here), whose first descent ended within 0.08 % of what its 20 restarts
 * reached; the bound ends LU's search after 3503 candidates (0.6 s) with the same written mapping
 * (placement/notes/chooser-suite-2026-12-01-to-02.md "The refinement's work budget"). A count, like
 * kDefaultEvalsPerRank: the
 * same mapping on any machine and for any --threads.
 */
constexpr long kDefaultStepEvalsPerRank = 50000;

/** The searches' acceptance on T(pi) (seconds; refine(), block_moves()): `after` is a strict
 *  improvement on `before` when lower by more than 1e-12 relative ... */
inline bool cost_better(double after, double before) { return after < before - 1e-12 * std::abs(before); }
/** ... and equal within 1e-12 relative (a plateau of the max-based cost: the hop-bytes decide). */
inline bool cost_same(double after, double before) { return std::abs(after - before) <= 1e-12 * std::abs(before); }

struct RefineOptions {
  uint64_t seed = 1;
  double time_limit_s = 10;   ///< wall-clock bound, seconds
  int restarts = 20;          ///< perturbation restarts after the first local optimum
  int kick = 3;               ///< swaps per perturbation
  long max_evals = 0;         ///< bound on candidate evaluations (0 = none): deterministic stop
  /// Bound on the cost model's whole-step evaluations of one refine() call (0 = none; the search ends
  /// at the first candidate that reaches it): deterministic stop (kDefaultStepEvalsPerRank).
  long max_step_evals = 0;
  /// Threads of the cost model's step evaluations (CostModel::set_threads; 0 = OpenMP's default):
  /// the same search and result for every count, only faster on long step lists.
  int threads = 0;
  int full_neighbourhood = 512;  ///< up to this many ranks, try all swaps
  /// refine_with_blocks(): alternate with block moves (block_moves.hpp); refine() ignores it.
  /// Off by default (`arcoll place --block-moves`): in SMPI faster than the refined row on 15 of the
  /// suite's 50 cells (1024-rank fat tree halo2d -6.7 %), slower on 3, and as the default it would cost
  /// the chooser 2 of 40 settings (placement/notes/chooser-suite-2026-11-29-to-30.md "Opt-in rows and the
  /// fidelity at 1024 ranks").
  bool blocks = false;
  /// Answer a swap already evaluated and rejected since the mapping last changed from that
  /// rejection instead of the cost model (full neighbourhood, no per-link steps: refine.cpp).
  /// The search, its evaluation count and its result are the same either way (checked by
  /// test/placement/test_cost_memo.cpp); off only to show that.
  bool skip_repeated_swaps = true;
};

struct RefineResult {
  Mapping map;                ///< best mapping seen (never worse than the start)
  double time_s = 0;          ///< its T(pi), seconds
  long evaluations = 0;       ///< candidate evaluations
  bool hit_time_limit = false;
  long step_evaluations = 0;  ///< the cost model's whole-step evaluations (CostModel::step_evaluations())
  bool hit_step_budget = false;  ///< ended on max_step_evals
  long block_moves = 0;       ///< refine_with_blocks(): group exchanges accepted (block_moves.hpp)
};

/** Precondition: `start` respects the slots (respects_slots()). */
RefineResult refine(const CommGraph &g, const Topology &topo, const Mapping &start, const RefineOptions &opt);

}  // namespace arcoll::placement

#endif
