// `arcoll place`: see cli_place.hpp.
#include "cli_place.hpp"

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

#include "comm_graph.hpp"
#include "advice.hpp"
#include "launch_files.hpp"
#include "mapping_io.hpp"
#include "place.hpp"
#include "sockets.hpp"
#include "summary.hpp"
#include "topology.hpp"
#include "trace_reader.hpp"
#include "cli_place_stages.hpp"
#include "cli_usage.hpp"

namespace arcoll::tools {

namespace ap = arcoll::placement;

namespace {

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
      throw UsageError(fmt::format("{} {}: expected LEVEL=VALUE with LEVEL intra, socket, node or switch and a {} "
                                   "number, "
                                   "e.g. {} switch={}", option, it, latency ? "non-negative" : "positive", option,
                                   latency ? "2.5" : "100"));
    ap::LinkParams *lp = level == "intra" ? &p.intra : level == "node" ? &p.node_leaf
                         : level == "switch" ? &p.switch_switch : level == "socket" ? &p.socket : nullptr;
    if (!lp)
      throw UsageError(fmt::format("{} {}: unknown level \"{}\"; use intra, socket, node or switch", option, it, level));
    (latency ? lp->latency_s : lp->bandwidth_Bps) = v * scale;
  }
}

// "-bind-to user:... " for a Hydra machinefile on hosts with sockets (launch_files.hpp), else "".
std::string hydra_bind_text(const ap::Mapping &map, const ap::Topology &topo) {
  if (!topo.has_sockets()) return "";
  std::string b = ap::hydra_bind_option(map, topo.hosts);
  return b.empty() ? "" : b + " ";
}

std::string human_bytes(double b) {
  const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (b >= 1024 && i < 4) { b /= 1024; ++i; }
  return i == 0 ? fmt::format("{:.0f} {}", b, u[i]) : fmt::format("{:.1f} {}", b, u[i]);
}

struct PlaceArgs {
  std::string trace_path, topo_path, hosts_path, out_path, format = "hydra", strategy = "best";
  std::string evaluate_path, initial, contention = "count", hwloc_path;
  uint64_t seed = 1;
  double time_limit = 30, linkspeed = 1.0, tie_tolerance = ap::kTieTolerance, refined_margin = ap::kRefinedMargin,
         path_overlap_weight = ap::kPathOverlapWeight;
  long max_evals = 0, max_step_evals = 0;
  uint64_t rendezvous_bytes = 65536;
  uint64_t async_bytes = 0;
  bool no_path_collectives = false, fluid_path = false;
  bool max_evals_given = false;  // else ap::kDefaultEvalsPerRank x ranks
  bool max_step_evals_given = false;  // else ap::kDefaultStepEvalsPerRank x ranks
  int random_starts = 0;
  int threads = 0;  // refinement threads (0 = OpenMP default)
  std::vector<std::string> lat, bw;
  bool with_colls = false, json = false, advice = false, no_second_opinion = false, move_on_tie = false,
       no_path_opinion = false, block_moves = false;
  std::string sets = "auto", rank = "blend";
};

