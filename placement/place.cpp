// Placement pipeline. See place.hpp.
#include "place.hpp"

#include <chrono>
#include <cmath>
#include <algorithm>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "block_moves.hpp"
#include "critical_path.hpp"
#include "hopbytes.hpp"
#include "mapping_io.hpp"
#include "map_scotch.hpp"
#include "partition_metis.hpp"
#include "partition_tree.hpp"

namespace arcoll::placement {

Strategy parse_strategy(const std::string &name) {
  if (name == "identity") return Strategy::Identity;
  if (name == "hopbytes") return Strategy::HopBytes;
  if (name == "metis") return Strategy::Metis;
  if (name == "metis_tree") return Strategy::MetisTree;
  if (name == "scotch") return Strategy::Scotch;
  if (name == "metis_time") return Strategy::MetisTime;
  if (name == "scotch_time") return Strategy::ScotchTime;
  if (name == "refined") return Strategy::Refined;
  if (name == "best") return Strategy::Best;
  throw std::invalid_argument("unknown strategy \"" + name +
                              "\"; use identity, hopbytes, metis, metis_tree, scotch, metis_time, scotch_time, "
                              "refined or best");
}

Ranking parse_ranking(const std::string &name) {
  if (name == "count") return Ranking::Count;
  if (name == "blend") return Ranking::Blend;
  throw std::invalid_argument("unknown ranking \"" + name + "\"; use count or blend");
}

namespace {
double ranked_time(const Stage &s, Ranking by) {
  if (by == Ranking::Count) return s.cost.time_s;
  if (s.blend_s < 0) throw std::invalid_argument("stage \"" + s.name + "\" has no blend model time to rank by");
  return s.blend_s;
}
}  // namespace

namespace {
// The first `leading` stages (all of them when leading >= stages.size()); std::invalid_argument when none.
size_t leading_count(const std::vector<Stage> &stages, size_t leading) {
  const size_t n = std::min(leading, stages.size());
  if (n == 0) throw std::invalid_argument("choose_stage / tie_limit: no stages");
  return n;
}
}  // namespace

double tie_limit(const std::vector<Stage> &stages, double rel_tol, Ranking by, size_t leading) {
  const size_t n = leading_count(stages, leading);
  double tmin = ranked_time(stages[0], by);
  for (size_t i = 1; i < n; ++i) tmin = std::min(tmin, ranked_time(stages[i], by));
  return tmin * (1.0 + std::max(0.0, rel_tol));
}

size_t choose_stage(const std::vector<Stage> &stages, double rel_tol, Ranking by, size_t leading) {
  const size_t n = leading_count(stages, leading);
  const double limit = tie_limit(stages, rel_tol, by, n);
  size_t pick = n;
  for (size_t i = 0; i < n; ++i) {
    const CostReport &c = stages[i].cost;
    if (ranked_time(stages[i], by) > limit) continue;
    if (pick == n) {
      pick = i;
      continue;
    }
    const CostReport &p = stages[pick].cost;
    const double ct = ranked_time(stages[i], by), pt = ranked_time(stages[pick], by);
    if (std::tie(c.max_congestion, c.hop_bytes, c.inter_socket_bytes, ct) <
        std::tie(p.max_congestion, p.hop_bytes, p.inter_socket_bytes, pt))
      pick = i;
  }
  return pick;
}

namespace {
// A refinement stage's search counts (Stage::evaluations, step_evaluations, step_budget) from its result.
void searched(Stage &s, const RefineResult &res) {
  s.evaluations = res.evaluations;
  s.step_evaluations = res.step_evaluations;
  s.step_budget = res.hit_step_budget;
}
}  // namespace

bool blend_agrees(const CommGraph &g, const Topology &topo, const Mapping &start, const Mapping &refined,
                  SecondOpinion &out) {
  Topology tb = topo;
  tb.contention = Contention::Blend;
  out.start_s = estimated_time(g, tb, start);
  out.refined_s = estimated_time(g, tb, refined);
  return out.refined_s < out.start_s;
}

double path_score(double overlap_s, double fluid_s, double w) {
  if (w <= 0) return fluid_s < 0 ? -1.0 : fluid_s;
  if (overlap_s < 0) return -1.0;
  if (w >= 1 || fluid_s <= 0) return overlap_s;
  return std::pow(overlap_s, w) * std::pow(fluid_s, 1.0 - w);
}

bool path_agrees(const CommGraph &g, const Topology &topo, const Mapping &start, const Mapping &refined,
                 PathOpinion &out, double rel_tol, double w) {
  const CriticalPaths cp(g, topo);
  out.weight = w;
  auto paths = [&](const Mapping &m, double &overlap_s, double &fluid_s) {  // only those the weight uses
    overlap_s = w > 0 ? cp.time(m, PathContention::Overlap) : -1.0;
    fluid_s = w < 1 ? cp.time(m, PathContention::Fluid) : -1.0;
  };
  paths(start, out.start_overlap_s, out.start_fluid_s);
  paths(refined, out.refined_overlap_s, out.refined_fluid_s);
  out.start_s = path_score(out.start_overlap_s, out.start_fluid_s, w);
  out.refined_s = path_score(out.refined_overlap_s, out.refined_fluid_s, w);
  return out.refined_s >= 0 && out.start_s > out.refined_s * (1.0 + std::max(0.0, rel_tol));
}

namespace {
// PlaceOptions::keep_start: the start (stage 0) is written instead of `pick` when it is within the
// tolerance of the lowest ranked time among the first `leading` stages. Sets r.start_kept.
size_t keep_start(const std::vector<Stage> &stages, const PlaceOptions &opt, Ranking by, size_t leading, size_t pick,
                  bool &start_kept) {
  start_kept = opt.keep_start && pick != 0 &&
               ranked_time(stages[0], by) <= tie_limit(stages, opt.tie_tolerance, by, leading);
  return start_kept ? 0 : pick;
}

// Strategy::Best under Ranking::Blend, once every stage ran (`refined`: the refinement's index, the last):
// scores each stage under the blend model, writes choose_stage() by it (the start kept within the
// tolerance), and a refined mapping only when its blend time is below the stage ranked first among the
// others by more than refined_margin (SecondOpinion) and its path score also beats that stage
// (PathOpinion). placement/notes/chooser-suite-2026-11-29-to-30.md "The blend ranking", "The margin on the
// refined mapping".
void rank_by_blend(const CommGraph &g, const Topology &topo, const PlaceOptions &opt, size_t refined,
                   PlaceResult &r) {
  Topology tb = topo;
  tb.contention = Contention::Blend;
  for (Stage &s : r.stages) s.blend_s = estimated_time(g, tb, s.map);
  const size_t all = r.stages.size();
  r.best = keep_start(r.stages, opt, Ranking::Blend, all,
                      choose_stage(r.stages, opt.tie_tolerance, Ranking::Blend), r.start_kept);
  if (r.best != refined) {
    r.chosen_index = r.best;
    return;
  }
  bool kept = false;
  const size_t pre = keep_start(r.stages, opt, Ranking::Blend, refined,
                                choose_stage(r.stages, opt.tie_tolerance, Ranking::Blend, refined), kept);
  if (opt.refined_margin > 0)
    r.second = SecondOpinion{true, false, pre, r.stages[pre].blend_s, r.stages[refined].blend_s, opt.refined_margin};
  if (r.second.checked && !(r.second.refined_s < r.second.start_s * (1.0 - r.second.margin))) {
    r.second.overruled = true;
    r.best = pre;
    r.start_kept = kept;
  } else if (opt.path_opinion && g.deps) {
    r.path.checked = true;
    r.path.start = pre;
    if (!path_agrees(g, topo, r.stages[pre].map, r.stages[refined].map, r.path, opt.tie_tolerance,
                     opt.path_overlap_weight)) {
      r.path.overruled = true;
      r.best = pre;
      r.start_kept = kept;
    }
  }
  r.chosen_index = r.best;
}
}  // namespace

PlaceResult place(const CommGraph &g, const Topology &topo, const PlaceOptions &opt) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto since = [](clock::time_point a) { return std::chrono::duration<double>(clock::now() - a).count(); };
  PlaceResult r;
  auto add = [&](std::string name, Mapping m, clock::time_point started) {
    CostReport c = evaluate(g, topo, m);
    r.stages.push_back(Stage{std::move(name), std::move(m), std::move(c), since(started)});
    r.best = choose_stage(r.stages, opt.tie_tolerance);
    return r.stages.size() - 1;
  };
  const Strategy st = opt.strategy;
  const bool blend_ranked =
      st == Strategy::Best && topo.contention == Contention::Count && opt.ranking == Ranking::Blend;
  const int64_t seed = static_cast<int64_t>(opt.refine.seed);
  auto t = clock::now();
  Mapping cur = opt.initial.empty() ? in_order_mapping(g.nranks, topo) : opt.initial;
  if (!respects_slots(cur, topo) || static_cast<int>(cur.size()) != g.nranks)
    throw std::invalid_argument("the initial mapping does not fit the hostfile's slots");
  size_t chosen = add(opt.initial.empty() ? "in-order" : opt.initial_name, cur, t);
  if (st == Strategy::HopBytes || st == Strategy::Refined || st == Strategy::Best) {
    t = clock::now();
    size_t i = add("hopbytes", hopbytes_mapping(g, topo, cur, opt.refine.seed, opt.refine.time_limit_s / 2), t);
    if (st == Strategy::HopBytes) chosen = i;
  }
  if (st == Strategy::Metis || st == Strategy::Scotch || st == Strategy::Refined || st == Strategy::Best) {
    t = clock::now();
    Mapping parts = partition_metis(g, topo, seed);
    size_t i = add("metis", parts, t);
    if (st == Strategy::Metis) chosen = i;
    if (st != Strategy::Metis) {
      t = clock::now();
      ScotchResult sc = map_scotch(g, topo, parts, seed);
      i = add("scotch (" + sc.architecture + ")", sc.map, t);
      if (st == Strategy::Scotch) chosen = i;
    }
  }
  if (st == Strategy::MetisTime || st == Strategy::ScotchTime || st == Strategy::Refined || st == Strategy::Best) {
    // METIS on the pairs' message times (partition_metis.hpp time_weighted_graph): a latency-bound
    // pattern the byte weights miss; also a start for the refinement when it costs least.
    t = clock::now();
    const CommGraph tg = time_weighted_graph(g, topo);
    Mapping parts = partition_metis(tg, topo, seed);
    size_t i = add("metis (message time)", parts, t);
    if (st == Strategy::MetisTime) chosen = i;
    if (st == Strategy::ScotchTime) {  // opt-in: placement/notes/chooser-suite-2026-12-01-to-02.md "Scotch on
                                       // message times"
      t = clock::now();
      ScotchResult sc = map_scotch(tg, topo, parts, seed);
      chosen = add("scotch (message time, " + sc.architecture + ")", sc.map, t);
    }
  }
  if (st == Strategy::MetisTree) {  // opt-in: not a stage of best (partition_tree.hpp, measured)
    t = clock::now();
    chosen = add("metis (tree)", partition_tree(g, topo, seed), t);
  }
  if ((st == Strategy::Refined || st == Strategy::Best) && topo.contention != Contention::Count) {
    // Another model than count: refine the count model's cost first (its incremental evaluator tries many
    // more candidates in the same time) and score that mapping under the model in use; the refinement below
    // starts from it when it scores best. Suite (placement/notes/chooser-suite-2026-11-26-to-29.md "The blend
    // model's picks after the fix"), seed001 from a random start: the blend
    // refinement alone ended at a higher blend cost than the count refinement's mapping (wavefront 92.1 vs
    // 89.9 ms, umt_like 28.10 vs 28.07 ms) and 26 % / 15 % slower in SMPI.
    Topology tc = topo;
    tc.contention = Contention::Count;
    std::vector<Stage> cs = r.stages;  // the earlier stages under the count model: its start
    for (Stage &s : cs) s.cost = evaluate(g, tc, s.map);
    RefineOptions ro = opt.refine;
    ro.time_limit_s = std::max(0.0, opt.refine.time_limit_s - since(t0)) / 2;
    t = clock::now();
    RefineResult rc = refine_with_blocks(g, tc, cs[choose_stage(cs, opt.tie_tolerance)].map, ro);
    searched(r.stages[add(rc.hit_time_limit ? "refined (count model, time limit)" : "refined (count model)",
                          rc.map, t)],
             rc);
  }
  if (st == Strategy::Refined || st == Strategy::Best) {
    RefineOptions ro = opt.refine;
    ro.time_limit_s = std::max(0.0, opt.refine.time_limit_s - since(t0));
    t = clock::now();
    const size_t start = r.best;
    r.refine = refine_with_blocks(g, topo, r.stages[start].map, ro);
    int won = 0;  // 0: the refinement from `start`; k: from random start k
    for (int k = 1; k <= opt.random_starts && !r.refine.hit_time_limit; ++k) {
      RefineOptions rk = ro;
      rk.seed = opt.refine.seed + static_cast<uint64_t>(k);
      rk.time_limit_s = std::max(0.0, opt.refine.time_limit_s - since(t0));
      RefineResult res = refine_with_blocks(g, topo, random_mapping(g.nranks, topo, rk.seed), rk);
      const bool better = res.time_s < r.refine.time_s;
      // the kept result carries the counts of every start so far and this one's clock cut
      RefineResult &kept = better ? res : r.refine;
      const RefineResult &other = better ? r.refine : res;
      kept.evaluations += other.evaluations;
      kept.step_evaluations += other.step_evaluations;
      kept.hit_step_budget = kept.hit_step_budget || other.hit_step_budget;
      kept.hit_time_limit = res.hit_time_limit;
      if (better) {
        r.refine = std::move(res);
        won = k;
      }
    }
    std::string name = "refined";
    if (won)
      name += fmt::format(" (random start {}{})", won, r.refine.hit_time_limit ? ", time limit" : "");
    else if (r.refine.hit_time_limit)
      name += " (time limit)";
    size_t i = add(name, r.refine.map, t);
    searched(r.stages[i], r.refine);
    if (st == Strategy::Refined) chosen = i;
    if (blend_ranked) {
      rank_by_blend(g, topo, opt, i, r);
      return r;
    }
    if (st == Strategy::Best && opt.second_opinion && topo.contention == Contention::Count && r.best == i) {
      r.second.checked = true;
      r.second.start = start;
      if (!blend_agrees(g, topo, r.stages[start].map, r.stages[i].map, r.second)) {
        r.second.overruled = true;
        r.best = start;
      }
    }
    if (st == Strategy::Best && opt.path_opinion && g.deps && r.best == i) {
      r.path.checked = true;
      r.path.start = start;
      if (!path_agrees(g, topo, r.stages[start].map, r.stages[i].map, r.path, opt.tie_tolerance,
                       opt.path_overlap_weight)) {
        r.path.overruled = true;
        r.best = start;
      }
    }
  }
  if (st == Strategy::Best) r.best = keep_start(r.stages, opt, Ranking::Count, r.stages.size(), r.best, r.start_kept);
  r.chosen_index = st == Strategy::Best ? r.best : chosen;
  return r;
}

PlaceResult place(const CommGraph &g, const Topology &topo, const RefineOptions &opt) {
  PlaceOptions o;
  o.refine = opt;
  return place(g, topo, o);
}

}  // namespace arcoll::placement
