/**
 * @file arcoll.cpp
 * @brief The `arcoll` command line.
 *
 *     arcoll summary TRACE [--top N]
 *     arcoll place TRACE --topology topology.conf --hosts hosts.txt -o OUT
 *                  [--format hydra|rankfile|slurm|cray] [--seed N] [--time-limit SEC]
 *                  [--latency-us LEVEL=US]... [--bandwidth-gbps LEVEL=GBIT/S]...
 *                  [--linkspeed-gbps X] [--with-collectives]
 *     arcoll --version
 *
 * `place` prints the estimated communication time (seed 001_6a837e3d9ad6c429.txt
 * cost, placement/cost.hpp; seconds) of the in-order mapping (ranks fill the
 * hosts in hostfile order, as mpiexec does) and of each stage (METIS, Scotch,
 * refined), then writes the launch file of the best one. LEVEL is `intra`
 * (node-internal, shared memory), `node` (host <-> leaf switch) or `switch`
 * (switch <-> switch). Exit codes: 0 success, 2 any error (message on stderr
 * naming the file).
 */
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "comm_graph.hpp"
#include "launch_files.hpp"
#include "place.hpp"
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

int run_place(const std::string &trace_path, const std::string &topo_path, const std::string &hosts_path,
              const std::string &out_path, const std::string &format, uint64_t seed, double time_limit,
              const std::vector<std::string> &lat, const std::vector<std::string> &bw, double linkspeed_gbps,
              bool with_colls) {
  ap::LaunchFormat fmt_kind;
  try {
    fmt_kind = ap::parse_launch_format(format);
  } catch (const std::invalid_argument &e) {
    throw UsageError(fmt::format("--format: {}", e.what()));
  }
  if (!(time_limit >= 0)) throw UsageError("--time-limit must be >= 0 seconds");
  if (!(linkspeed_gbps > 0)) throw UsageError("--linkspeed-gbps must be > 0");
  ap::TopologyParams params;
  apply_level(lat, "--latency-us", 1e-6, true, params);
  apply_level(bw, "--bandwidth-gbps", 1e9 / 8, false, params);
  params.linkspeed_gbps = linkspeed_gbps;

  arcoll::trace::Trace trace = arcoll::trace::Trace::read(trace_path);
  ap::CommGraphOptions gopt;
  gopt.with_collectives = with_colls;
  ap::CommGraph g;
  try {
    g = ap::build_comm_graph(trace, gopt);
  } catch (const std::invalid_argument &e) {
    throw arcoll::trace::TraceError(e.what());
  }
  ap::Topology topo = ap::read_topology_conf(topo_path);
  ap::attach_hosts(topo, ap::read_hostfile(hosts_path), params, hosts_path, g.nranks);

  size_t nmsg = 0;
  for (auto &s : g.steps) nmsg += s.msgs.size();
  std::cout << fmt::format("trace {}: {} ranks, {} communication steps, {} messages, {}\n", trace_path, g.nranks,
                           g.steps.size(), nmsg, human_bytes(static_cast<double>(g.total_bytes)));
  std::cout << fmt::format("machine: {} hosts, {} slots ({}), {} topology vertices\n", topo.hosts.size(),
                           topo.total_slots(), hosts_path, topo.vertices.size());
  if (nmsg == 0)
    std::cout << "note: the trace has no point-to-point traffic between different ranks (CCS empty"
              << (with_colls ? "" : "; try --with-collectives") << "): every mapping costs 0\n";

  ap::RefineOptions ropt;
  ropt.seed = seed;
  ropt.time_limit_s = time_limit;
  ap::PlaceResult pr = ap::place(g, topo, ropt);
  const double base = pr.stages[0].cost.time_s;
  std::cout << fmt::format("{:<22} {:>16} {:>10} {:>14} {:>14}\n", "stage", "est. time (s)", "vs in-order",
                           "hop-bytes", "max link load");
  for (size_t i = 0; i < pr.stages.size(); ++i) {
    const auto &s = pr.stages[i];
    std::string rel = base > 0 ? fmt::format("{:+.1f}%", 100.0 * (s.cost.time_s - base) / base) : "-";
    std::cout << fmt::format("{:<22} {:>16.6e} {:>10} {:>14.0f} {:>14}{}\n", s.name, s.cost.time_s, rel,
                             s.cost.hop_bytes, s.cost.max_congestion, i == pr.best ? "  <- chosen" : "");
  }
  std::ofstream out(out_path, std::ios::trunc);
  if (!out) throw std::runtime_error(fmt::format("{}: cannot open the output file for writing; check the directory",
                                                 out_path));
  ap::write_launch_file(out, fmt_kind, pr.chosen().map, topo.hosts);
  out.close();
  if (!out) throw std::runtime_error(fmt::format("{}: write failed", out_path));
  std::cout << fmt::format("wrote {} ({}, mapping of stage \"{}\")\n", out_path, format, pr.chosen().name);
  switch (fmt_kind) {
    case ap::LaunchFormat::Hydra:
      std::cout << fmt::format("run: mpiexec.hydra -f {} -n {} ./app\n", out_path, g.nranks); break;
    case ap::LaunchFormat::Rankfile:
      std::cout << fmt::format("run: mpirun --rankfile {} -n {} ./app (Open MPI)\n", out_path, g.nranks); break;
    case ap::LaunchFormat::Slurm:
      std::cout << fmt::format("run: SLURM_HOSTFILE={} srun --distribution=arbitrary -n {} ./app\n", out_path,
                               g.nranks); break;
    case ap::LaunchFormat::Cray:
      std::cout << fmt::format("run: copy {} to ./MPICH_RANK_ORDER, export MPICH_RANK_REORDER_METHOD=3, launch "
                               "with the per-node counts in its header\n", out_path); break;
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"arcoll: runtime-adaptive collectives for MPI (trace summary, rank placement)", "arcoll"};
  app.set_version_flag("--version", std::string("arcoll ") + ARCOLL_VERSION);
  app.require_subcommand(1);

  auto *sum = app.add_subcommand("summary", "print the summary of a trace (collectives, arrival skew, CCS)");
  std::string sum_trace;
  int top_n = 10;
  sum->add_option("TRACE", sum_trace, "trace file (.arctrace)")->required();
  sum->add_option("--top", top_n, "rows of the per-call-site tables")->check(CLI::PositiveNumber);

  auto *pl = app.add_subcommand("place", "map ranks to hosts minimising the contention-aware cost of seed 001");
  std::string trace_path, topo_path, hosts_path, out_path, format = "hydra";
  uint64_t seed = 1;
  double time_limit = 10, linkspeed = 1.0;
  std::vector<std::string> lat, bw;
  bool with_colls = false;
  pl->add_option("TRACE", trace_path, "trace file (.arctrace)")->required();
  pl->add_option("--topology", topo_path, "Slurm topology.conf (tree)")->required();
  pl->add_option("--hosts", hosts_path, "hostfile: host:slots or host slots=N per line")->required();
  pl->add_option("-o,--output", out_path, "launch file to write")->required();
  pl->add_option("--format", format, "hydra (machinefile), rankfile (Open MPI), slurm (arbitrary), cray "
                                     "(MPICH_RANK_ORDER)")->capture_default_str();
  pl->add_option("--seed", seed, "seed of METIS, Scotch and the refinement")->capture_default_str();
  pl->add_option("--time-limit", time_limit, "bound of the refinement, seconds")->capture_default_str();
  pl->add_option("--latency-us", lat, "LEVEL=MICROSECONDS, LEVEL in intra,node,switch (defaults 0.3,1,1)");
  pl->add_option("--bandwidth-gbps,--bandwidth", bw,
                 "LEVEL=GBIT_PER_S, LEVEL in intra,node,switch (defaults 160,100,100)");
  pl->add_option("--linkspeed-gbps", linkspeed, "Gbit/s per unit of LinkSpeed in topology.conf")->capture_default_str();
  pl->add_flag("--with-collectives", with_colls, "also model collective calls as point-to-point steps");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    if (*sum) {
      arcoll::trace::Trace t = arcoll::trace::Trace::read(sum_trace);
      arcoll::trace::print_summary(t, std::cout, top_n);
      return 0;
    }
    return run_place(trace_path, topo_path, hosts_path, out_path, format, seed, time_limit, lat, bw, linkspeed,
                     with_colls);
  } catch (const UsageError &e) {
    std::cerr << "arcoll " << (*sum ? "summary" : "place") << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception &e) {
    std::cerr << "arcoll " << (*sum ? "summary" : "place") << ": error: " << e.what() << "\n";
    return 2;
  }
}