int run_place(const PlaceArgs &A) {
  ap::LaunchFormat fmt_kind;
  ap::Strategy strategy;
  ap::Ranking ranking;
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
  try {
    ranking = ap::parse_ranking(A.rank);
  } catch (const std::invalid_argument &e) {
    throw UsageError(fmt::format("--rank: {}", e.what()));
  }
  if (A.out_path.empty() && A.evaluate_path.empty())
    throw UsageError("-o OUT is required (the launch file to write), unless --evaluate MAPPING is given");
  if (!(A.time_limit >= 0)) throw UsageError("--time-limit must be >= 0 seconds");
  if (!(A.linkspeed > 0)) throw UsageError("--linkspeed-gbps must be > 0");
  if (A.max_evals < 0) throw UsageError("--max-evals must be >= 0 (0 = no bound)");
  if (A.max_step_evals < 0) throw UsageError("--max-step-evals must be >= 0 (0 = no bound)");
  if (!(A.tie_tolerance >= 0)) throw UsageError("--tie-tolerance must be >= 0 (0 = exact ties only)");
  if (!(A.refined_margin >= 0 && A.refined_margin < 1))
    throw UsageError("--refined-margin must be in [0, 1) (a fraction of the blend time; 0 = off)");
  ap::TopologyParams params;
  apply_level(A.lat, "--latency-us", 1e-6, true, params);
  apply_level(A.bw, "--bandwidth-gbps", 1e9 / 8, false, params);
  params.linkspeed_gbps = A.linkspeed;
  params.rendezvous_bytes = A.rendezvous_bytes;
  params.async_bytes = A.async_bytes;
  params.path_collectives = !A.no_path_collectives;
  if (A.contention == "count") params.contention = ap::Contention::Count;
  else if (A.contention == "volume") params.contention = ap::Contention::Volume;
  else if (A.contention == "fluid") params.contention = ap::Contention::Fluid;
  else if (A.contention == "blend") params.contention = ap::Contention::Blend;
  else throw UsageError(fmt::format("--contention {}: use count (seed 001), volume, fluid or blend", A.contention));

  arcoll::trace::Trace trace = arcoll::trace::Trace::read(A.trace_path);
  ap::CommGraphOptions gopt;
  gopt.with_collectives = A.with_colls;
  if (A.sets != "steps" && A.sets != "levels" && A.sets != "auto")
    throw UsageError(fmt::format("--sets {}: use auto (levels when the trace records receives, else steps), steps "
                                 "(the trace's communication steps) or levels (dependency levels from the recorded "
                                 "receives)", A.sets));
  gopt.by_levels = A.sets != "steps";
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
  ap::attach_hosts(topo, ap::read_hostfile(A.hosts_path, A.hwloc_path), params, A.hosts_path, g.nranks);

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
  const size_t nhosts = ap::node_topology(topo).hosts.size();
  J["machine"] = {{"hosts", nhosts}, {"sockets", topo.hosts.size()}, {"slots", topo.total_slots()},
                  {"contention", A.contention}};
  const bool text = !A.json;
  if (text) {
    std::cout << fmt::format("trace {}: {} ranks, {} {}, {} messages, {}\n", A.trace_path, g.nranks, g.steps.size(),
                             g.by_levels ? fmt::format("dependency levels ({} nodes taken out of cycles)", g.levels_forced)
                                         : "communication steps",
                             nmsg, human_bytes(static_cast<double>(g.total_bytes)));
    if (A.sets == "levels" && !g.by_levels)
      std::cout << "note: --sets levels: the trace records no receives (written before RT_RECV existed); its "
                   "communication steps are used\n";
    std::cout << fmt::format("machine: {} hosts{}, {} slots ({}), {} topology vertices\n", nhosts,
                             topo.has_sockets() ? fmt::format(" ({} sockets)", topo.hosts.size()) : "",
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
  popt.refine.max_evals = A.max_evals_given ? A.max_evals : ap::kDefaultEvalsPerRank * g.nranks;
  popt.refine.max_step_evals = A.max_step_evals_given ? A.max_step_evals : ap::kDefaultStepEvalsPerRank * g.nranks;
  popt.strategy = strategy;
  popt.tie_tolerance = A.tie_tolerance;
  popt.ranking = ranking;
  popt.second_opinion = !A.no_second_opinion;
  popt.path_opinion = !A.no_path_opinion;
  popt.path_overlap_weight = A.path_overlap_weight;
  popt.refined_margin = A.refined_margin;
  popt.keep_start = !A.move_on_tie;
  popt.random_starts = A.random_starts;
  popt.refine.blocks = A.block_moves;
  popt.refine.threads = A.threads;
  if (A.initial == "random") {
    popt.initial = ap::random_mapping(g.nranks, topo, A.seed);
    popt.initial_name = fmt::format("initial (random, seed {})", A.seed);
  } else if (!A.initial.empty() && A.initial != "in-order") {
    popt.initial = ap::read_mapping(A.initial, topo, g.nranks);
    popt.initial_name = "initial (" + A.initial + ")";
  }

  if (!A.evaluate_path.empty()) {
    report_evaluation(g, topo, ap::read_mapping(A.evaluate_path, topo, g.nranks),
                      {A.evaluate_path, A.json, A.advice, A.fluid_path, A.path_overlap_weight}, J);
    return 0;
  }

  ap::PlaceResult pr = ap::place(g, topo, popt);
  report_stages(pr, {A.strategy, strategy, A.tie_tolerance, A.time_limit, A.random_starts, popt.refine.max_evals,
                     popt.refine.max_step_evals},
                topo, g.by_levels, text, J);
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
      std::cout << fmt::format("run: mpiexec.hydra -f {} -n {} {}./app\n", A.out_path, g.nranks,
                               hydra_bind_text(pr.chosen().map, topo));
      if (topo.has_sockets() && ap::hydra_bind_option(pr.chosen().map, topo.hosts).empty())
        std::cout << "note: the hosts bind their ranks to different cores; Hydra's -bind-to user: takes one list "
                     "for all hosts: use --format rankfile to bind each rank to its socket (placement/HOSTS.md)\n";
      break;
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
}  // namespace

std::function<int()> add_place(CLI::App &app) {
  auto *pl = app.add_subcommand("place", "map ranks to hosts minimising the contention-aware cost of seed 001");
  auto A = std::make_shared<PlaceArgs>();
  pl->add_option("TRACE", A->trace_path, "trace file (.arctrace)")->required();
  pl->add_option("--topology", A->topo_path, "Slurm topology.conf (tree)")->required();
  pl->add_option("--hosts", A->hosts_path, "hostfile: host:slots or host slots=N per line, optionally sockets=S, "
                 "numa=S or hwloc=FILE (placement/HOSTS.md)")->required();
  pl->add_option("--hwloc", A->hwloc_path, "hwloc XML (lstopo --of xml) of the hosts whose hostfile line gives "
                 "no sockets=/hwloc=: its packages are their sockets");
  pl->add_option("-o,--output", A->out_path, "launch file to write (required unless --evaluate)");
  pl->add_option("--format", A->format, "hydra (machinefile), rankfile (Open MPI), slurm (arbitrary), cray "
                                        "(MPICH_RANK_ORDER)")->capture_default_str();
  pl->add_option("--strategy", A->strategy,
                 "stage whose mapping is written: identity (keep the current mapping), hopbytes (distance only), "
                 "metis, metis_tree (METIS top down along the switch tree), scotch, metis_time (METIS on the pairs' "
                 "message times), scotch_time (Scotch on the same graph, from that partition), refined, "
                 "best (lowest estimated time; ties: --tie-tolerance)")->capture_default_str();
  pl->add_option("--evaluate", A->evaluate_path,
                 "score this mapping (any format written by -o; e.g. one host per rank) and exit, no search");
  pl->add_option("--initial", A->initial,
                 "current mapping: in-order (default), random (seeded by --seed, as a batch scheduler may give) or "
                 "a mapping file");
  pl->add_option("--seed", A->seed, "seed of METIS, Scotch, the searches and --initial random")->capture_default_str();
  pl->add_option("--time-limit", A->time_limit, "bound of the hop-bytes search + refinement, seconds")
      ->capture_default_str();
  pl->add_option("--max-evals", A->max_evals,
                 fmt::format("bound of the refinement in candidate evaluations (0 = none; default {} x ranks); "
                             "the search ends on it, not on the clock, so the mapping does not depend on the "
                             "machine's speed unless --time-limit cuts it first", ap::kDefaultEvalsPerRank))
      ->each([A](const std::string &) { A->max_evals_given = true; });
  pl->add_option("--max-step-evals", A->max_step_evals,
                 fmt::format("bound of the refinement's work in whole-step evaluations of the cost model (0 = none; "
                             "default {} x ranks): a trace whose candidates each re-evaluate hundreds of steps "
                             "(ScaLAPACK LU) ends on it; a count, so the mapping does not depend on the machine",
                             ap::kDefaultStepEvalsPerRank))
      ->each([A](const std::string &) { A->max_step_evals_given = true; });
  pl->add_option("--threads", A->threads,
                 "threads of the refinement's cost evaluations (0 = OMP_NUM_THREADS, else every core); the "
                 "mapping is the same for every count")->capture_default_str()->check(CLI::Range(0, 1024));
  pl->add_option("--tie-tolerance", A->tie_tolerance,
                 "relative difference of estimated time below which stages count as tied; ties go to the lowest "
                 "max link load, then hop-bytes (0 = exact ties only)")->capture_default_str();
  pl->add_option("--latency-us", A->lat,
                 "LEVEL=MICROSECONDS, LEVEL in intra,socket,node,switch (defaults 0.3,0.2,1,1; socket = one "
                 "socket's link to the inter-socket interconnect, crossed twice between sockets)");
  pl->add_option("--bandwidth-gbps,--bandwidth", A->bw,
                 "LEVEL=GBIT_PER_S, LEVEL in intra,socket,node,switch (defaults 160,80,100,100)");
  pl->add_option("--linkspeed-gbps", A->linkspeed, "Gbit/s per unit of LinkSpeed in topology.conf")
      ->capture_default_str();
  pl->add_option("--contention", A->contention,
                 "collision model of the cost: count (seed 001: L + S x coll / B), volume (L + the step's bytes "
                 "on the route's busiest link / its bandwidth), fluid (max-min fair sharing; slow, for "
                 "--evaluate and small runs) or blend (volume averaged with the busy-time-weighted mean link "
                 "busy time: steps that overlap, no barrier between them)")->capture_default_str();
  pl->add_option("--rendezvous-bytes", A->rendezvous_bytes,
                 "smallest message (bytes) a blocking send (MPI_Send, MPI_Sendrecv, as the trace records) "
                 "transfers by rendezvous, waiting for the receiver: the critical path's model "
                 "(placement/critical_path.hpp); 0 = every message eager; your MPI's eager limit "
                 "(SMPI: smpi/send-is-detached-thresh)")->capture_default_str();
  pl->add_option("--async-bytes", A->async_bytes,
                 "the other sends (eager, nonblocking) of at least this many bytes start their transfer when "
                 "their receiver is in the step it receives in (the sender does not wait), smaller ones at once: "
                 "the critical path's model (placement/critical_path.hpp, \"Matched sends\"); 0 (SMPI, whose "
                 "smpi/async-small-thresh is 0) = every send waits for its receive; an MPI whose eager messages "
                 "flow before the receive is posted: its eager limit, as --rendezvous-bytes")->capture_default_str();
  pl->add_flag("--no-path-collectives", A->no_path_collectives,
              "the critical path (placement/critical_path.hpp) counts the blocking collectives between a "
              "rank's point-to-point messages as synchronisations of 0 s, not with their trees' times on the "
              "mapping (the model before 2 Dec 2026)");
  pl->add_flag("--fluid-path", A->fluid_path,
              "with --evaluate: also the fluid critical path (placement/critical_path.hpp \"Fluid\": the trace's "
              "dependencies replayed with max-min fair link sharing; per message start or end, the rates of the "
              "messages in flight: slow for thousands of ranks)");
  pl->add_flag("--with-collectives", A->with_colls, "also model collective calls as point-to-point steps");
  pl->add_option("--rank", A->rank,
                 "with --strategy best and --contention count: rank the stages by the blend model's time (blend; "
                 "ties by max link load, then hop-bytes) or by the count model's (count, with the blend model's "
                 "second opinion on the refined mapping); placement/place.hpp, Ranking")
      ->check(CLI::IsMember({"count", "blend"}))->capture_default_str();
  pl->add_flag("--no-second-opinion", A->no_second_opinion,
               "with --strategy best, --contention count and --rank count: write the refined mapping even when the blend model "
               "does not rate it below the refinement's start (placement/place.hpp, SecondOpinion)");
  pl->add_option("--refined-margin", A->refined_margin,
                 "with --strategy best and --rank blend: write the refined mapping only when its blend time is "
                 "below the stage ranked first among the others by more than this fraction (0 = off; "
                 "placement/place.hpp, SecondOpinion)")->capture_default_str();
  pl->add_flag("--no-path-opinion", A->no_path_opinion,
               "with --strategy best: write the refined mapping even when its critical path score is not below "
               "the start's (traces that record receives; placement/place.hpp, PathOpinion)");
  pl->add_option("--path-overlap-weight", A->path_overlap_weight,
                 "the path opinion's score of a mapping: overlap^W x fluid^(1 - W) of its critical paths with "
                 "time-overlap contention and with fluid sharing (1 = the overlap path alone; placement/place.hpp, "
                 "kPathOverlapWeight; with --evaluate --fluid-path: path_score_s)")
      ->check(CLI::Range(0.0, 1.0))->capture_default_str();
  pl->add_flag("--block-moves", A->block_moves,
               "with --strategy refined|best: alternate the refinement's rank swaps with exchanges of whole "
               "hosts' and switch subtrees' contents (placement/block_moves.hpp; opt-in: faster in SMPI on 15 of the "
               "suite's 50 cells, slower on 3, placement/BLOCK_MOVES.md \"Block moves\")");
  pl->add_option("--random-starts", A->random_starts,
                 "with --strategy refined|best: also refine from N random mappings (seeds --seed + 1..N), each with "
                 "the --max-evals budget, and keep the lowest estimated time (placement/place.hpp, "
                 "PlaceOptions::random_starts)")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  pl->add_flag("--move-on-tie", A->move_on_tie,
               "with --strategy best: write the stage the tie-break ranks first even when the start (in-order or "
               "--initial) is within --tie-tolerance of it (default: the start is kept; placement/place.hpp, "
               "PlaceOptions::keep_start)");
  pl->add_option("--sets", A->sets,
                 "concurrent sets of the cost: steps (the trace's communication steps, seed 001's CCS), levels "
                 "(dependency levels from the recorded receives, placement/levels.hpp; a trace without "
                 "receives keeps its steps) or auto (levels when the trace records receives, else steps; "
                 "placement/CHOOSER.md \"Dependency levels\")")->capture_default_str();
  pl->add_flag("--json", A->json, "print one JSON object (stages, costs, advice) instead of text");
  pl->add_flag("--advice", A->advice, "print the barrier advice of every consecutive step pair");
  return [pl, A]() { return *pl ? run_place(*A) : -1; };
}

}  // namespace arcoll::tools
