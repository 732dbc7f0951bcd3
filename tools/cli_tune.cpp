// `arcoll tune` (cli_tune.hpp).
#include "cli_tune.hpp"

#include <fmt/core.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "atomic_file.hpp"
#include "cli_usage.hpp"
#include "late_sets.hpp"
#include "site_hash.h"
#include "trace_reader.hpp"

namespace arcoll::tools {

namespace {

using nlohmann::json;

// The file's other keys when -o names an existing tuning file, else a new one.
json start_from(const std::string &path) {
  std::ifstream in(path);
  if (!in) return json{{"arcoll_tuning", 1}, {"choices", json::array()}};
  json root;
  try {
    root = json::parse(in);
  } catch (const json::exception &e) {
    throw UsageError(path + " exists and is not a JSON tuning file (" + e.what() +
                     "); name another file with -o or remove it");
  }
  if (!root.is_object() || root.value("arcoll_tuning", json()) != 1)
    throw UsageError(path + " exists and is not an arcoll tuning file of version 1; name another file "
                            "with -o or remove it");
  return root;
}

}  // namespace

std::function<int()> add_tune(CLI::App &app) {
  auto *tu = app.add_subcommand(
      "tune", "write the late ranks of a profiled run into a tuning file (ARCOLL_TUNING of libarcoll.so)");
  struct Args {
    std::string trace, out;
    double min_late_us = 50;
    int min_calls = 3;
  };
  auto A = std::make_shared<Args>();
  tu->add_option("TRACE", A->trace, "trace of the profiled run (ARCOLL_TRACE of libarcoll_profiler.so)")
      ->required();
  tu->add_option("-o,--output", A->out, "tuning file to write (an existing one keeps its algorithm choices)")
      ->required();
  tu->add_option("--min-late-us", A->min_late_us,
                 "a rank is late when its median own delay at a call site exceeds this (microseconds) "
                 "and twice the 33rd largest")
      ->check(CLI::NonNegativeNumber);
  tu->add_option("--min-calls", A->min_calls,
                 "a call site needs this many calls (first calls after MPI_Init left out) to have late ranks")
      ->check(CLI::PositiveNumber);
  return [tu, A]() {
    if (!*tu) return -1;
    const trace::Trace t = trace::Trace::read(A->trace);
    const std::vector<trace::LateSet> sets = trace::late_sets(t, A->min_late_us * 1e-6);
    json root = start_from(A->out), arr = json::array();
    int skipped = 0;
    for (const trace::LateSet &s : sets) {
      if (s.calls < uint64_t(A->min_calls)) continue;  // a call or two: chance, not a late rank
      std::string module;
      uint64_t offset = 0;
      if (!trace::callsite_module_offset(s.callsite, &module, &offset)) {
        std::cerr << fmt::format("arcoll tune: {} root {} at '{}': no module+offset in the call-site name "
                                 "(the address differs between runs); left out\n",
                                 s.collective, s.root, s.callsite);
        ++skipped;
        continue;
      }
      json late = json::array();
      for (const trace::LateRank &r : s.late) late.push_back({{"rank", r.rank}, {"caused_s", r.own}});
      arr.push_back({{"collective", s.collective},
                     {"P", s.P},
                     {"site", fmt::format("0x{:016x}", arcoll_site_hash(module.data(), module.size(), offset))},
                     {"root", s.root},
                     {"t_level_s", 0.0},
                     {"noise_s", s.noise},
                     {"tolerant_tree", "undecided"},
                     {"late", late},
                     {"callsite", s.callsite},
                     {"calls", s.calls}});
      std::cout << fmt::format("{} P={} root {} at {}: {} late rank(s) over {} calls, latest {} ({:.1f} us)\n",
                               s.collective, s.P, s.root, s.callsite, s.late.size(), s.calls,
                               s.late[0].rank, s.late[0].own * 1e6);
    }
    root["lateness"] = arr;
    if (!root.contains("note"))
      root["note"] = "late ranks of a profiled run (arcoll tune); read with ARCOLL_TUNING=FILE";
    try {
      write_file_atomically(A->out, root.dump(1) + "\n");
    } catch (const std::runtime_error &e) {
      throw UsageError(e.what());
    }
    std::cout << fmt::format("wrote {}: {} late set(s){}\n", A->out, arr.size(),
                             skipped ? fmt::format(", {} left out", skipped) : std::string());
    return 0;
  };
}

}  // namespace arcoll::tools
