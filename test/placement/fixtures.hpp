// Small topologies and graphs shared by the placement tests.
#pragma once
#include <random>
#include <string>
#include <vector>

#include "comm_graph.hpp"
#include "critical_path.hpp"
#include "place.hpp"
#include "step_cost.hpp"
#include "topology.hpp"

namespace fixtures {
using namespace arcoll::placement;

// Parameters with round numbers so that costs can be computed by hand.
inline TopologyParams round_params() {
  TopologyParams p;
  p.intra = {1e-7, 1e10};
  p.node_leaf = {1e-6, 1e9};
  p.switch_switch = {2e-6, 0.5e9};
  p.linkspeed_gbps = 1.0;
  return p;
}

// s0 -> {s1: node01 node02, s2: node03 node04}.
inline const char *two_leaves =
    "# two leaf switches under one top switch\n"
    "SwitchName=s1 Nodes=node[01-02]\n"
    "SwitchName=s2 Nodes=node[03-04]\n"
    "SwitchName=s0 Switches=s[1-2]\n";

inline Topology make(const std::string &conf, const std::string &hostfile, int nranks,
                     const TopologyParams &p = round_params()) {
  Topology t = parse_topology_conf(conf, "topology.conf");
  attach_hosts(t, parse_hostfile(hostfile, "hosts.txt"), p, "hosts.txt", nranks);
  return t;
}

// Seconds of one message of `bytes` from rank a to rank b alone on its route under mapping m: L + S / B.
inline double msg_time(const Topology &t, const Mapping &m, int a, int b, double bytes) {
  return t.latency(m[a], m[b]) + bytes / t.bandwidth(m[a], m[b]);
}

// 8 hosts (n1..n8) x 4 slots under 2 leaves and a top switch, round_params(), count model: 32 ranks.
inline Topology eight_nodes() {
  const char *conf = "SwitchName=l1 Nodes=n[1-4]\nSwitchName=l2 Nodes=n[5-8]\nSwitchName=top Switches=l[1-2]\n";
  std::string hosts;
  for (int h = 1; h <= 8; ++h) hosts += "n" + std::to_string(h) + ":4\n";
  TopologyParams p = round_params();
  p.contention = Contention::Count;
  return make(conf, hosts, 32, p);
}

inline CommGraph graph(int nranks, std::vector<std::vector<Message>> steps) {
  CommGraph g;
  g.nranks = nranks;
  uint64_t id = 0;
  for (auto &s : steps) g.steps.push_back(Step{id++, s});
  finish_comm_graph(g);
  return g;
}

// Random steps of 1-9 messages among n ranks (1-100000 bytes), step 3 a copy of step 1, some
// ranks in most steps (test_cost_memo.cpp, test_cost_threads.cpp).
inline CommGraph random_steps(int n, int nsteps, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::vector<Message>> steps(nsteps);
  for (auto &s : steps) {
    const int k = 1 + static_cast<int>(rng() % 9);
    for (int i = 0; i < k; ++i) {
      const int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
      if (a != b) s.push_back({a, b, 1 + rng() % 100000});
    }
    if (s.empty()) s.push_back({0, 1, 64});
  }
  steps[3] = steps[1];  // a repeated step (one representative)
  return graph(n, steps);
}

// A start for the searches' tests: rank r on host r / per_host, then 40 swaps of two ranks drawn
// by std::mt19937(seed) (test_cost_memo.cpp, test_cost_threads.cpp, test_refine_budget.cpp).
inline std::vector<int> shuffled_start(int n, int per_host, uint32_t seed) {
  std::vector<int> start(n);
  std::mt19937 rng(seed);
  for (int r = 0; r < n; ++r) start[r] = r / per_host;
  for (int i = 0; i < 40; ++i) std::swap(start[rng() % n], start[rng() % n]);
  return start;
}

// eight_nodes() (8 hosts x 4 slots under two leaves) with contention model c.
inline Topology eight_nodes(Contention c) {
  Topology t = eight_nodes();
  t.contention = c;
  return t;
}
// The path opinion's score of mapping m (place.hpp PathOpinion) computed from its two critical paths, apart
// from path_agrees(): overlap^w x fluid^(1 - w).
inline double path_score_of(const CommGraph &g, const Topology &t, const Mapping &m, double w = kPathOverlapWeight) {
  return path_score(critical_path_time(g, t, m, PathContention::Overlap),
                    critical_path_time(g, t, m, PathContention::Fluid), w);
}

}  // namespace fixtures
