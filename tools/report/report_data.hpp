/**
 * @file report_data.hpp
 * @brief `arcoll report`: everything the HTML page shows, extracted from a
 *        trace as one JSON object (nlohmann::json). No HTML here
 *        (report_html.hpp assembles the page around this object).
 *
 * Keys of the object (times in seconds on the global clock, bytes as bytes):
 *  - "arcoll_report": 1 (version of this layout);
 *  - "trace": {path, ranks, hosts [host of each rank], incomplete_sections,
 *    collective_calls (events: one per rank and call), collective_instances,
 *    collective_bytes, p2p_messages, p2p_bytes, steps (communication steps
 *    with point-to-point traffic)};
 *  - "callsites": one entry per (call site, operation) of the events (as
 *    `arcoll summary`: a rank that reaches a collective from another code
 *    path than the others counts for that other site), largest
 *    time_in_call_s first: {id, label ("bcast at app+0x10"), callsite, op,
 *    events (rank-calls), instances (collective calls (comm_id, seq) with an
 *    event of the site), bytes, time_in_call_s (sum over its events of exit -
 *    entry), arrival_wait_s (sum over its events of the instance's last
 *    entry - own entry), max_skew_s (of its instances)}; "top": rows the
 *    table shows;
 *  - "wait_cause": {method, instances, ranks [{rank, host, caused_s,
 *    cause_calls}], first_calls, total_wait_s, caused_wait_s} (wait_cause.hpp);
 *  - "skew": the arrival-skew heatmap, per call site its instances in time
 *    order (at most `max_calls`), every rank of each: {max_calls, sites [{id,
 *    label, instances, shown}], cells [{s: site id, c: call index, r: rank,
 *    v: skew = entry - first entry of the instance}]}; only the `max_sites`
 *    sites with the largest time_in_call_s;
 *  - "matrix": point-to-point bytes between ranks over all steps (CCS):
 *    cells [{src, dst, bytes, count}], non-zero only;
 *  - "ccs": per communication step: steps [{i (index), step (trace id),
 *    bytes, messages}] for the first `max_steps` steps with traffic (fewer
 *    when their messages exceed `max_ccs_cells`), cells [{i, src, dst,
 *    bytes}] of those steps; steps_total;
 *  - "algorithms": {source: "none"} and a note (the trace format records no
 *    algorithm choices: profiler/trace_format.h) unless report_tuning.hpp
 *    filled it from a tuning file;
 *  - "placement": null unless report_placement.hpp filled it.
 */
#ifndef ARCOLL_TOOLS_REPORT_DATA_HPP
#define ARCOLL_TOOLS_REPORT_DATA_HPP

#include <nlohmann/json.hpp>

#include "trace_reader.hpp"

namespace arcoll::report {

/** Bounds that keep the page small on big traces (the JSON says what was cut). */
struct DataLimits {
  int top = 15;               ///< rows of the call-site table
  int max_sites = 20;         ///< call sites selectable in the skew heatmap
  size_t max_cells = 20000;   ///< heatmap cells per call site (calls shown = max_cells / ranks)
  size_t max_steps = 1000;    ///< CCS steps selectable one by one
  size_t max_ccs_cells = 200000;  ///< messages of the selectable CCS steps (whole steps; at least one step)
};

/** Extracts the keys above from `t` ("algorithms" says none, "placement" is null). */
nlohmann::json report_data(const arcoll::trace::Trace &t, const DataLimits &lim = {});

}  // namespace arcoll::report

#endif
