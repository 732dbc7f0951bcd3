/**
 * @file arcoll.cpp
 * @brief The `arcoll` command line.
 *
 *     arcoll summary TRACE [--top N]
 *     arcoll place TRACE --topology topology.conf --hosts hosts.txt -o OUT
 *                  [--format hydra|rankfile|slurm|cray] [--seed N] [--time-limit SEC]
 *                  [--strategy identity|hopbytes|metis|scotch|refined|best] [--max-evals N]
 *                  [--max-step-evals N]
 *                  [--initial in-order|random|MAPPING_FILE] [--tie-tolerance R] [--rank blend|count]
 *                  [--json] [--advice]
 *     arcoll place TRACE --topology ... --hosts ... --evaluate MAPPING_FILE [--json]
 *                  [--latency-us LEVEL=US]... [--bandwidth-gbps LEVEL=GBIT/S]...
 *                  [--linkspeed-gbps X] [--contention count|volume|fluid|blend] [--with-collectives]
 *     arcoll export TRACE --otf2 DIR [--name NAME]
 *     arcoll recover TRACE [-o OUT] [--nranks N]   (cli_recover.hpp)
 *     arcoll tune TRACE -o TUNING [--min-late-us U] [--min-calls N]   (cli_tune.hpp)
 *     arcoll report TRACE [-o report.html] [--json FILE] [--top N] [--tuning FILE]
 *                  [--mapping FILE --topology topology.conf --hosts hosts.txt [--with-collectives]]
 *     arcoll list-algorithms [--sources]
 *     arcoll calibrate [-o model.json] [--np N] [--launcher CMD] [--dry-run] [-- ARGS...]
 *     arcoll --version
 *
 * `place`: cli_place.hpp.
 *
 * `export` writes the trace as the OTF2 archive DIR/NAME.otf2 (default NAME
 * traces; what is exported: export_otf2.hpp); exit 2 on any error (an
 * unreadable trace, DIR not writable, an OTF2 error), message on stderr.
 *
 * `report` writes one self-contained HTML page (Vega inlined from Debian
 * libjs-vega, opens offline): top call sites by waiting time, who causes the
 * waits, arrival-skew heatmap, communication matrix and CCS per step,
 * algorithm choices (--tuning), placement link loads (--mapping ...);
 * tools/report/. Exit 2 on any error, message naming the file.
 *
 * `list-algorithms` prints one `collective name` line per algorithm of the
 * collectives/ tables (the values of ARCOLL_<COLL>_ALGORITHM; --sources adds
 * the cost formula / paper).  `calibrate` runs
 * `<launcher> -n <np> <dir of arcoll>/arcoll-calibrate -o FILE ARGS...`
 * (default launcher mpiexec.hydra, np 2) and exits with its status;
 * --dry-run prints the command instead (collectives/README.md, "Calibration").
 */
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <climits>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <iostream>
#include <string>
#include <cstring>
#include <cerrno>
#include <vector>

#include "algo_names.h"
#include "comm_graph.hpp"
#include "cli_place.hpp"
#include "cli_recover.hpp"
#include "cli_tune.hpp"
#include "cli_usage.hpp"
#include "export_otf2.hpp"
#include "advice.hpp"
#include "launch_files.hpp"
#include "mapping_io.hpp"
#include "place.hpp"
#include "report_cli.hpp"
#include "summary.hpp"
#include "topology.hpp"
#include "trace_reader.hpp"

#ifndef ARCOLL_VERSION
#define ARCOLL_VERSION "unknown"
#endif

namespace ap = arcoll::placement;

