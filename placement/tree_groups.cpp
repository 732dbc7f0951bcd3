// Nested groups of host entries of the switch tree. See tree_groups.hpp.
#include "tree_groups.hpp"

#include <algorithm>

namespace arcoll::placement {

TreeGroups tree_groups(const Topology &topo) {
  const int V = static_cast<int>(topo.vertices.size());
  TreeGroups G;
  G.first.assign(V, 0);
  G.count.assign(V, 0);
  G.shape.assign(V, "");
  G.kids.assign(V, {});
  std::vector<std::vector<int>> entries(V);
  for (int h = 0; h < static_cast<int>(topo.hosts.size()); ++h) entries[topo.hosts[h].vertex].push_back(h);
  // Depth first, children in file order, without recursion; shapes are built on the way back up.
  std::vector<std::pair<int, size_t>> stack{{topo.root, 0}};
  while (!stack.empty()) {
    const int v = stack.back().first;
    const size_t next = stack.back().second++;
    if (next == 0) {
      G.first[v] = static_cast<int>(G.order.size());
      G.order.insert(G.order.end(), entries[v].begin(), entries[v].end());
    }
    if (next < topo.vertices[v].children.size()) {
      stack.emplace_back(topo.vertices[v].children[next], 0);
      continue;
    }
    G.count[v] = static_cast<int>(G.order.size()) - G.first[v];
    if (!entries[v].empty()) G.shape[v] = "h" + std::to_string(entries[v].size());
    if (!topo.vertices[v].children.empty()) {
      std::string s = "(";
      for (int c : topo.vertices[v].children) s += G.shape[c];
      G.shape[v] += s + ")";
    }
    stack.pop_back();
  }
  int maxd = 0;
  for (int v = 0; v < V; ++v) maxd = std::max(maxd, topo.vertices[v].depth);
  for (int d = 1; d <= maxd; ++d) {
    std::vector<int> level, parents;
    for (int v = 0; v < V; ++v)
      if (topo.vertices[v].depth == d && G.count[v] > 0) {
        level.push_back(v);
        parents.push_back(topo.vertices[v].parent);
        G.kids[topo.vertices[v].parent].push_back(v);
      }
    std::sort(parents.begin(), parents.end());
    if (std::unique(parents.begin(), parents.end()) - parents.begin() > 1) {
      G.depths.push_back(d);
      G.at.push_back(std::move(level));
    }
  }
  return G;
}

int lca_depth(const Topology &topo, int a, int b) {
  while (a != b) {
    if (topo.vertices[a].depth < topo.vertices[b].depth) std::swap(a, b);
    a = topo.vertices[a].parent;
  }
  return topo.vertices[a].depth;
}

}  // namespace arcoll::placement
