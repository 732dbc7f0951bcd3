/**
 * @file cli_place_stages.hpp
 * @brief `arcoll place`'s report of the pipeline's stages (placement/place.hpp
 *        PlaceResult): the stage table and the chooser's lines in text, the
 *        same in the JSON object, the warning for a refinement cut by
 *        --time-limit, and the barrier advice (placement/advice.hpp).
 *
 * JSON keys added: stages [{name, time_s, hop_bytes, max_congestion,
 * inter_socket_bytes, seconds, tied[, evaluations][, blend_s]}], chosen,
 * strategy, tie_tolerance, ranking (blend|count), sets, second_opinion and
 * path_opinion (when checked: model, start, start_s, refined_s in seconds,
 * overruled; path_opinion also overlap_weight and the two paths behind each
 * score: start_overlap_s, start_fluid_s, refined_overlap_s, refined_fluid_s,
 * -1 where not computed), start_kept. Times are seconds of the estimated communication
 * time (placement/cost.hpp). `--evaluate MAPPING` reports one mapping instead
 * (report_evaluation).
 */
#ifndef ARCOLL_TOOLS_CLI_PLACE_STAGES_HPP
#define ARCOLL_TOOLS_CLI_PLACE_STAGES_HPP

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "advice.hpp"
#include "comm_graph.hpp"
#include "place.hpp"
#include "topology.hpp"

namespace arcoll::tools {

/** What the report needs of the command line. */
struct StageReportOptions {
  std::string strategy_name;                      ///< --strategy as given
  placement::Strategy strategy;                   ///< parsed
  double tie_tolerance;                           ///< --tie-tolerance, dimensionless
  double time_limit;                              ///< --time-limit, seconds
  int random_starts;                              ///< --random-starts
  long max_evals;                                 ///< the refinement's budget (0 = none)
  long max_step_evals;                            ///< the refinement's work budget, whole steps (0 = none)
};

/** The estimated-time cost of a mapping as JSON: time_s (seconds), hop_bytes, max_congestion,
 *  inter_socket_bytes (bytes). */
nlohmann::json cost_json(const placement::CostReport &c);

/** Adds `pr`'s stages and choice to `J`, prints them to stdout when `text`, and warns on stderr for every
 *  stage stopped by the time limit (with the --max-evals that reproduces it). `g.by_levels` gives "sets". */
void report_stages(const placement::PlaceResult &pr, const StageReportOptions &o, const placement::Topology &topo,
                   bool by_levels, bool text, nlohmann::json &J);

/** The barrier advice as JSON: pairs, colliding_pairs, barrier_advised (counts of consecutive step pairs)
 *  and, with `per_step`, steps [{step, next_step, shared_links, time_s, next_time_s, overlap_s, penalty_s,
 *  barrier_s (seconds), barrier_advised}]. */
nlohmann::json advice_json(const std::vector<placement::StepAdvice> &adv, bool per_step);

/** What `--evaluate` needs of the command line. */
struct EvaluationOptions {
  std::string mapping_path;    ///< --evaluate MAPPING, named in the report
  bool json;                   ///< --json: print `J` with the "evaluate" object instead of text
  bool per_step;               ///< --advice: the barrier advice per step pair
  bool fluid_path;             ///< --fluid-path: also the critical path under the fluid model and the path score
  double path_overlap_weight;  ///< --path-overlap-weight, dimensionless (placement/critical_path.hpp path_score)
};

/** Reports mapping `m` of `g` on `topo` on stdout: its estimated time (seconds), hop-bytes, max link load,
 *  inter-socket bytes, the critical paths (seconds; contended, contention-free, overlap, fluid with
 *  `fluid_path`) and the barrier advice, as text or, with `json`, as `J` with keys evaluate {time_s,
 *  hop_bytes, max_congestion, inter_socket_bytes, mapping[, critical_path_s, critical_path_free_s,
 *  critical_path_overlap_s][, critical_path_fluid_s, path_score_s]} and advice. */
void report_evaluation(const placement::CommGraph &g, const placement::Topology &topo, const placement::Mapping &m,
                       const EvaluationOptions &o, nlohmann::json &J);

/** The barrier advice in text on stdout: one summary line, and with `per_step` a row per step pair. */
void print_advice(const std::vector<placement::StepAdvice> &adv, bool per_step);

}  // namespace arcoll::tools

#endif
