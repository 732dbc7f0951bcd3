/**
 * @file cli_recover.hpp
 * @brief `arcoll recover TRACE [-o OUT] [--nranks N]`: assemble the part files
 *        an aborted run left (profiler/trace_recover.hpp) and check the result
 *        reads back.  Exit 0 when a trace was written, 2 on any error.
 */
#ifndef ARCOLL_TOOLS_CLI_RECOVER_HPP
#define ARCOLL_TOOLS_CLI_RECOVER_HPP

#include <functional>

#include <CLI/CLI.hpp>

namespace arcoll::tools {

/** Declares the subcommand on `app`; the returned function runs it after
 *  parsing (-1 when another subcommand was selected). */
std::function<int()> add_recover(CLI::App &app);

}  // namespace arcoll::tools
#endif
