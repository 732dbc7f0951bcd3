/**
 * @file arcoll.cpp
 * @brief The `arcoll` command line.
 *
 *     arcoll summary TRACE [--top N]
 *     arcoll place TRACE --topology topology.conf --hosts hosts.txt -o OUT
 *                  [--format hydra|rankfile|slurm|cray] [--seed N] [--time-limit SEC]
 *                  [--strategy identity|hopbytes|metis|scotch|refined|best] [--max-evals N]
 *                  [--initial in-order|random|MAPPING_FILE] [--tie-tolerance R] [--json] [--advice]
 *     arcoll place TRACE --topology ... --hosts ... --evaluate MAPPING_FILE [--json]
 *                  [--latency-us LEVEL=US]... [--bandwidth-gbps LEVEL=GBIT/S]...
 *                  [--linkspeed-gbps X] [--contention count|volume|fluid|blend] [--with-collectives]
 *     arcoll export TRACE --otf2 DIR [--name NAME]
 *     arcoll recover TRACE [-o OUT] [--nranks N]   (cli_recover.hpp)
 *     arcoll report TRACE [-o report.html] [--json FILE] [--top N] [--tuning FILE]
 *                  [--mapping FILE --topology topology.conf --hosts hosts.txt [--with-collectives]]
 *     arcoll list-algorithms [--sources]
 *     arcoll calibrate [-o model.json] [--np N] [--launcher CMD] [--dry-run] [-- ARGS...]
 *     arcoll --version
 *
 * `place` prints the estimated communication time (seed 001_6a837e3d9ad6c429.txt
 * cost, placement/cost.hpp; seconds) of the in-order mapping (ranks fill the
 * hosts in hostfile order, as mpiexec does) and of each stage (METIS, Scotch,
 * refined), then writes the launch file of the stage chosen by --strategy
 * (default best: among the stages within --tie-tolerance of the lowest
 * estimated time, the lowest max link load, then hop-bytes; place.hpp
 * choose_stage), and a one-line barrier advice
 * (placement/advice.hpp; --advice for every step pair). --evaluate scores a
 * given mapping file (any format `place` writes) without searching.
 * --json prints one JSON object instead of text: keys trace, machine,
 * stages [{name, time_s, hop_bytes, max_congestion, seconds, tied}], chosen,
 * strategy, tie_tolerance, advice {pairs, colliding_pairs, barrier_advised[, steps]},
 * output {path, format}; with --evaluate: evaluate {mapping, time_s,
 * hop_bytes, max_congestion} instead of stages. LEVEL is `intra`
 * (node-internal, shared memory), `node` (host <-> leaf switch) or `switch`
 * (switch <-> switch). Exit codes: 0 success, 2 any error (message on stderr
 * naming the file).
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
#include "cli_recover.hpp"
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

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "node=1.5" -> params.node_leaf.* = 1.5 * scale
void apply_level(const std::vector<std::string> &items, const char *option, double scale, bool latency,
                 ap::TopologyParams &p) {
  for (const std::string &it : items) {
    size_t eq = it.find('=');
    std::string level = eq == std::string::npos ? "" : it.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : it.substr(eq + 1);
    char *end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (level.empty() || value.empty() || *end != '\0' || !(latency ? v >= 0 : v > 0))
      throw UsageError(fmt::format("{} {}: expected LEVEL=VALUE with LEVEL intra, node or switch and a {} number, "
                                   "e.g. {} switch={}", option, it, latency ? "non-negative" : "positive", option,
                                   latency ? "2.5" : "100"));
    ap::LinkParams *lp = level == "intra" ? &p.intra : level == "node" ? &p.node_leaf
                                                     : level == "switch" ? &p.switch_switch : nullptr;
    if (!lp) throw UsageError(fmt::format("{} {}: unknown level \"{}\"; use intra, node or switch", option, it, level));
    (latency ? lp->latency_s : lp->bandwidth_Bps) = v * scale;
  }
}

std::string human_bytes(double b) {
  const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (b >= 1024 && i < 4) { b /= 1024; ++i; }
  return i == 0 ? fmt::format("{:.0f} {}", b, u[i]) : fmt::format("{:.1f} {}", b, u[i]);
}

// ---------------------------------------------------------------- place

struct PlaceArgs {
  std::string trace_path, topo_path, hosts_path, out_path, format = "hydra", strategy = "best";
  std::string evaluate_path, initial, contention = "count";
  uint64_t seed = 1;
  double time_limit = 10, linkspeed = 1.0, tie_tolerance = ap::kTieTolerance;
  long max_evals = 0;
  std::vector<std::string> lat, bw;
  bool with_colls = false, json = false, advice = false;
};

nlohmann::json cost_json(const ap::CostReport &c) {
  return {{"time_s", c.time_s}, {"hop_bytes", c.hop_bytes}, {"max_congestion", c.max_congestion}};
}

nlohmann::json advice_json(const std::vector<ap::StepAdvice> &adv, bool per_step) {
  int colliding = 0, advised = 0;
  for (auto &a : adv) {
    colliding += a.shared_links > 0;
    advised += a.barrier_advised;
  }
  nlohmann::json j{{"pairs", adv.size()}, {"colliding_pairs", colliding}, {"barrier_advised", advised}};
  if (per_step) {
    j["steps"] = nlohmann::json::array();
    for (auto &a : adv)
      j["steps"].push_back({{"step", a.id}, {"next_step", a.next_id}, {"shared_links", a.shared_links},
                            {"time_s", a.time_s}, {"next_time_s", a.next_time_s}, {"overlap_s", a.overlap_s},
                            {"penalty_s", a.penalty_s}, {"barrier_s", a.barrier_s},
                            {"barrier_advised", a.barrier_advised}});
  }
  return j;
}

void print_advice(const std::vector<ap::StepAdvice> &adv, bool per_step) {
  int colliding = 0, advised = 0;
  for (auto &a : adv) {
    colliding += a.shared_links > 0;
    advised += a.barrier_advised;
  }
  std::cout << fmt::format("barrier advice (seed 001; advice only, nothing is inserted): {} of {} consecutive step "
                           "pairs would collide if overlapped; a barrier between them pays off for {}{}\n",
                           colliding, adv.size(), advised, per_step ? "" : " (details: --advice)");
  if (!per_step || adv.empty()) return;
  std::cout << fmt::format("{:>10} {:>10} {:>7} {:>12} {:>12} {:>12} {:>12} {:>12}  {}\n", "step", "next", "shared",
                           "T_t (s)", "T_t+1 (s)", "overlap (s)", "penalty (s)", "barrier (s)", "advice");
  for (auto &a : adv)
    std::cout << fmt::format("{:>10} {:>10} {:>7} {:>12.4e} {:>12.4e} {:>12.4e} {:>12.4e} {:>12.4e}  {}\n", a.id,
                             a.next_id, a.shared_links, a.time_s, a.next_time_s, a.overlap_s, a.penalty_s,
                             a.barrier_s,
                             a.barrier_advised ? "barrier" : a.shared_links ? "collide (barrier costs more)" : "-");
}

int run_place(const PlaceArgs &A) {
  ap::LaunchFormat fmt_kind;
  ap::Strategy strategy;
  try {
    fmt_kind = ap::parse_launch_format(A.format);
  } catch (const std::invalid_argument &e) {
    throw UsageError(fmt::format("--format: {}", e.what()));
  }
  try {
    strategy = ap::parse_strategy(A.strategy);
  } catch (const std::invalid_argument &e) {
    throw UsageError(fmt::format("--strategy: {}", e.what()));
  }
  if (A.out_path.empty() && A.evaluate_path.empty())
    throw UsageError("-o OUT is required (the launch file to write), unless --evaluate MAPPING is given");
  if (!(A.time_limit >= 0)) throw UsageError("--time-limit must be >= 0 seconds");
  if (!(A.linkspeed > 0)) throw UsageError("--linkspeed-gbps must be > 0");
  if (A.max_evals < 0) throw UsageError("--max-evals must be >= 0 (0 = no bound)");
  if (!(A.tie_tolerance >= 0)) throw UsageError("--tie-tolerance must be >= 0 (0 = exact ties only)");
  ap::TopologyParams params;
  apply_level(A.lat, "--latency-us", 1e-6, true, params);
  apply_level(A.bw, "--bandwidth-gbps", 1e9 / 8, false, params);
  params.linkspeed_gbps = A.linkspeed;
  if (A.contention == "count") params.contention = ap::Contention::Count;
  else if (A.contention == "volume") params.contention = ap::Contention::Volume;
  else if (A.contention == "fluid") params.contention = ap::Contention::Fluid;
  else if (A.contention == "blend") params.contention = ap::Contention::Blend;
  else throw UsageError(fmt::format("--contention {}: use count (seed 001), volume, fluid or blend", A.contention));

  arcoll::trace::Trace trace = arcoll::trace::Trace::read(A.trace_path);
  ap::CommGraphOptions gopt;
  gopt.with_collectives = A.with_colls;
  ap::CommGraph g;
  try {
    g = ap::build_comm_graph(trace, gopt);
  } catch (const std::invalid_argument &e) {
    throw arcoll::trace::TraceError(e.what());
  }
  std::vector<int> incomplete;
  for (size_t r = 0; r < trace.ranks.size(); ++r)
    if (!trace.ranks[r].complete) incomplete.push_back(static_cast<int>(r));
  ap::Topology topo = ap::read_topology_conf(A.topo_path);
  ap::attach_hosts(topo, ap::read_hostfile(A.hosts_path), params, A.hosts_path, g.nranks);

  size_t nmsg = 0;
  for (auto &s : g.steps) nmsg += s.msgs.size();
  std::vector<char> seen(g.nranks, 0);
  for (auto &s : g.steps)
    for (auto &m : s.msgs) seen[m.src] = seen[m.dst] = 1;
  int silent = 0;
  for (char c : seen) silent += !c;
  nlohmann::json J;
  J["trace"] = {{"path", A.trace_path}, {"ranks", g.nranks}, {"steps", g.steps.size()}, {"messages", nmsg},
                {"bytes", g.total_bytes}, {"ranks_without_messages", silent},
                {"incomplete_rank_sections", incomplete}};
  J["machine"] = {{"hosts", topo.hosts.size()}, {"slots", topo.total_slots()}, {"contention", A.contention}};
  const bool text = !A.json;
  if (text) {
    std::cout << fmt::format("trace {}: {} ranks, {} communication steps, {} messages, {}\n", A.trace_path, g.nranks,
                             g.steps.size(), nmsg, human_bytes(static_cast<double>(g.total_bytes)));
    std::cout << fmt::format("machine: {} hosts, {} slots ({}), {} topology vertices\n", topo.hosts.size(),
                             topo.total_slots(), A.hosts_path, topo.vertices.size());
    if (nmsg == 0)
      std::cout << "note: the trace has no point-to-point traffic between different ranks (CCS empty"
                << (A.with_colls ? "" : "; try --with-collectives") << "): every mapping costs 0\n";
    else if (silent > 0)
      std::cout << fmt::format("note: {} of {} ranks never appear in the CCS; they are placed on the remaining "
                               "slots and cost nothing\n", silent, g.nranks);
    if (!incomplete.empty())
      std::cout << fmt::format("warning: {} rank section(s) of the trace are incomplete or missing (first: rank {}; "
                               "the run ended early?); the CCS entries that were written are used\n",
                               incomplete.size(), incomplete[0]);
  }

  // Current mapping: in-order, random or from a file.
  ap::PlaceOptions popt;
  popt.refine.seed = A.seed;
  popt.refine.time_limit_s = A.time_limit;
  popt.refine.max_evals = A.max_evals;
  popt.strategy = strategy;
  popt.tie_tolerance = A.tie_tolerance;
  if (A.initial == "random") {
    popt.initial = ap::random_mapping(g.nranks, topo, A.seed);
    popt.initial_name = fmt::format("initial (random, seed {})", A.seed);
  } else if (!A.initial.empty() && A.initial != "in-order") {
    popt.initial = ap::read_mapping(A.initial, topo, g.nranks);
    popt.initial_name = "initial (" + A.initial + ")";
  }

  if (!A.evaluate_path.empty()) {
    ap::Mapping m = ap::read_mapping(A.evaluate_path, topo, g.nranks);
    ap::CostReport c = ap::evaluate(g, topo, m);
    auto adv = ap::barrier_advice(g, topo, m);
    if (A.json) {
      J["evaluate"] = cost_json(c);
      J["evaluate"]["mapping"] = A.evaluate_path;
      J["advice"] = advice_json(adv, A.advice);
      std::cout << J.dump(2) << "\n";
    } else {
      std::cout << fmt::format("mapping {}: est. time {:.6e} s, hop-bytes {:.0f}, max link load {}\n",
                               A.evaluate_path, c.time_s, c.hop_bytes, c.max_congestion);
      print_advice(adv, A.advice);
    }
    return 0;
  }

  ap::PlaceResult pr = ap::place(g, topo, popt);
  const double base = pr.stages[0].cost.time_s;
  double tmin = base;
  for (auto &s : pr.stages) tmin = std::min(tmin, s.cost.time_s);
  auto tied = [&](const ap::Stage &s) { return s.cost.time_s <= tmin * (1 + A.tie_tolerance); };
  J["stages"] = nlohmann::json::array();
  int ntied = 0;
  for (auto &s : pr.stages) {
    auto js = cost_json(s.cost);
    js["name"] = s.name;
    js["seconds"] = s.seconds;
    js["tied"] = tied(s);
    ntied += tied(s);
    J["stages"].push_back(js);
  }
  J["chosen"] = pr.chosen().name;
  J["strategy"] = A.strategy;
  J["tie_tolerance"] = A.tie_tolerance;
  if (text) {
    std::cout << fmt::format("{:<28} {:>16} {:>10} {:>14} {:>14} {:>9}\n", "stage", "est. time (s)",
                             "vs " + pr.stages[0].name.substr(0, 7), "hop-bytes", "max link load", "took (s)");
    for (size_t i = 0; i < pr.stages.size(); ++i) {
      const auto &s = pr.stages[i];
      std::string rel = base > 0 ? fmt::format("{:+.1f}%", 100.0 * (s.cost.time_s - base) / base) : "-";
      std::cout << fmt::format("{:<28} {:>16.6e} {:>10} {:>14.0f} {:>14} {:>9.3f}{}\n", s.name, s.cost.time_s, rel,
                               s.cost.hop_bytes, s.cost.max_congestion, s.seconds,
                               i == pr.chosen_index ? "  <- chosen" : "");
    }
    if (strategy == ap::Strategy::Best && ntied > 1)
      std::cout << fmt::format("{} stages within {:g} % of the lowest est. time: chosen by max link load, then "
                               "hop-bytes (--tie-tolerance)\n", ntied, 100 * A.tie_tolerance);
  }
  auto adv = ap::barrier_advice(g, topo, pr.chosen().map);
  J["advice"] = advice_json(adv, A.advice);
  if (text) print_advice(adv, A.advice);
  if (!A.out_path.empty()) {
    std::ofstream out(A.out_path, std::ios::trunc);
    if (!out)
      throw std::runtime_error(fmt::format("{}: cannot open the output file for writing; check the directory",
                                           A.out_path));
    ap::write_launch_file(out, fmt_kind, pr.chosen().map, topo.hosts);
    out.close();
    if (!out) throw std::runtime_error(fmt::format("{}: write failed", A.out_path));
    J["output"] = {{"path", A.out_path}, {"format", A.format}};
  }
  if (A.json) {
    std::cout << J.dump(2) << "\n";
    return 0;
  }
  std::cout << fmt::format("wrote {} ({}, mapping of stage \"{}\")\n", A.out_path, A.format, pr.chosen().name);
  switch (fmt_kind) {
    case ap::LaunchFormat::Hydra:
      std::cout << fmt::format("run: mpiexec.hydra -f {} -n {} ./app\n", A.out_path, g.nranks); break;
    case ap::LaunchFormat::Rankfile:
      std::cout << fmt::format("run: mpirun --rankfile {} -n {} ./app (Open MPI)\n", A.out_path, g.nranks); break;
    case ap::LaunchFormat::Slurm:
      std::cout << fmt::format("run: SLURM_HOSTFILE={} srun --distribution=arbitrary -n {} ./app\n", A.out_path,
                               g.nranks); break;
    case ap::LaunchFormat::Cray:
      std::cout << fmt::format("run: copy {} to ./MPICH_RANK_ORDER, export MPICH_RANK_REORDER_METHOD=3, launch "
                               "with the per-node counts in its header\n", A.out_path); break;
  }
  return 0;
}

/** Declares `arcoll place` on `app`; the returned function runs it after parsing. */
std::function<int()> add_place(CLI::App &app) {
  auto *pl = app.add_subcommand("place", "map ranks to hosts minimising the contention-aware cost of seed 001");
  auto A = std::make_shared<PlaceArgs>();
  pl->add_option("TRACE", A->trace_path, "trace file (.arctrace)")->required();
  pl->add_option("--topology", A->topo_path, "Slurm topology.conf (tree)")->required();
  pl->add_option("--hosts", A->hosts_path, "hostfile: host:slots or host slots=N per line")->required();
  pl->add_option("-o,--output", A->out_path, "launch file to write (required unless --evaluate)");
  pl->add_option("--format", A->format, "hydra (machinefile), rankfile (Open MPI), slurm (arbitrary), cray "
                                        "(MPICH_RANK_ORDER)")->capture_default_str();
  pl->add_option("--strategy", A->strategy,
                 "stage whose mapping is written: identity (keep the current mapping), hopbytes (distance only), "
                 "metis, scotch, refined, best (lowest estimated time; ties: --tie-tolerance)")->capture_default_str();
  pl->add_option("--evaluate", A->evaluate_path,
                 "score this mapping (any format written by -o; e.g. one host per rank) and exit, no search");
  pl->add_option("--initial", A->initial,
                 "current mapping: in-order (default), random (seeded by --seed, as a batch scheduler may give) or "
                 "a mapping file");
  pl->add_option("--seed", A->seed, "seed of METIS, Scotch, the searches and --initial random")->capture_default_str();
  pl->add_option("--time-limit", A->time_limit, "bound of the hop-bytes search + refinement, seconds")
      ->capture_default_str();
  pl->add_option("--max-evals", A->max_evals,
                 "bound of the refinement in candidate evaluations (0 = none); makes the result independent of "
                 "the machine's speed")->capture_default_str();
  pl->add_option("--tie-tolerance", A->tie_tolerance,
                 "relative difference of estimated time below which stages count as tied; ties go to the lowest "
                 "max link load, then hop-bytes (0 = exact ties only)")->capture_default_str();
  pl->add_option("--latency-us", A->lat, "LEVEL=MICROSECONDS, LEVEL in intra,node,switch (defaults 0.3,1,1)");
  pl->add_option("--bandwidth-gbps,--bandwidth", A->bw,
                 "LEVEL=GBIT_PER_S, LEVEL in intra,node,switch (defaults 160,100,100)");
  pl->add_option("--linkspeed-gbps", A->linkspeed, "Gbit/s per unit of LinkSpeed in topology.conf")
      ->capture_default_str();
  pl->add_option("--contention", A->contention,
                 "collision model of the cost: count (seed 001: L + S x coll / B), volume (L + the step's bytes "
                 "on the route's busiest link / its bandwidth), fluid (max-min fair sharing; slow, for "
                 "--evaluate and small runs) or blend (volume averaged with the busy-time-weighted mean link "
                 "busy time: steps that overlap, no barrier between them)")->capture_default_str();
  pl->add_flag("--with-collectives", A->with_colls, "also model collective calls as point-to-point steps");
  pl->add_flag("--json", A->json, "print one JSON object (stages, costs, advice) instead of text");
  pl->add_flag("--advice", A->advice, "print the barrier advice of every consecutive step pair");
  return [pl, A]() { return *pl ? run_place(*A) : -1; };
}

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
      {"place", add_place(app)},
      {"export", add_export(app)},
      {"recover", arcoll::tools::add_recover(app)},
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
