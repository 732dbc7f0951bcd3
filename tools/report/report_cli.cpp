// `arcoll report` (report_cli.hpp).
#include "report_cli.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "report_data.hpp"
#include "report_html.hpp"
#include "report_placement.hpp"
#include "report_tuning.hpp"
#include "trace_reader.hpp"

namespace arcoll::report {

namespace {

struct Args {
  std::string trace, out = "report.html", json_out, tuning;
  PlacementInputs place;
  int top = 15;
};

void write_text(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error(path + ": cannot open the output file for writing; check the directory");
  f << text;
  f.close();
  if (!f) throw std::runtime_error(path + ": write failed");
}

int run(const Args &A) {
  const PlacementInputs &P = A.place;
  const int given = !P.mapping.empty() + !P.topology.empty() + !P.hosts.empty();
  if (given != 0 && given != 3)
    throw std::invalid_argument("--mapping, --topology and --hosts go together (the placement section needs all "
                                "three: the mapping to compare, the topology.conf and the hostfile of `arcoll place`)");
  // The trace first (its errors name it), then the Vega files (libjs-vega).
  arcoll::trace::Trace t = arcoll::trace::Trace::read(A.trace);
  const std::string vega = vega_script(vega_dir());
  DataLimits lim;
  lim.top = A.top;
  nlohmann::json data = report_data(t, lim);
  if (!A.tuning.empty()) data["algorithms"] = read_tuning_choices(A.tuning, data);
  if (given == 3) data["placement"] = placement_json(t, P);
  if (!A.json_out.empty()) write_text(A.json_out, data.dump(1) + "\n");
  const std::string page = render_page(data, vega);
  write_text(A.out, page);
  std::cout << fmt::format("wrote {} ({:.0f} KiB; {} ranks, {} call sites, {} communication steps{}{})\n", A.out,
                           page.size() / 1024.0, t.nranks, data["callsites"].size(),
                           data["trace"]["steps"].get<uint64_t>(), given == 3 ? ", placement" : "",
                           A.tuning.empty() ? "" : ", algorithm choices");
  return 0;
}

}  // namespace

std::function<int()> add_report(CLI::App &app) {
  auto *rp = app.add_subcommand("report", "write a self-contained HTML report of a trace (waits, arrival skew, "
                                          "communication matrix, placement link loads; plots by Vega, inlined)");
  auto A = std::make_shared<Args>();
  rp->add_option("TRACE", A->trace, "trace file (.arctrace)")->required();
  rp->add_option("-o,--output", A->out, "HTML file to write (opens offline)")->capture_default_str();
  rp->add_option("--json", A->json_out, "also write the report's data (JSON, tools/report/report_data.hpp)");
  rp->add_option("--top", A->top, "rows of the call-site table")->check(CLI::PositiveNumber)->capture_default_str();
  rp->add_option("--mapping", A->place.mapping, "mapping to compare with the in-order one (any `arcoll place -o` format)");
  rp->add_option("--topology", A->place.topology, "Slurm topology.conf (as `arcoll place`)");
  rp->add_option("--hosts", A->place.hosts, "hostfile (as `arcoll place`)");
  rp->add_flag("--with-collectives", A->place.with_collectives,
               "placement: also model collective calls as point-to-point steps (as `arcoll place`)");
  rp->add_option("--tuning", A->tuning,
                 "tuning file of a run with libarcoll.so (ARCOLL_TUNING_OUT): its algorithm choices are shown");
  return [rp, A]() { return *rp ? run(*A) : -1; };
}

}  // namespace arcoll::report
