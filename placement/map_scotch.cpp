// Parts -> hosts with Scotch static mapping. See map_scotch.hpp.
#include "map_scotch.hpp"

#include "sockets.hpp"

#include <cstdint>
#include <cstdio>
extern "C" {
#include <scotch.h>
}

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "partition_metis.hpp"

namespace arcoll::placement {

namespace {

void check(int rc, const char *what) {
  if (rc != 0) throw std::runtime_error(fmt::format("Scotch: {} failed (code {})", what, rc));
}

// Relative cost of one link for Scotch: 10 per microsecond of latency + 1e10 / bandwidth (bytes/s).
SCOTCH_Num link_cost(const Link &l) {
  double c = l.latency_s * 1e7 + 1e10 / l.bandwidth_Bps;
  return static_cast<SCOTCH_Num>(std::max(1.0, std::round(c)));
}

struct Arch {
  SCOTCH_Arch a;
  Arch() { check(SCOTCH_archInit(&a), "SCOTCH_archInit"); }
  ~Arch() { SCOTCH_archExit(&a); }
};
struct Graph {
  SCOTCH_Graph g;
  Graph() { check(SCOTCH_graphInit(&g), "SCOTCH_graphInit"); }
  ~Graph() { SCOTCH_graphExit(&g); }
};
struct Strat {
  SCOTCH_Strat s;
  Strat() { check(SCOTCH_stratInit(&s), "SCOTCH_stratInit"); }
  ~Strat() { SCOTCH_stratExit(&s); }
};

// Hosts of the hostfile in depth-first order of the tree (children in file order).
std::vector<int> dfs_hosts(const Topology &topo) {
  std::map<int, int> host_of_vertex;
  for (size_t h = 0; h < topo.hosts.size(); ++h) host_of_vertex[topo.hosts[h].vertex] = static_cast<int>(h);
  std::vector<int> out;
  std::vector<int> stack{topo.root};
  while (!stack.empty()) {
    int v = stack.back();
    stack.pop_back();
    auto it = host_of_vertex.find(v);
    if (it != host_of_vertex.end()) out.push_back(it->second);
    const auto &ch = topo.vertices[v].children;
    for (auto c = ch.rbegin(); c != ch.rend(); ++c) stack.push_back(*c);
  }
  return out;
}

}  // namespace

ScotchResult map_scotch(const CommGraph &g, const Topology &topo, const Mapping &parts, int64_t seed) {
  if (topo.has_sockets()) {  // map onto whole hosts, then keep each rank's METIS socket where it fits
    ScotchResult r = map_scotch(g, node_topology(topo), node_mapping(parts, topo), seed);
    r.map = spread_over_sockets(r.map, topo, parts);
    return r;
  }
  const int H = static_cast<int>(topo.hosts.size());
  ScotchResult res;
  if (H <= 1 || g.adjncy.empty()) {
    res.map = parts;
    res.architecture = "none";
    repair_slots(res.map, g, topo);
    return res;
  }
  // Quotient graph of the partition.
  std::vector<SCOTCH_Num> velo(H, 0);
  std::vector<std::map<int, uint64_t>> qadj(H);
  for (int r = 0; r < g.nranks; ++r) {
    ++velo[parts[r]];
    for (int64_t e = g.xadj[r]; e < g.xadj[r + 1]; ++e) {
      int pu = parts[r], pv = parts[g.adjncy[e]];
      if (pu != pv) qadj[pu][pv] += g.adjwgt[e];
    }
  }
  uint64_t total = 0;
  for (auto &m : qadj)
    for (auto &kv : m) total += kv.second;
  double scale = total > 100000000ull ? 1e8 / static_cast<double>(total) : 1.0;
  std::vector<SCOTCH_Num> verttab{0}, edgetab, edlotab;
  for (int p = 0; p < H; ++p) {
    if (velo[p] == 0) velo[p] = 1;
    for (auto &kv : qadj[p]) {
      edgetab.push_back(kv.first);
      edlotab.push_back(static_cast<SCOTCH_Num>(std::max(1.0, std::round(kv.second * scale))));
    }
    verttab.push_back(static_cast<SCOTCH_Num>(edgetab.size()));
  }
  if (edgetab.empty()) {  // all traffic already inside parts: nothing to place
    res.map = parts;
    res.architecture = "none";
    repair_slots(res.map, g, topo);
    return res;
  }
  Graph src;
  check(SCOTCH_graphBuild(&src.g, 0, H, verttab.data(), nullptr, velo.data(), nullptr,
                          static_cast<SCOTCH_Num>(edgetab.size()), edgetab.data(), edlotab.data()),
        "SCOTCH_graphBuild (parts)");
  check(SCOTCH_graphCheck(&src.g), "SCOTCH_graphCheck (parts)");

  bool same_slots = std::all_of(topo.hosts.begin(), topo.hosts.end(),
                                [&](const Host &h) { return h.slots == topo.hosts[0].slots; });
  Arch arch;
  std::vector<int> term_host(H);  // Scotch terminal number -> host index
  Graph tgt;                      // must outlive archBuild2 use
  std::vector<SCOTCH_Num> tverttab, tvelotab, tedgetab, tedlotab;
  if (topo.homogeneous() && same_slots) {
    std::vector<int> fan = topo.fanouts();
    std::vector<int> order = dfs_hosts(topo);
    // Depth of the hosts = number of levels; cost of the route between two
    // hosts whose lowest common switch is at depth k.
    const int D = static_cast<int>(fan.size());
    std::vector<SCOTCH_Num> sizetab(fan.begin(), fan.end()), linktab(D, 0);
    int h0 = order[0];
    // Walk up from host h0: the link at depth d (child depth) costs link_cost(up link).
    std::vector<SCOTCH_Num> cost_at_depth(D + 1, 0);
    for (int v = topo.hosts[h0].vertex; topo.vertices[v].parent >= 0; v = topo.vertices[v].parent)
      cost_at_depth[topo.vertices[v].depth] = link_cost(topo.links[topo.up_link(v)]);
    for (int k = 0; k < D; ++k) {
      SCOTCH_Num c = 0;
      for (int d = k + 1; d <= D; ++d) c += 2 * cost_at_depth[d];
      linktab[k] = std::max<SCOTCH_Num>(1, c);
    }
    check(SCOTCH_archTleaf(&arch.a, D, sizetab.data(), linktab.data()), "SCOTCH_archTleaf");
    for (int i = 0; i < H; ++i) term_host[i] = order[i];
    res.architecture = "tleaf";
  } else {
    // Vertices: hosts 0..H-1 (host index order), then the switches on the way to them.
    std::vector<int> tid(topo.vertices.size(), -1);
    std::vector<int> tv;
    for (int h = 0; h < H; ++h) { tid[topo.hosts[h].vertex] = h; tv.push_back(topo.hosts[h].vertex); }
    for (int h = 0; h < H; ++h)
      for (int v = topo.vertices[topo.hosts[h].vertex].parent; v >= 0 && tid[v] < 0; v = topo.vertices[v].parent) {
        tid[v] = static_cast<int>(tv.size());
        tv.push_back(v);
      }
    tverttab.push_back(0);
    for (size_t i = 0; i < tv.size(); ++i) {
      int v = tv[i];
      const Vertex &x = topo.vertices[v];
      tvelotab.push_back(x.is_host ? topo.hosts[i].slots : 1);
      if (x.parent >= 0) {
        tedgetab.push_back(tid[x.parent]);
        tedlotab.push_back(link_cost(topo.links[topo.up_link(v)]));
      }
      for (int c : x.children)
        if (tid[c] >= 0) {
          tedgetab.push_back(tid[c]);
          tedlotab.push_back(link_cost(topo.links[topo.up_link(c)]));
        }
      tverttab.push_back(static_cast<SCOTCH_Num>(tedgetab.size()));
    }
    check(SCOTCH_graphBuild(&tgt.g, 0, static_cast<SCOTCH_Num>(tv.size()), tverttab.data(), nullptr,
                            tvelotab.data(), nullptr, static_cast<SCOTCH_Num>(tedgetab.size()), tedgetab.data(),
                            tedlotab.data()),
          "SCOTCH_graphBuild (tree)");
    check(SCOTCH_graphCheck(&tgt.g), "SCOTCH_graphCheck (tree)");
    std::vector<SCOTCH_Num> list(H);
    for (int h = 0; h < H; ++h) list[h] = h;
    check(SCOTCH_archBuild2(&arch.a, &tgt.g, H, list.data()), "SCOTCH_archBuild2");
    for (int i = 0; i < H; ++i) term_host[i] = i;
    res.architecture = "deco";
  }
  SCOTCH_randomSeed(static_cast<SCOTCH_Num>(seed & 0x7fffffff));
  SCOTCH_randomReset();
  Strat strat;
  check(SCOTCH_stratGraphMapBuild(&strat.s, SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE, H, 0.0),
        "SCOTCH_stratGraphMapBuild");
  std::vector<SCOTCH_Num> term(H, 0);
  check(SCOTCH_graphMap(&src.g, &arch.a, &strat.s, term.data()), "SCOTCH_graphMap");
  res.map.resize(g.nranks);
  for (int r = 0; r < g.nranks; ++r) {
    SCOTCH_Num t = term[parts[r]];
    if (t < 0 || t >= H) throw std::runtime_error(fmt::format("Scotch returned terminal {} outside 0..{}", t, H - 1));
    res.map[r] = term_host[t];
  }
  repair_slots(res.map, g, topo);
  return res;
}

}  // namespace arcoll::placement
