/**
 * @file cli_place.hpp
 * @brief `arcoll place TRACE --topology topology.conf --hosts hosts.txt -o OUT ...`:
 *        rank placement from a trace (placement/place.hpp), launch files,
 *        --evaluate of a given mapping, --json output.
 *
 * `place` prints the estimated communication time (seed 001_6a837e3d9ad6c429.txt
 * cost, placement/cost.hpp; seconds) of the in-order mapping (ranks fill the
 * hosts in hostfile order, as mpiexec does) and of each stage (METIS, Scotch,
 * refined), then writes the launch file of the stage chosen by --strategy
 * (default best: among the stages within --tie-tolerance of the lowest
 * blend-model time (--rank blend; --rank count: the count model's), the
 * lowest max link load, then hop-bytes; place.hpp choose_stage, Ranking),
 * and a one-line barrier advice
 * (placement/advice.hpp; --advice for every step pair). --evaluate scores a
 * given mapping file (any format `place` writes) without searching.
 * --json prints one JSON object instead of text: keys trace, machine,
 * stages [{name, time_s, hop_bytes, max_congestion, seconds, tied[, blend_s]}], chosen,
 * strategy, tie_tolerance, ranking (blend|count), advice {pairs, colliding_pairs, barrier_advised[, steps]},
 * output {path, format}; with --evaluate: evaluate {mapping, time_s,
 * hop_bytes, max_congestion} instead of stages. LEVEL is `intra`
 * (node-internal, shared memory), `node` (host <-> leaf switch) or `switch`
 * (switch <-> switch). Exit codes: 0 success, 2 any error (message on stderr
 * naming the file).
 */
#ifndef ARCOLL_TOOLS_CLI_PLACE_HPP
#define ARCOLL_TOOLS_CLI_PLACE_HPP

#include <functional>

#include <CLI/CLI.hpp>

namespace arcoll::tools {

/** Declares `arcoll place` on `app`; the returned function runs it after
 *  parsing (-1 when another subcommand was selected). Bad arguments throw
 *  UsageError (cli_usage.hpp). */
std::function<int()> add_place(CLI::App &app);

}  // namespace arcoll::tools
#endif
