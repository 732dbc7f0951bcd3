/**
 * @file cli_usage.hpp
 * @brief The `arcoll` command line's usage error: thrown by a subcommand for
 *        bad arguments; main() prints "arcoll: <message>" and exits 2.
 */
#ifndef ARCOLL_TOOLS_CLI_USAGE_HPP
#define ARCOLL_TOOLS_CLI_USAGE_HPP

#include <stdexcept>

namespace arcoll::tools {

/** A command-line mistake, with a message naming the option and the fix. */
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace arcoll::tools
#endif
