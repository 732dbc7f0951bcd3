/**
 * @file cli_tune.hpp
 * @brief `arcoll tune TRACE -o tuning.json [--min-late-us U] [--min-calls N]`: the late ranks
 *        of a profiled run (profiler/late_sets.hpp) as the "lateness" key of
 *        a tuning file (adapt/tuning.h), read by libarcoll.so at MPI_Init
 *        with ARCOLL_TUNING=tuning.json: its lateness trackers start with
 *        those ranks on leaves.  An existing tuning file named by -o keeps
 *        its other keys ("choices": the algorithm choices of an earlier
 *        adaptive run) and gets its "lateness" replaced.  Exit 0 when the
 *        file was written, 2 on any error (unreadable trace, -o not a tuning
 *        file, unwritable directory).
 */
#ifndef ARCOLL_TOOLS_CLI_TUNE_HPP
#define ARCOLL_TOOLS_CLI_TUNE_HPP

#include <functional>

#include <CLI/CLI.hpp>

namespace arcoll::tools {

/** Declares the subcommand on `app`; the returned function runs it after
 *  parsing (-1 when another subcommand was selected). */
std::function<int()> add_tune(CLI::App &app);

}  // namespace arcoll::tools
#endif
