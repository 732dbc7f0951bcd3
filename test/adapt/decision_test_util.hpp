// Helpers of the rooted decision's unit tests (test_decision_held.cpp,
// test_decision_exposure.cpp): a bcast candidate by name, and the root's
// reduced result (adapt/decision_rooted.c root_reduce: sums[k], max
// periods[k], minus min periods[k]).  No MPI calls.
#pragma once

#include <vector>

#include <mpi.h>

extern "C" {
#include "decision_held.h"
}

namespace decision_test {

inline arcoll_choice_t choice(const char *name, int k = 0) {
  arcoll_choice_t c{};
  c.algo = arcoll_algorithm_find(ARCOLL_COLL_BCAST, name);
  c.k = k;
  return c;
}

// k runs, each with the same sum and max period, min periods 0
inline std::vector<double> result(int k, double sum, double max) {
  std::vector<double> r(3 * k, 0.0);
  for (int i = 0; i < k; ++i) r[i] = sum, r[k + i] = max;
  return r;
}

// one sum and one max period per run
inline std::vector<double> result(const std::vector<double> &sums, const std::vector<double> &periods) {
  const size_t k = sums.size();
  std::vector<double> r(3 * k, 0.0);
  for (size_t i = 0; i < k; ++i) r[i] = sums[i], r[k + i] = periods[i];
  return r;
}

}  // namespace decision_test
