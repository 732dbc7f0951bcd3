/**
 * @file place.hpp
 * @brief The placement pipeline: current -> hop-bytes -> METIS -> Scotch ->
 *        refinement, each stage scored with the seed-001 cost (cost.hpp).
 *
 * Stages (in this order; `Strategy` selects which run and which is written):
 *  - "in-order" / "initial": the current mapping: in-order (ranks fill the
 *    hosts in hostfile order, as mpiexec does) or the given initial mapping
 *    (random or from a file, mapping_io.hpp);
 *  - "hopbytes": distance-only local search from the current mapping
 *    (hopbytes.hpp; seed 001's "distance-based mapping");
 *  - "metis": METIS k-way partition into hosts (partition_metis.hpp);
 *  - "metis (tree)": METIS top down along the switch tree
 *    (partition_tree.hpp; strategy metis_tree only, not a stage of refined
 *    or best: see there);
 *  - "scotch (tleaf|deco)": the METIS parts mapped onto the switch tree;
 *  - "metis (message time)": METIS on the pairs' message times
 *    (partition_metis.hpp time_weighted_graph; strategies metis_time,
 *    refined and best);
 *  - "scotch (message time, tleaf|deco)": that partition mapped onto the
 *    switch tree by Scotch on the same message-time graph (strategy
 *    scotch_time only, not a stage of refined or best: placement/notes/chooser-suite-2026-12-01-to-02.md
 *    "Scotch on message times");
 *  - "refined": swap/move search on the seed-001 cost (refine.hpp)
 *    alternated with exchanges of whole hosts' and subtrees' contents
 *    (block_moves.hpp, refine_with_blocks()), started from the earlier stage
 *    choose_stage() picks, never worse than its start in T(pi).
 */
#ifndef ARCOLL_PLACEMENT_PLACE_HPP
#define ARCOLL_PLACEMENT_PLACE_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "refine.hpp"
#include "topology.hpp"

