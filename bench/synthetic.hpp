// Synthetic machines and communication patterns for the mapping-time benchmark.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "comm_graph.hpp"
#include "topology.hpp"

namespace synth {
using namespace arcoll::placement;

/** topology.conf of a 3-level fat tree: `hosts` hosts, `per_leaf` per leaf
 *  switch, `leaves_per_pod` leaves per pod switch, one top switch. LinkSpeed
 *  (Gbit/s): leaves 100 (host links), pods and top 100 * per_leaf / 4 per
 *  uplink -> 4:1 oversubscribed uplinks. */
inline std::string fat_tree(int hosts, int per_leaf, int leaves_per_pod) {
  std::string conf;
  int leaves = (hosts + per_leaf - 1) / per_leaf, pods = (leaves + leaves_per_pod - 1) / leaves_per_pod;
  double up = 100.0 * per_leaf / 4;
  for (int l = 0; l < leaves; ++l)
    conf += fmt::format("SwitchName=leaf{} Nodes=n[{}-{}] LinkSpeed=100\n", l, l * per_leaf,
                        std::min(hosts, (l + 1) * per_leaf) - 1);
  for (int p = 0; p < pods; ++p)
    conf += fmt::format("SwitchName=pod{} Switches=leaf[{}-{}] LinkSpeed={}\n", p, p * leaves_per_pod,
                        std::min(leaves, (p + 1) * leaves_per_pod) - 1, up);
  conf += fmt::format("SwitchName=top Switches=pod[0-{}] LinkSpeed={}\n", pods - 1, up);
  return conf;
}

inline std::string hostfile(int hosts, int slots) {
  std::string h;
  for (int i = 0; i < hosts; ++i) h += fmt::format("n{}:{}\n", i, slots);
  return h;
}

/** Recursive doubling (ceil(log2 n) steps, i <-> i xor 2^k when < n) followed
 *  by a 2-D 5-point stencil on a near-square grid (4 steps: E, W, N, S). */
inline CommGraph rd_plus_stencil(int n, uint64_t rd_bytes, uint64_t halo_bytes) {
  CommGraph g;
  g.nranks = n;
  uint64_t id = 0;
  for (int mask = 1; mask < n; mask <<= 1) {
    Step s{id++, {}};
    for (int i = 0; i < n; ++i)
      if ((i ^ mask) < n) s.msgs.push_back({i, i ^ mask, rd_bytes});
    g.steps.push_back(std::move(s));
  }
  int px = static_cast<int>(std::sqrt(static_cast<double>(n)));
  while (n % px) --px;
  int py = n / px;
  const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
  for (int d = 0; d < 4; ++d) {
    Step s{id++, {}};
    for (int i = 0; i < n; ++i) {
      int x = i % px + dx[d], y = i / px + dy[d];
      if (x >= 0 && x < px && y >= 0 && y < py) s.msgs.push_back({i, y * px + x, halo_bytes});
    }
    g.steps.push_back(std::move(s));
  }
  finish_comm_graph(g);
  return g;
}

/** A right-looking LU's panel traffic on a pr x pc process grid (n = pr x pc, rank = row x pc +
 *  column), `panels` panels of a shrinking trailing matrix: per panel k, the panel column's
 *  ranks send the factored panel along their process rows (binomial-tree steps from column k % pc)
 *  and the pivot row's ranks send the U block down their process columns (from row k % pr); bytes
 *  shrink with the trailing matrix (base x (panels - k) / panels), so every panel's steps are
 *  distinct - the many distinct small steps of a ScaLAPACK LU trace
 *  (placement/notes/chooser-suite-2026-12-01-to-02.md "The refinement's work budget"). */
inline CommGraph lu_panels(int pr, int pc, int panels, uint64_t base) {
  CommGraph g;
  g.nranks = pr * pc;
  uint64_t id = 0;
  auto tree_steps = [&](int len, int from, uint64_t bytes, auto rank_of) {
    for (int mask = 1; mask < len; mask <<= 1) {  // binomial tree over the line, root `from`
      Step s{id++, {}};
      for (int v = 0; v < mask && v + mask < len; ++v)
        s.msgs.push_back({rank_of((from + v) % len), rank_of((from + v + mask) % len), bytes});
      g.steps.push_back(std::move(s));
    }
  };
  for (int k = 0; k < panels; ++k) {
    const uint64_t bytes = std::max<uint64_t>(8, base * static_cast<uint64_t>(panels - k) / panels);
    for (int row = 0; row < pr; ++row)  // the panel along each process row
      tree_steps(pc, k % pc, bytes, [&](int col) { return row * pc + col; });
    for (int col = 0; col < pc; ++col)  // the U block down each process column
      tree_steps(pr, k % pr, bytes / 2 + 1, [&](int row) { return row * pc + col; });
  }
  finish_comm_graph(g);
  return g;
}

inline Topology machine(int hosts, int slots, int per_leaf, int leaves_per_pod, int nranks) {
  Topology t = parse_topology_conf(fat_tree(hosts, per_leaf, leaves_per_pod), "synthetic.conf");
  attach_hosts(t, parse_hostfile(hostfile(hosts, slots), "synthetic.hosts"), TopologyParams{}, "synthetic.hosts",
               nranks);
  return t;
}
}  // namespace synth
