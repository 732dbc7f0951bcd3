// The 2 hosts x 2 sockets x 4 slots machine and the interleaved rings of the socket tests.
#pragma once
#include <cstdint>
#include <vector>

#include "fixtures.hpp"

namespace socket_fixtures {
using namespace arcoll::placement;

// node01, node02 under one leaf switch; each 2 sockets x 4 slots.
inline const char *kLeaf = "SwitchName=s1 Nodes=node[01-02]\n";
inline const char *kHosts = "node01 slots=8 sockets=2\nnode02 slots=8 sockets=2\n";

// Two rings of 8 ranks, one per host, visiting 0,4,1,5,2,6,3,7 (and +8): in rank order
// (socket 0 = ranks 0-3) every ring neighbour is on the other socket. One step.
inline CommGraph interleaved_rings(uint64_t bytes) {
  const int seq[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  std::vector<Message> step;
  for (int base : {0, 8})
    for (int i = 0; i < 8; ++i) step.push_back({base + seq[i], base + seq[(i + 1) % 8], bytes});
  return fixtures::graph(16, {step});
}
}  // namespace socket_fixtures
