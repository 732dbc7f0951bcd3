/**
 * @file report_tuning.hpp
 * @brief Algorithm choices for `arcoll report --tuning FILE`.
 *
 * The trace format (profiler/trace_format.h) records no algorithm choices:
 * the profiler wraps MPICH's collectives and never sees libarcoll's
 * dispatch. The choices a run with libarcoll.so kept are in the tuning file
 * it writes with ARCOLL_TUNING_OUT (adapt/tuning.h, JSON version 1:
 * {"arcoll_tuning": 1, "choices": [{collective, P, commutative, size_class,
 * bytes, algorithm, segment_bytes, k, source}, ...]}). This file reads that
 * JSON with nlohmann (no link to adapt/, which needs MPI) for the page's
 * "algorithm choices" table.
 */
#ifndef ARCOLL_TOOLS_REPORT_TUNING_HPP
#define ARCOLL_TOOLS_REPORT_TUNING_HPP

#include <nlohmann/json.hpp>
#include <string>

namespace arcoll::report {

/**
 * Returns the report's "algorithms" object from the tuning file `path`:
 * {source: "tuning", path, note, choices [{collective, P, commutative, bytes,
 * size_class, algorithm, segment_bytes, k, source, in_trace}]}, sorted by
 * (collective, P, bytes); `in_trace` says whether the trace (`data`, from
 * report_data()) has a call of that collective. Throws std::runtime_error
 * naming the file (and the entry, `choices[i]`) when it cannot be read, is
 * not JSON, is not version 1 or an entry lacks collective / P / algorithm.
 */
nlohmann::json read_tuning_choices(const std::string &path, const nlohmann::json &data);

}  // namespace arcoll::report

#endif
