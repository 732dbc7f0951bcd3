// Small traces with recorded receives (dependency levels, placement/levels.hpp) shared by the critical-path
// and path-opinion tests.
#pragma once
#include <cstdint>

#include "comm_graph.hpp"
#include "trace_reader.hpp"

namespace tracefix {
using arcoll::placement::CommGraph;
using arcoll::trace::CcsEntry;
using arcoll::trace::Trace;

// Rank a sends 100 bytes to b in a's step `s`; b receives it in its step `r`.
inline void msg(Trace &tr, int a, int b, uint64_t s, uint64_t r) {
  tr.ccs.push_back(CcsEntry{s, a, b, 100, 1});
  tr.recvs.push_back(CcsEntry{r, a, b, 100, 1});
}

// Two independent chains of blocking MPI_Recv / MPI_Send: A = 0 -> 1 -> 2, B = 3 -> 4 -> 5 (the middle rank
// receives in its step 0 and sends on in step 1), 100 bytes per message.
inline Trace two_chains() {
  Trace tr;
  tr.path = "chains.arctrace";
  tr.nranks = 6;
  msg(tr, 0, 1, 0, 0), msg(tr, 1, 2, 1, 0);
  msg(tr, 3, 4, 0, 0), msg(tr, 4, 5, 1, 0);
  return tr;
}

// The trace's graph with the dependency levels as concurrent sets (and CommGraph::deps).
inline CommGraph by_levels(const Trace &tr) {
  arcoll::placement::CommGraphOptions o;
  o.by_levels = true;
  return build_comm_graph(tr, o);
}
}  // namespace tracefix