namespace arcoll::placement {

/** Which stage's mapping to write. Identity = keep the current mapping. */
enum class Strategy { Identity, HopBytes, Metis, MetisTree, Scotch, MetisTime, ScotchTime, Refined, Best };

/** "identity", "hopbytes", "metis", "metis_tree", "scotch", "metis_time", "scotch_time", "refined", "best" ->
 *  Strategy;
 *  std::invalid_argument listing the names otherwise. */
Strategy parse_strategy(const std::string &name);

struct Stage {
  std::string name;           ///< see the file comment
  Mapping map;
  CostReport cost;
  double seconds = 0;         ///< wall-clock time the stage took to compute (not its cost)
  long evaluations = -1;      ///< refinement stages: candidate evaluations made (-1: not a refinement)
  long step_evaluations = -1;  ///< refinement stages: the cost model's whole-step evaluations (RefineOptions::max_step_evals)
  bool step_budget = false;   ///< refinement stages: the search ended on RefineOptions::max_step_evals
  double blend_s = -1;        ///< blend model T(pi), seconds, when Ranking::Blend ranked the stages; else -1
};

/**
 * Relative tolerance on T(pi) within which two stages count as tied
 * (dimensionless; 0.01 = 1 %). Why 1 %: T(pi) leaves out what SMPI and a
 * real network add (per-size bandwidth factors, the rendezvous protocol,
 * overlap of consecutive steps), so a difference of a few tenths of a percent
 * in T(pi) is below the model's resolution, while a whole mapping that is
 * better on the link loads is a structural difference (issue 18's scrambled
 * ring: four stages at exactly the same T(pi), SMPI 0.221 - 0.543 of
 * in-order, ordered by max link load). 1 % is also the margin by which the
 * written mapping may be worse than in-order. Measured on the placement
 * suite (placement/CHOOSER.md "How the mapping is chosen").
 */
inline constexpr double kTieTolerance = 0.01;

/** PlaceOptions::refined_margin's default (dimensionless): see SecondOpinion. */
inline constexpr double kRefinedMargin = 0.05;

/**
 * Which estimated time Strategy::Best ranks the stages by when the cost is
 * the count model (Contention::Count, the default; the stages and the
 * refinement always minimise the count model, whose incremental evaluator
 * tries many more candidates):
 *  - Count: the count model's T(pi) (Stage::cost.time_s), with the blend
 *    model as a second opinion on the refined mapping (SecondOpinion);
 *  - Blend (default): the blend model's T(pi) (Stage::blend_s, cost.hpp
 *    Contention::Blend), ties (within the tolerance) broken by the count
 *    model's max link load, then hop-bytes, as choose_stage().
 * Why Blend: the count model charges a big message as many times its size
 * as there are small ones on its links; on the placement suite
 * (placement/notes/chooser-suite-2026-11-29-to-30.md, "The blend ranking", 50 workload x machine x start
 * settings) the blend ranking with the path opinion puts 49 default picks
 * within 5 % of the best strategy's SMPI time against 48 for Count (the
 * one change: node16 scalapack_lu from a random start, hop-bytes written,
 * 0.834 of the start, where Count wrote METIS, 1.015).
 */
enum class Ranking { Count, Blend };

/** "count" / "blend" -> Ranking; std::invalid_argument naming both otherwise. */
Ranking parse_ranking(const std::string &name);

/**
 * Index of the stage to write among `stages` (non-empty): among the stages
 * whose estimated time is within `rel_tol` (dimensionless) of the lowest one,
 * T <= T_min * (1 + rel_tol), the one with the lowest max link load
 * (CostReport::max_congestion, messages of one step on one network link),
 * then the lowest hop-bytes (bytes x links), then the lowest inter-socket
 * bytes (0 without sockets, HOSTS.md), then the lowest T(pi) (seconds),
 * then the earliest. rel_tol = 0 breaks exact ties only. Source: issue 18
 * (ties broken by max link load, then hop-bytes); cost.hpp for the metrics.
 */
size_t choose_stage(const std::vector<Stage> &stages, double rel_tol = kTieTolerance,
                    Ranking by = Ranking::Count, size_t leading = SIZE_MAX);

/** The estimated time (seconds) at or below which a stage counts as tied with
 *  the lowest of `stages` (non-empty): T_min x (1 + max(0, rel_tol)). Used by
 *  choose_stage(), PlaceOptions::keep_start and `arcoll place`'s "tied" marks.
 *  `by` = Ranking::Blend: T is Stage::blend_s (std::invalid_argument when a
 *  stage has none, blend_s < 0), else Stage::cost.time_s. Both functions look
 *  only at the first `leading` stages (all by default; e.g. the stages before
 *  the refinement, for its path opinion). */
double tie_limit(const std::vector<Stage> &stages, double rel_tol = kTieTolerance, Ranking by = Ranking::Count,
                 size_t leading = SIZE_MAX);

/**
 * Second opinion on the refinement's mapping (Strategy::Best under
 * Contention::Count and Ranking::Count): the refinement minimises the count model, so among the
 * good mappings it ends where that model errs most in its favour. Its
 * mapping is written only if the blend model (cost.hpp), which it did not
 * minimise, also rates it below the refinement's start; otherwise the start
 * is written. Measured on the placement suite (placement/SUITE.md, 36
 * workload x machine x start settings): 33 default picks within 5 % of the
 * best strategy's SMPI time against 30 for the count model alone (node16
 * halo3d from both starts, umt_like from random).
 *
 * Under Ranking::Blend the same struct holds the *margin* check: a refined
 * mapping ranked first is written only when its blend time is below that of
 * the stage ranked first among the others by more than
 * PlaceOptions::refined_margin (`start` is then that stage, `margin` the
 * fraction). Why: the refinement searched the count model, and the mapping
 * a search ends on carries its model's errors in its favour (the
 * optimiser's curse); the blend model is correlated with that error. On
 * the suite the refined mappings the blend model rated 2.1-3.1 % below the
 * next stage ran 2.4 % faster and 12.8 % slower in SMPI (node16 sparse_random,
 * umt_like from in-order), those rated 6.0 % and more below ran 11-52 %
 * faster, except the wavefront, which the path opinion catches
 * (placement/notes/chooser-suite-2026-11-29-to-30.md "The margin on the refined mapping": any margin in
 * (3.14 %, 6.04 %) gives 40 of 40 node16/seed001 settings, 5 % is used).
 */
struct SecondOpinion {
  bool checked = false;       ///< the refinement's mapping had the lowest count cost and was compared
  bool overruled = false;     ///< the blend model did not rate it lower: the start was written
  size_t start = 0;           ///< index of the refinement's start among the stages (Ranking::Count), or of
                              ///< the stage ranked first among the others (Ranking::Blend)
  double start_s = 0;         ///< blend model T of the start, seconds
  double refined_s = 0;       ///< blend model T of the refinement's mapping, seconds
  double margin = 0;          ///< Ranking::Blend: the fraction refined_s had to be below start_s by (refined_margin)
};

/** The path opinion's weight of the overlap critical path against the fluid one (PathOpinion): its score
 *  of a mapping is overlap^w x fluid^(1 - w), seconds (dimensionless w in [0, 1]; 1 = the overlap path alone,
 *  the opinion before 4 Dec 2026). Why 0.3: on the placement suite's 36 fidelity cells (node16 and seed001,
 *  both starts, 20 mappings each; placement/notes/chooser-suite-2026-12-03-to-04.md "One model for every
 *  cell") every w in [0.10, 0.45]
 *  orders the mappings as SMPI does at Spearman >= 0.9 on all 36 (min 0.901-0.904), the overlap path alone 32,
 *  the fluid path alone 33; 0.3 is inside that range, away from its ends. */
inline constexpr double kPathOverlapWeight = 0.3;

/**
 * Third opinion, for traces with dependency levels (CommGraph::deps: the
 * trace records receives): the refined mapping is written only if its
 * path score - the critical path with time-overlap contention
 * (critical_path.hpp, PathContention::Overlap) and the fluid replay
 * (PathContention::Fluid) combined as overlap^w x fluid^(1 - w), w =
 * PlaceOptions::path_overlap_weight (kPathOverlapWeight) - is also below the
 * start's by more than the tie tolerance (kTieTolerance: the models'
 * resolution). Why: in a pipeline
 * (a wavefront of blocking receives and sends) the levels are not separated
 * in time, and the count and blend models, which charge every level its
 * slowest message, rated a refined mapping 24-29 % below in-order that SMPI
 * ran 17 % slower (node16 wavefront: refined 22.06 ms vs in-order 28.92 ms
 * in the count model, 35.03 vs 29.96 ms in SMPI; the overlap path 61.9 vs
 * 37.5 ms). Measured on the placement suite (placement/notes/chooser-suite-2026-11-26-to-29.md
 * "Critical path", node16 and seed001, 40 settings): 38 default picks
 * within 5 % of the best strategy's SMPI time against 36 without it; with
 * the fluid path weighted in (4 Dec 2026, "One model for every cell"): 40
 * of 40, as with the overlap path alone.
 */
struct PathOpinion {
  bool checked = false;       ///< the refined mapping was about to be written and the trace has levels
  bool overruled = false;     ///< its score was not below the start's: the start was written
  size_t start = 0;           ///< the stage compared: the refinement's start (Ranking::Count), or the
                              ///< one ranked first among the other stages (Ranking::Blend)
  double start_s = 0;         ///< path score of the start, seconds (overlap^w x fluid^(1 - w))
  double refined_s = 0;       ///< path score of the refined mapping, seconds
  double weight = kPathOverlapWeight;  ///< w, the overlap path's weight (dimensionless)
  double start_overlap_s = -1, start_fluid_s = -1;      ///< the start's two paths, seconds (-1: not computed)
  double refined_overlap_s = -1, refined_fluid_s = -1;  ///< the refined mapping's, seconds
};

/** The path score overlap^w x fluid^(1 - w), seconds, of a mapping's overlap and fluid critical paths
 *  (seconds; w in [0, 1]). The overlap path alone when w >= 1 or the fluid one is not positive, the fluid
 *  one alone when w <= 0; -1 when the needed path is negative (no dependency levels). */
double path_score(double overlap_s, double fluid_s, double w);

/** True when the path score (path_score, weight `w`) of `refined` is below that of `start` by more than the
 *  tie tolerance, start > refined x (1 + rel_tol) (dimensionless, as tie_limit()); fills the scores and the
 *  paths it computed (seconds) into `out` (PathOpinion; the fluid path only for w < 1, the overlap one only
 *  for w > 0). Needs g.deps (else the scores are -1 and the answer is false). */
bool path_agrees(const CommGraph &g, const Topology &topo, const Mapping &start, const Mapping &refined,
                 PathOpinion &out, double rel_tol = kTieTolerance, double w = kPathOverlapWeight);

/** True when the blend model rates `refined` strictly below `start`; fills
 *  the blend times (seconds) into `out` (second opinion, see SecondOpinion). */
bool blend_agrees(const CommGraph &g, const Topology &topo, const Mapping &start, const Mapping &refined,
                  SecondOpinion &out);

struct PlaceResult {
  std::vector<Stage> stages;  ///< in the order above, only the stages that ran
  size_t best = 0;            ///< index choose_stage() picks among the stages (lowest T(pi) up to the tolerance,
                              ///< then max link load, then hop-bytes)
  size_t chosen_index = 0;    ///< the stage the strategy selects (== best for Strategy::Best)
  RefineResult refine;        ///< details of the refinement (when it ran)
  SecondOpinion second;       ///< the blend model's check of the refinement (Best under Count)
  PathOpinion path;           ///< the critical path's check of the refinement (Best, trace with levels)
  bool start_kept = false;    ///< Best: another stage ranked first, but the start was within the tolerance (keep_start)
  const Stage &chosen() const { return stages[chosen_index]; }
};

struct PlaceOptions {
  RefineOptions refine;       ///< seed (also METIS, Scotch, hop-bytes), time limit, max_evals
  Strategy strategy = Strategy::Best;
  Mapping initial;            ///< current mapping; empty = in-order
  std::string initial_name = "in-order";
  double tie_tolerance = kTieTolerance;  ///< choose_stage()'s rel_tol; also picks the refinement's start
  Ranking ranking = Ranking::Blend;      ///< how Best ranks the stages under Contention::Count (Ranking)
  bool second_opinion = true;            ///< SecondOpinion (Best under Contention::Count, Ranking::Count only)
  bool path_opinion = true;              ///< PathOpinion (Best, traces with dependency levels only)
  double path_overlap_weight = kPathOverlapWeight;  ///< PathOpinion's w: overlap^w x fluid^(1 - w), in [0, 1]
  /** Best under Ranking::Blend: a refined mapping ranked first is written only when its blend time is below
   *  the stage ranked first among the others by more than this fraction (SecondOpinion; 0 or less = off). */
  double refined_margin = kRefinedMargin;
  /** Best: write the start (stage 0: in-order or `initial`) whenever its estimated time is within
   *  `tie_tolerance` of the lowest stage's: moving ranks must be predicted to gain more than the tolerance.
   *  Why: the tie-break (max link load, then hop-bytes) can pick a mapping the model rates only 0.6 %
   *  better that SMPI runs 15 % slower (placement/notes/chooser-suite-2026-11-26-to-29.md, node16
   *  scalapack_lu: METIS 37.72 vs in-order
   *  37.94 ms in the model, 0.164 vs 0.142 s in SMPI); on the 36 settings of the earlier suite it changes
   *  no pick. */
  bool keep_start = true;
  /** Refined/Best: also refine from this many random mappings (random_mapping(), seeds refine.seed + k),
   *  each with the refinement's budget (refine.max_evals; the time limit is shared), and keep the lowest
   *  estimated time; the stage is named "refined (random start k)" when one of them wins. Why: from
   *  in-order the swap search stays on the plateau of a structured mapping
   *  (placement/notes/chooser-suite-2026-11-26-to-29.md,
   *  scalapack_lu on node16: in-order 54.8 ms in the count model, while refinements from random
   *  mappings reached 27.8-58.3 ms). 0 = off (default). */
  int random_starts = 0;
};

/**
 * Runs the stages `opt.strategy` needs (Identity: none; HopBytes: hop-bytes;
 * Metis: METIS; Scotch: METIS + Scotch; MetisTime: METIS on the pairs'
 * message times, stage "metis (message time)" (time_weighted_graph());
 * ScotchTime: that and Scotch on the same graph, stage "scotch (message
 * time, ARCH)" (opt-in);
 * Refined/Best: all of these but ScotchTime's Scotch stage; under a contention
 * model other than Count (topo.contention), Refined/Best also refine the
 * count model's cost first, half the remaining time, stage "refined (count
 * model)", scored under the model in use). Every mapping
 * respects the slots. The time limit covers the hop-bytes search and the
 * refinement together (METIS and Scotch are not interruptible). The
 * refinement starts from choose_stage() of the earlier stages. Best writes
 * choose_stage() of all of them by the blend model's T (Ranking::Blend,
 * the default under Contention::Count: every stage's Stage::blend_s is
 * computed) or by the cost in use (Ranking::Count, or another contention
 * model), except that a refined mapping whose blend time is not more than
 * PlaceOptions::refined_margin below that of the stage ranked first among
 * the others (Ranking::Blend, SecondOpinion), or whose critical path
 * score is not below that stage's (PathOpinion), gives way to that stage; under
 * Ranking::Count one the blend model does not confirm gives way to its
 * start (SecondOpinion); and the start itself
 * is written when it is within the tie tolerance of the lowest estimated
 * time (PlaceOptions::keep_start).
 */
PlaceResult place(const CommGraph &g, const Topology &topo, const PlaceOptions &opt);

/** Backward-compatible form: Strategy::Best from the in-order mapping. */
PlaceResult place(const CommGraph &g, const Topology &topo, const RefineOptions &opt);

}  // namespace arcoll::placement

#endif
