// A Google Benchmark reporter for MPI benchmarks: every rank collects the
// per-run times (ns per iteration: real time, and the CPU time of the calling
// thread) by benchmark name, only rank 0
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
  std::map<std::string, std::vector<double>> ns;  ///< key -> real ns per iteration, one per run
  /// key -> ns of the calling thread's CPU time per iteration, one per run:
  /// what a call costs its rank, insensitive to other processes sharing the cores
  std::map<std::string, std::vector<double>> cpu_ns;
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &r : runs)
      if (r.run_type == Run::RT_Iteration) {
        ns[key_(r.benchmark_name())].push_back(r.GetAdjustedRealTime());
        cpu_ns[key_(r.benchmark_name())].push_back(r.GetAdjustedCPUTime());
      }
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
