/**
 * @file report_cli.hpp
 * @brief `arcoll report TRACE [-o report.html]`: the command-line part
 *        (options, file output) of the HTML report (report_data.hpp,
 *        report_placement.hpp, report_tuning.hpp, report_html.hpp).
 */
#ifndef ARCOLL_TOOLS_REPORT_CLI_HPP
#define ARCOLL_TOOLS_REPORT_CLI_HPP

#include <CLI/CLI.hpp>
#include <functional>

namespace arcoll::report {

/**
 * Declares `arcoll report` on `app`; the returned function runs it after
 * parsing (-1 when another subcommand was chosen, else 0). Errors are thrown
 * (std::exception whose what() names the file): an unreadable or corrupt
 * trace, a bad --mapping/--topology/--hosts/--tuning file, missing Vega
 * files (libjs-vega), an output that cannot be written.
 */
std::function<int()> add_report(CLI::App &app);

}  // namespace arcoll::report

#endif
