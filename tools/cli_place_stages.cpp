// `arcoll place`'s report of the stages: see cli_place_stages.hpp.
#include "cli_place_stages.hpp"

#include <fmt/format.h>

#include "critical_path.hpp"

#include <iostream>
#include <utility>

namespace arcoll::tools {

namespace ap = arcoll::placement;

nlohmann::json cost_json(const ap::CostReport &c) {
  return {{"time_s", c.time_s}, {"hop_bytes", c.hop_bytes}, {"max_congestion", c.max_congestion},
          {"inter_socket_bytes", c.inter_socket_bytes}};
}

void report_stages(const ap::PlaceResult &pr, const StageReportOptions &o, const ap::Topology &topo, bool by_levels,
                   bool text, nlohmann::json &J) {
  const double base = pr.stages[0].cost.time_s;
  // Blend-ranked (Best under the count model, ap::Ranking): ties and the printed column are the blend model's.
  const bool by_blend = pr.stages.back().blend_s >= 0;
  const ap::Ranking shown = by_blend ? ap::Ranking::Blend : ap::Ranking::Count;
  const double limit = ap::tie_limit(pr.stages, o.tie_tolerance, shown);
  auto tied = [&](const ap::Stage &s) { return (by_blend ? s.blend_s : s.cost.time_s) <= limit; };
  J["stages"] = nlohmann::json::array();
  int ntied = 0;
  for (auto &s : pr.stages) {
    auto js = cost_json(s.cost);
    js["name"] = s.name;
    js["seconds"] = s.seconds;
    if (s.evaluations >= 0) js["evaluations"] = s.evaluations;
    if (s.step_evaluations >= 0) js["step_evaluations"] = s.step_evaluations, js["step_budget"] = s.step_budget;
    if (by_blend) js["blend_s"] = s.blend_s;
    js["tied"] = tied(s);
    ntied += tied(s);
    J["stages"].push_back(js);
  }
  J["chosen"] = pr.chosen().name;
  J["strategy"] = o.strategy_name;
  J["tie_tolerance"] = o.tie_tolerance;
  J["ranking"] = by_blend ? "blend" : "count";
  J["sets"] = by_levels ? "levels" : "steps";
  auto opinion = [&](const char *model, size_t start, double start_s, double refined_s, bool overruled) {
    return nlohmann::json{{"model", model}, {"start", pr.stages[start].name}, {"start_s", start_s},
                          {"refined_s", refined_s}, {"overruled", overruled}};
  };
  if (pr.second.checked) {
    J["second_opinion"] =
        opinion("blend", pr.second.start, pr.second.start_s, pr.second.refined_s, pr.second.overruled);
    if (by_blend) J["second_opinion"]["margin"] = pr.second.margin;
  }
  if (pr.path.checked) {
    J["path_opinion"] = opinion("critical path score", pr.path.start, pr.path.start_s, pr.path.refined_s,
                                pr.path.overruled);
    J["path_opinion"]["overlap_weight"] = pr.path.weight;
    J["path_opinion"]["start_overlap_s"] = pr.path.start_overlap_s;
    J["path_opinion"]["start_fluid_s"] = pr.path.start_fluid_s;
    J["path_opinion"]["refined_overlap_s"] = pr.path.refined_overlap_s;
    J["path_opinion"]["refined_fluid_s"] = pr.path.refined_fluid_s;
  }
  J["start_kept"] = pr.start_kept;
  if (text) {
    std::cout << fmt::format("{:<28} {:>16} {:>10} {:>14} {:>14} {:>9}{}{}\n", "stage", "est. time (s)",
                             "vs " + pr.stages[0].name.substr(0, 7), "hop-bytes", "max link load", "took (s)",
                             topo.has_sockets() ? fmt::format(" {:>14}", "inter-socket B") : "",
                             by_blend ? fmt::format(" {:>16}", "blend time (s)") : "");
    for (size_t i = 0; i < pr.stages.size(); ++i) {
      const auto &s = pr.stages[i];
      std::string rel = base > 0 ? fmt::format("{:+.1f}%", 100.0 * (s.cost.time_s - base) / base) : "-";
      std::cout << fmt::format("{:<28} {:>16.6e} {:>10} {:>14.0f} {:>14} {:>9.3f}{}{}{}\n", s.name, s.cost.time_s,
                               rel, s.cost.hop_bytes, s.cost.max_congestion, s.seconds,
                               topo.has_sockets() ? fmt::format(" {:>14.0f}", s.cost.inter_socket_bytes) : "",
                               by_blend ? fmt::format(" {:>16.6e}", s.blend_s) : "",
                               i == pr.chosen_index ? "  <- chosen" : "");
    }
    if (pr.second.checked && by_blend)
      std::cout << fmt::format("margin (blend model): refined {:.6e} s vs \"{}\" {:.6e} s: {}\n", pr.second.refined_s,
                               pr.stages[pr.second.start].name, pr.second.start_s,
                               pr.second.overruled
                                   ? fmt::format("not {:g} % below, \"{}\" is written (--refined-margin 0 writes the "
                                                 "refined mapping)", 100 * pr.second.margin,
                                                 pr.stages[pr.second.start].name)
                                   : fmt::format("more than {:g} % below", 100 * pr.second.margin));
    else if (pr.second.checked)
      std::cout << fmt::format("second opinion (blend model): refined {:.6e} s vs its start \"{}\" {:.6e} s: {}\n",
                               pr.second.refined_s, pr.stages[pr.second.start].name, pr.second.start_s,
                               pr.second.overruled ? "not confirmed, the start is written (--no-second-opinion "
                                                     "writes the refined mapping)"
                                                   : "confirmed");
    if (pr.path.checked)
      std::cout << fmt::format("path opinion (critical paths overlap^{:g} x fluid^{:g}, placement/place.hpp "
                               "PathOpinion): refined {:.6e} s vs \"{}\" {:.6e} s: {}\n", pr.path.weight,
                               1 - pr.path.weight, pr.path.refined_s,
                               pr.stages[pr.path.start].name, pr.path.start_s,
                               pr.path.overruled ? "not confirmed, \"" + pr.stages[pr.path.start].name +
                                                       "\" is written (--no-path-opinion writes the refined mapping)"
                                                 : std::string("confirmed"));
    if (pr.start_kept)
      std::cout << fmt::format("the start \"{}\" is within {:g} % of the lowest est. time: kept (a move must be "
                               "predicted to gain more; --move-on-tie writes the tie-break's stage)\n",
                               pr.stages[0].name, 100 * o.tie_tolerance);
    if (by_blend)
      std::cout << "ranked by the blend model's time (--rank blend, placement/place.hpp Ranking; the stages "
                   "minimise the count model's est. time)\n";
    if (o.strategy == ap::Strategy::Best && ntied > 1 && !pr.start_kept)
      std::cout << fmt::format("{} stages within {:g} % of the lowest {}: ranked by max link load, then "
                               "hop-bytes (--tie-tolerance)\n", ntied, 100 * o.tie_tolerance,
                               by_blend ? "blend time" : "est. time");
  }
  for (auto &s : pr.stages)
    if (s.step_budget && text)
      std::cout << fmt::format("stage \"{}\" ended on its work budget: {} whole-step evaluations of the cost model "
                               "(--max-step-evals {}; 0 = none) after {} candidate evaluations\n",
                               s.name, s.step_evaluations, o.max_step_evals, s.evaluations);
  for (auto &s : pr.stages) {
    if (s.evaluations < 0 || s.name.find("time limit") == std::string::npos) continue;
    if (o.random_starts > 0)
      std::cerr << fmt::format("arcoll place: warning: stage \"{}\" stopped at --time-limit {:g} s after {} candidate "
                               "evaluations over the refinement and its --random-starts {}: another machine or a "
                               "busier one can write another mapping; a larger --time-limit lets every start use its "
                               "--max-evals budget\n", s.name, o.time_limit, s.evaluations, o.random_starts);
    else
      std::cerr << fmt::format("arcoll place: warning: stage \"{}\" stopped at --time-limit {:g} s after {} candidate "
                               "evaluations, {}: another machine or a busier one can write another mapping. For a "
                               "reproducible one pass --max-evals {} (or a larger --time-limit)\n",
                               s.name, o.time_limit, s.evaluations,
                               o.max_evals > 0 ? fmt::format("before its budget of {} (--max-evals)",
                                                                       o.max_evals)
                                                         : std::string("with no --max-evals bound"),
                               s.evaluations);
  }
}

namespace {
// Consecutive step pairs that would collide if overlapped, and those where a barrier pays off.
std::pair<int, int> advice_counts(const std::vector<ap::StepAdvice> &adv) {
  int colliding = 0, advised = 0;
  for (auto &a : adv) {
    colliding += a.shared_links > 0;
    advised += a.barrier_advised;
  }
  return {colliding, advised};
}
}  // namespace

nlohmann::json advice_json(const std::vector<ap::StepAdvice> &adv, bool per_step) {
  const auto [colliding, advised] = advice_counts(adv);
  nlohmann::json j{{"pairs", adv.size()}, {"colliding_pairs", colliding}, {"barrier_advised", advised}};
  if (per_step) {
    j["steps"] = nlohmann::json::array();
    for (auto &a : adv)
      j["steps"].push_back({{"step", a.id}, {"next_step", a.next_id}, {"shared_links", a.shared_links},
                            {"time_s", a.time_s}, {"next_time_s", a.next_time_s}, {"overlap_s", a.overlap_s},
                            {"penalty_s", a.penalty_s}, {"barrier_s", a.barrier_s},
                            {"barrier_advised", a.barrier_advised}});
  }
  return j;
}

void print_advice(const std::vector<ap::StepAdvice> &adv, bool per_step) {
  const auto [colliding, advised] = advice_counts(adv);
  std::cout << fmt::format("barrier advice (seed 001; advice only, nothing is inserted): {} of {} consecutive step "
                           "pairs would collide if overlapped; a barrier between them pays off for {}{}\n",
                           colliding, adv.size(), advised, per_step ? "" : " (details: --advice)");
  if (!per_step || adv.empty()) return;
  std::cout << fmt::format("{:>10} {:>10} {:>7} {:>12} {:>12} {:>12} {:>12} {:>12}  {}\n", "step", "next", "shared",
                           "T_t (s)", "T_t+1 (s)", "overlap (s)", "penalty (s)", "barrier (s)", "advice");
  for (auto &a : adv)
    std::cout << fmt::format("{:>10} {:>10} {:>7} {:>12.4e} {:>12.4e} {:>12.4e} {:>12.4e} {:>12.4e}  {}\n", a.id,
                             a.next_id, a.shared_links, a.time_s, a.next_time_s, a.overlap_s, a.penalty_s,
                             a.barrier_s,
                             a.barrier_advised ? "barrier" : a.shared_links ? "collide (barrier costs more)" : "-");
}

void report_evaluation(const ap::CommGraph &g, const ap::Topology &topo, const ap::Mapping &m,
                       const EvaluationOptions &o, nlohmann::json &J) {
  const ap::CostReport c = ap::evaluate(g, topo, m);
  const ap::CriticalPaths paths(g, topo);
  const double cp = paths.time(m), cp_free = paths.time(m, ap::PathContention::Free),
               cp_overlap = paths.time(m, ap::PathContention::Overlap),
               cp_fluid = o.fluid_path ? paths.time(m, ap::PathContention::Fluid) : -1.0;
  auto adv = ap::barrier_advice(g, topo, m);
  if (o.json) {
    J["evaluate"] = cost_json(c);
    J["evaluate"]["mapping"] = o.mapping_path;
    if (cp >= 0)
      J["evaluate"]["critical_path_s"] = cp, J["evaluate"]["critical_path_free_s"] = cp_free,
      J["evaluate"]["critical_path_overlap_s"] = cp_overlap;
    if (cp >= 0 && cp_fluid >= 0)
      J["evaluate"]["critical_path_fluid_s"] = cp_fluid,
      J["evaluate"]["path_score_s"] = ap::path_score(cp_overlap, cp_fluid, o.path_overlap_weight);
    J["advice"] = advice_json(adv, o.per_step);
    std::cout << J.dump(2) << "\n";
    return;
  }
  std::cout << fmt::format("mapping {}: est. time {:.6e} s, hop-bytes {:.0f}, max link load {}{}\n", o.mapping_path,
                           c.time_s, c.hop_bytes, c.max_congestion,
                           topo.has_sockets() ? fmt::format(", inter-socket bytes {:.0f}", c.inter_socket_bytes) : "");
  if (cp >= 0)
    std::cout << fmt::format("critical path (placement/critical_path.hpp): {:.6e} s, contention-free {:.6e} s, "
                             "overlap {:.6e} s{}\n", cp, cp_free, cp_overlap,
                             cp_fluid >= 0 ? fmt::format(", fluid {:.6e} s, path score {:.6e} s", cp_fluid,
                                                         ap::path_score(cp_overlap, cp_fluid, o.path_overlap_weight))
                                           : "");
  print_advice(adv, o.per_step);
}

}  // namespace arcoll::tools
