// Dependency levels of the messages (Lamport clock over the ranks' steps). See levels.hpp.
#include "levels.hpp"

namespace arcoll::placement {

Levels message_levels(int nranks, const std::vector<arcoll::trace::CcsEntry> &sends,
                      const std::vector<arcoll::trace::CcsEntry> &recvs, const std::vector<CollStep> &colls) {
  return message_levels(build_dep_graph(nranks, sends, recvs, colls), sends);
}

Levels message_levels(const DepGraph &g, const std::vector<arcoll::trace::CcsEntry> &sends) {
  std::vector<double> edge_w(g.edges.size()), progress_w(g.rank_nodes());
  for (std::size_t i = 0; i < g.edges.size(); ++i) edge_w[i] = g.edges[i].kind == DepKind::CollEntry ? 0.0 : 1.0;
  for (uint64_t v = 0; v < g.rank_nodes(); ++v) progress_w[v] = g.sent[v] ? 1.0 : 0.0;
  Levels out;
  out.matched = g.matched;
  const auto level = longest_paths(g, edge_w, progress_w, &out.forced);
  out.of_send.resize(sends.size());
  for (std::size_t i = 0; i < sends.size(); ++i)
    out.of_send[i] = static_cast<uint64_t>(level[g.node(sends[i].src, sends[i].step)]);
  return out;
}

}  // namespace arcoll::placement
