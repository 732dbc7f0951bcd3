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
 * time (placement/cost.hpp).
 */
#ifndef ARCOLL_TOOLS_CLI_PLACE_STAGES_HPP
#define ARCOLL_TOOLS_CLI_PLACE_STAGES_HPP

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "advice.hpp"
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

/** The barrier advice in text on stdout: one summary line, and with `per_step` a row per step pair. */
void print_advice(const std::vector<placement::StepAdvice> &adv, bool per_step);

}  // namespace arcoll::tools

#endif
