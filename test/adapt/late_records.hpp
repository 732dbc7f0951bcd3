// Synthetic lateness records for the unit tests of adapt/lateness.c
// (test_lateness.cpp, test_lateness_summary.cpp): one call's records with
// chosen entry and exit times, a call with one late rank, several calls
// interleaved per rank as the summary reads them.  No MPI.
#ifndef ARCOLL_TEST_LATE_RECORDS_HPP
#define ARCOLL_TEST_LATE_RECORDS_HPP

#include <algorithm>
#include <cstdint>
#include <vector>

extern "C" {
#include "lateness.h"
}

namespace late_records {

// Records of one call: rank r at position (r - root) mod P (the classic
// order), entering at entry[r], leaving at exit[r] (default: after waiting
// 2 t_level for its data); t_level per tree level; chain: 1 chain, 2 toward
// the root.
inline std::vector<arcoll_late_record_t> call(int P, int root, const std::vector<double> &entry,
                                              double t_level, int chain = 0, uint64_t site = 77,
                                              std::vector<double> exit = {}) {
  std::vector<arcoll_late_record_t> rec(P);
  const double first = *std::min_element(entry.begin(), entry.end());
  for (int r = 0; r < P; ++r) {
    rec[r].entry = entry[r];
    rec[r].gap = entry[r] - first + 1e-3;  // time outside since the previous call
    rec[r].exit = exit.empty() ? entry[r] + 2 * t_level : exit[r];
    rec[r].site = site + (r == root ? 0 : 1000 + r);  // only the root's site counts
    rec[r].pos = (r - root + P) % P;
    rec[r].root = root;
    rec[r].t_level = (float)t_level;
    rec[r].flags = ARCOLL_LATE_VALID | (chain & 1 ? ARCOLL_LATE_CHAIN : 0) | (chain & 2 ? ARCOLL_LATE_UP : 0);
  }
  return rec;
}

// A call where rank `late` entered `by` seconds after the root's exit and
// found its data; everybody else waited (root at position 0 exits at 1.0).
inline std::vector<arcoll_late_record_t> late_call(int P, int root, int late, double by, double t,
                                                   uint64_t site = 77) {
  std::vector<double> e(P, 0.999), x(P, 1.0 + 3 * t);
  e[root] = 0.9999, x[root] = 1.0;
  if (late >= 0) e[late] = 1.0 + by, x[late] = 1.0 + by + 1e-8;
  for (int r = 0; r < P; ++r)  // the late rank's parent must be the root for a clean reference
    if (r != late && r != root && x[r] < e[r]) x[r] = e[r] + 2 * t;
  return call(P, root, e, t, 0, site, x);
}

// rec[r * S + j] from per-call record vectors
inline std::vector<arcoll_late_record_t> interleave(const std::vector<std::vector<arcoll_late_record_t>> &calls) {
  const int S = (int)calls.size(), P = (int)calls[0].size();
  std::vector<arcoll_late_record_t> rec((size_t)P * S);
  for (int j = 0; j < S; ++j)
    for (int r = 0; r < P; ++r) rec[(size_t)r * S + j] = calls[j][r];
  return rec;
}

}  // namespace late_records

#endif
