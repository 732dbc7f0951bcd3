/**
 * @file advice.hpp
 * @brief Barrier-separation advice between consecutive CCSs (seed 001).
 *
 * Seed 001_6a837e3d9ad6c429.txt: CCSs of different steps can overlap at run
 * time and collide unexpectedly; the authors separated them with
 * MPI_Barrier, which costs time for small messages. arcoll only ADVISES
 * (it never inserts barriers). For each step t < N-1 and the mapping pi:
 *  - shared_links: directed network or node-internal links used by messages
 *    of both CCS_t and CCS_{t+1} (0 = overlapping cannot collide);
 *  - overlap_s: the time of CCS_t u CCS_{t+1} evaluated as one step with
 *    the seed-001 formula (cost.hpp), i.e. if the two steps ran fully
 *    overlapped; penalty_s = overlap_s - max(T_t, T_{t+1}) = the time the
 *    collisions add to a collision-free overlap (seconds, >= 0 up to rounding);
 *  - barrier_s: the estimated cost of one barrier = ceil(log2 P) x the largest
 *    route latency among the step's messages (dissemination barrier,
 *    zero-byte messages), seconds;
 *  - barrier_advised = shared_links > 0 && penalty_s > barrier_s.
 */
#ifndef ARCOLL_PLACEMENT_ADVICE_HPP
#define ARCOLL_PLACEMENT_ADVICE_HPP

#include <vector>

#include "comm_graph.hpp"
#include "cost.hpp"
#include "topology.hpp"

namespace arcoll::placement {

struct StepAdvice {
  size_t step = 0;            ///< index into g.steps (t; the pair is t, t+1)
  uint64_t id = 0, next_id = 0;  ///< trace step numbers
  int shared_links = 0;
  double time_s = 0, next_time_s = 0, overlap_s = 0, penalty_s = 0, barrier_s = 0;
  bool barrier_advised = false;
};

/** One entry per consecutive pair of steps (g.steps.size() - 1 entries). */
std::vector<StepAdvice> barrier_advice(const CommGraph &g, const Topology &topo, const Mapping &map);

}  // namespace arcoll::placement

#endif
