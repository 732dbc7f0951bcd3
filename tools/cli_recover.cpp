// `arcoll recover` (cli_recover.hpp).
#include "cli_recover.hpp"

#include <fmt/core.h>

#include <iostream>
#include <memory>
#include <string>

#include "trace_reader.hpp"
#include "trace_recover.hpp"

namespace arcoll::tools {

std::function<int()> add_recover(CLI::App &app) {
  auto *rc = app.add_subcommand(
      "recover", "assemble the per-rank part files (TRACE.partN) of a run ended by MPI_Abort, SIGTERM or a crash");
  struct Args {
    std::string trace, out;
    int nranks = 0;
  };
  auto A = std::make_shared<Args>();
  rc->add_option("TRACE", A->trace, "the ARCOLL_TRACE path of the aborted run (its parts are TRACE.part0 ...)")
      ->required();
  rc->add_option("-o,--output", A->out, "trace to write (default TRACE; never overwritten)");
  rc->add_option("--nranks", A->nranks, "ranks of the run (default: the highest part index + 1)")
      ->check(CLI::PositiveNumber);
  return [rc, A]() {
    if (!*rc) return -1;
    const std::string out = A->out.empty() ? A->trace : A->out;
    arcoll::trace::RecoverReport rep = arcoll::trace::recover_trace(A->trace, out, A->nranks);
    const arcoll::trace::Trace t = arcoll::trace::Trace::read(out);  // what was written reads back
    int complete = 0, missing = 0;
    for (int r = 0; r < t.nranks; r++) complete += t.ranks[size_t(r)].complete ? 1 : 0;
    for (int r = 0; r < rep.nranks; r++) missing += rep.found[size_t(r)] ? 0 : 1;
    std::cout << fmt::format("wrote {}: {} ranks ({} complete, {} cut short, {} without a part file), {} "
                             "collective records\n",
                             out, t.nranks, complete, t.nranks - complete - missing, missing, t.colls.size());
    for (int r = 0; r < rep.nranks; r++) {
      if (!rep.found[size_t(r)]) std::cout << fmt::format("  rank {}: no part file\n", r);
      else if (rep.dropped_bytes[size_t(r)])
        std::cout << fmt::format("  rank {}: kept {} bytes, dropped {} ({})\n", r, rep.kept_bytes[size_t(r)],
                                 rep.dropped_bytes[size_t(r)], rep.why_dropped[size_t(r)]);
    }
    std::cout << "the part files are left in place; remove them when the trace is what you need\n";
    return 0;
  };
}

}  // namespace arcoll::tools