namespace {

using arcoll::tools::UsageError;

// ---------------------------------------------------------------- summary

/** Declares `arcoll summary` on `app`; the returned function runs it after parsing. */
std::function<int()> add_summary(CLI::App &app) {
  auto *sum = app.add_subcommand("summary", "print the summary of a trace (collectives, arrival skew, CCS)");
  auto path = std::make_shared<std::string>();
  auto top_n = std::make_shared<int>(10);
  sum->add_option("TRACE", *path, "trace file (.arctrace)")->required();
  sum->add_option("--top", *top_n, "rows of the per-call-site tables")->check(CLI::PositiveNumber);
  return [sum, path, top_n]() {
    if (!*sum) return -1;
    arcoll::trace::Trace t = arcoll::trace::Trace::read(*path);
    arcoll::trace::print_summary(t, std::cout, *top_n);
    return 0;
  };
}

// ---------------------------------------------------------------- export

/** Declares `arcoll export TRACE --otf2 DIR`; the returned function runs it after parsing. */
std::function<int()> add_export(CLI::App &app) {
  auto *ex = app.add_subcommand("export", "write a trace in another format (OTF2: Vampir, Scalasca, otf2-print)");
  struct Args {
    std::string trace, dir, name = "traces";
  };
  auto A = std::make_shared<Args>();
  ex->add_option("TRACE", A->trace, "trace file (.arctrace)")->required();
  ex->add_option("--otf2", A->dir, "directory of the OTF2 archive (created if missing)")->required();
  ex->add_option("--name", A->name, "archive name: DIR/NAME.otf2")->capture_default_str();
  return [ex, A]() {
    if (!*ex) return -1;
    arcoll::trace::Trace t = arcoll::trace::Trace::read(A->trace);
    arcoll::tools::Otf2ExportStats s = arcoll::tools::export_otf2(t, A->dir, A->name);
    std::cout << fmt::format("wrote {}: {} locations, {} events ({} MPI calls, {} collective begin/end pairs, {} "
                             "send/receive pairs from the CCS), {:.6f} s\n", s.anchor, s.locations, s.events,
                             s.calls, s.collectives, s.messages, s.span_s);
    if (s.clamped)
      std::cout << fmt::format("note: {} timestamps were raised to keep each location in time order\n", s.clamped);
    return 0;
  };
}

// ---------------------------------------------------------------- list-algorithms

/** Declares `arcoll list-algorithms`: one `collective name` line per algorithm. */
std::function<int()> add_list_algorithms(CLI::App &app) {
  auto *la = app.add_subcommand("list-algorithms",
                                "print `collective name` for every collective algorithm (ARCOLL_<COLL>_ALGORITHM values)");
  auto sources = std::make_shared<bool>(false);
  la->add_flag("--sources", *sources, "append the cost formula / paper of each algorithm");
  return [la, sources]() {
    if (!*la) return -1;
    for (int i = 0; i < arcoll_algo_names_count; ++i) {
      const arcoll_algo_name_t &a = arcoll_algo_names[i];
      if (*sources)
        std::cout << a.collective << " " << a.name << "\t" << a.source << "\n";
      else
        std::cout << a.collective << " " << a.name << "\n";
    }
    return 0;
  };
}

// ---------------------------------------------------------------- calibrate

/** Directory of the running executable (where arcoll-calibrate is installed next to it). */
std::string self_dir() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  std::string p(buf);
  auto slash = p.rfind('/');
  return slash == std::string::npos ? "." : p.substr(0, slash);
}

/** Declares `arcoll calibrate`: runs arcoll-calibrate under the MPI launcher. */
std::function<int()> add_calibrate(CLI::App &app) {
  auto *cal = app.add_subcommand(
      "calibrate", "measure point-to-point (ping-pong, LogGP) and write the model file read via ARCOLL_MODEL");
  struct Args {
    std::string out = "model.json", launcher = "mpiexec.hydra";
    int np = 2;
    bool dry = false;
    std::vector<std::string> rest;
  };
  auto A = std::make_shared<Args>();
  cal->add_option("-o,--output", A->out, "model file to write")->capture_default_str();
  cal->add_option("--np", A->np, "ranks (2 measure; put them on 2 nodes for the inter-node class)")
      ->capture_default_str()->check(CLI::Range(2, 1 << 20));
  cal->add_option("--launcher", A->launcher, "MPI launcher (MPICH's)")->capture_default_str();
  cal->add_flag("--dry-run", A->dry, "print the command instead of running it");
  cal->add_option("ARGS", A->rest, "further arcoll-calibrate options after --: -r REPS, -m MAX_BYTES, -q");
  return [cal, A]() {
    if (!*cal) return -1;
    std::string prog = self_dir() + "/arcoll-calibrate";
    if (!A->dry && access(prog.c_str(), X_OK) != 0)
      throw UsageError(prog + " not found or not executable; build/install arcoll (target arcoll_calibrate)");
    std::vector<std::string> args{A->launcher, "-n", std::to_string(A->np), prog, "-o", A->out};
    args.insert(args.end(), A->rest.begin(), A->rest.end());
    if (A->dry) {
      for (size_t i = 0; i < args.size(); ++i) std::cout << (i ? " " : "") << args[i];
      std::cout << "\n";
      return 0;
    }
    std::vector<char *> argv;
    for (auto &s : args) argv.push_back(s.data());
    argv.push_back(nullptr);
    std::cout.flush();
    execvp(argv[0], argv.data());
    throw UsageError("cannot run " + A->launcher + ": " + std::strerror(errno) +
                     " (is MPICH installed? use --launcher)");
  };
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"arcoll: runtime-adaptive collectives for MPI (trace summary, rank placement)", "arcoll"};
  app.set_version_flag("--version", std::string("arcoll ") + ARCOLL_VERSION);
  app.require_subcommand(1);
  // One add_<name>() per subcommand; each returns its runner (-1 when not selected).
  std::vector<std::pair<std::string, std::function<int()>>> commands{
      {"summary", add_summary(app)},
      {"place", arcoll::tools::add_place(app)},
      {"export", add_export(app)},
      {"recover", arcoll::tools::add_recover(app)},
      {"tune", arcoll::tools::add_tune(app)},
      {"report", arcoll::report::add_report(app)},
      {"list-algorithms", add_list_algorithms(app)},
      {"calibrate", add_calibrate(app)},
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  std::string name = app.get_subcommands().empty() ? "" : app.get_subcommands()[0]->get_name();
  try {
    for (auto &[n, run] : commands) {
      int rc = run();
      if (rc >= 0) return rc;
    }
    return 2;
  } catch (const UsageError &e) {
    std::cerr << "arcoll " << name << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception &e) {
    std::cerr << "arcoll " << name << ": error: " << e.what() << "\n";
    return 2;
  }
}
