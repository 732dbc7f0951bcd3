// A Google Benchmark reporter for MPI benchmarks: every rank collects the
// per-run times (ns, real time per iteration) by benchmark name, only rank 0
// prints the console table.  Shared by bench_dispatch and bench_noharm.
#pragma once
#include <benchmark/benchmark.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

class Rank0Reporter : public benchmark::ConsoleReporter {
 public:
  /// key(name) maps a benchmark name to the key its times are collected under.
  Rank0Reporter(int rank, std::function<std::string(const std::string &)> key)
      : rank_(rank), key_(std::move(key)) {}
  std::map<std::string, std::vector<double>> ns;  ///< key -> ns per iteration, one per run
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &r : runs)
      if (r.run_type == Run::RT_Iteration) ns[key_(r.benchmark_name())].push_back(r.GetAdjustedRealTime());
    if (rank_ == 0) ConsoleReporter::ReportRuns(runs);
  }
  bool ReportContext(const Context &c) override {
    return rank_ == 0 ? ConsoleReporter::ReportContext(c) : true;
  }

 private:
  int rank_;
  std::function<std::string(const std::string &)> key_;
};

/// Median of the runs' times (0 when there is none).
inline double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}
