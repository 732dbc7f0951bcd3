// CCS -> steps + weighted rank graph. See comm_graph.hpp.
#include "comm_graph.hpp"

#include "levels.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

namespace arcoll::placement {

void finish_comm_graph(CommGraph &g) {
  struct Pair {
    uint64_t bytes = 0, msgs = 0;
  };
  std::vector<std::map<int, Pair>> adj(g.nranks);
  g.total_bytes = 0;
  for (auto &s : g.steps)
    for (auto &m : s.msgs) {
      g.total_bytes += m.bytes;
      if (m.src == m.dst) continue;
      for (auto [a, b] : {std::pair{m.src, m.dst}, std::pair{m.dst, m.src}}) {
        Pair &e = adj[a][b];
        e.bytes += m.bytes;
        ++e.msgs;
      }
    }
  g.xadj.assign(1, 0);
  g.adjncy.clear();
  g.adjwgt.clear();
  g.adjmsgs.clear();
  for (int v = 0; v < g.nranks; ++v) {
    for (auto &[u, e] : adj[v]) {
      g.adjncy.push_back(u);
      g.adjwgt.push_back(e.bytes);
      g.adjmsgs.push_back(e.msgs);
    }
    g.xadj.push_back(static_cast<int64_t>(g.adjncy.size()));
  }
}

namespace {

bool tree_like(int op) {
  return op == OP_BCAST || op == OP_REDUCE || op == OP_GATHER || op == OP_GATHERV || op == OP_SCATTER ||
         op == OP_SCATTERV;
}

// Appends the modelled steps of one collective call over `members` (comm rank -> world rank).
void model_collective(std::vector<Step> &out, uint64_t &next_id, const std::vector<int> &members, int op, int root,
                      uint64_t bytes) {
  const int p = static_cast<int>(members.size());
  if (p < 2) return;
  if (op >= OP_NEIGHBOR_ALLGATHER && op <= OP_NEIGHBOR_ALLTOALLW)
    return;  // the profiler wrote their sends to the out-neighbours into the CCS
  if (tree_like(op)) {
    int r = (root >= 0 && root < p) ? root : 0;
    // Binomial tree on relative ranks: in round k, relative rank i < 2^k sends to i + 2^k.
    for (int mask = 1; mask < p; mask <<= 1) {
      Step s{next_id++, {}};
      for (int i = 0; i < mask && i + mask < p; ++i) {
        int a = members[(i + r) % p], b = members[(i + mask + r) % p];
        bool up = (op == OP_REDUCE || op == OP_GATHER || op == OP_GATHERV);
        s.msgs.push_back(up ? Message{b, a, bytes} : Message{a, b, bytes});
      }
      out.push_back(std::move(s));
    }
  } else {
    for (int mask = 1; mask < p; mask <<= 1) {
      Step s{next_id++, {}};
      for (int i = 0; i < p; ++i) {
        int j = i ^ mask;
        if (j < p) s.msgs.push_back(Message{members[i], members[j], bytes});
      }
      out.push_back(std::move(s));
    }
  }
}

// Communicator id -> its members (comm rank -> world rank) as the trace lists them, and MPI_COMM_WORLD
// (id 0) as 0..nranks-1 when the trace does not list it.
std::map<uint64_t, std::vector<int>> comm_members(const arcoll::trace::Trace &trace, int nranks) {
  std::map<uint64_t, std::vector<int>> comms;
  for (auto &c : trace.comms) comms[c.id] = c.world_ranks;
  if (!comms.count(0)) {
    std::vector<int> world(nranks);
    for (int i = 0; i < nranks; ++i) world[i] = i;
    comms[0] = world;
  }
  return comms;
}

// The blocking collective calls in the order build_dep_graph numbers their virtual nodes (first seen in
// trace.colls), with their members, root, largest bytes and operation.
std::vector<Dependencies::Call> dependency_calls(const arcoll::trace::Trace &trace, int nranks) {
  const auto comms = comm_members(trace, nranks);
  // Each rank's first and last step with a point-to-point message (sent or received).
  std::vector<uint64_t> first(nranks, UINT64_MAX), last(nranks, 0);
  for (auto *v : {&trace.ccs, &trace.recvs})
    for (auto &e : *v) {
      const int r = v == &trace.ccs ? e.src : e.dst;
      if (e.src == e.dst || r < 0 || r >= nranks) continue;
      first[r] = std::min(first[r], e.step), last[r] = std::max(last[r], e.step);
    }
  std::map<std::pair<uint64_t, uint64_t>, std::size_t> index;
  std::vector<Dependencies::Call> calls;
  for (auto &c : trace.colls) {
    if (c.flags & ARCOLL_COLL_NONBLOCKING) continue;
    auto [it, fresh] = index.emplace(std::make_pair(c.comm_id, c.seq), calls.size());
    if (fresh) {
      Dependencies::Call call;
      auto m = comms.find(c.comm_id);
      if (m != comms.end() &&
          std::all_of(m->second.begin(), m->second.end(), [&](int r) { return r >= 0 && r < nranks; }))
        call.members = m->second;
      call.root = c.root;
      call.op = c.op;
      calls.push_back(std::move(call));
    }
    calls[it->second].bytes = std::max(calls[it->second].bytes, c.bytes);
    if (c.rank >= 0 && c.rank < nranks && first[c.rank] <= c.step && c.step < last[c.rank])
      calls[it->second].inside = true;
  }
  return calls;
}

// Dependencies::exit_member: the comm rank each CollExit edge leads to (its call's node is
// g.rank_nodes() + the call's index, its target a node of the member's own).
std::vector<int> exit_members(const DepGraph &g, const std::vector<Dependencies::Call> &calls) {
  std::vector<int> out(g.edges.size(), -1);
  std::vector<std::vector<std::size_t>> by_call(calls.size());
  for (std::size_t k = 0; k < g.edges.size(); ++k)
    if (g.edges[k].kind == DepKind::CollExit && g.edges[k].from - g.rank_nodes() < calls.size())
      by_call[g.edges[k].from - g.rank_nodes()].push_back(k);
  std::vector<int> pos(g.nranks(), -1);
  for (std::size_t c = 0; c < calls.size(); ++c) {
    const auto &m = calls[c].members;
    for (int i = 0; i < static_cast<int>(m.size()); ++i) pos[m[i]] = i;
    for (std::size_t k : by_call[c]) {
      const int r = static_cast<int>(std::upper_bound(g.base.begin(), g.base.end(), g.edges[k].to) - g.base.begin()) - 1;
      out[k] = pos[r];
    }
    for (int r : m) pos[r] = -1;
  }
  return out;
}

}  // namespace

CommGraph build_comm_graph(const arcoll::trace::Trace &trace, const CommGraphOptions &opt) {
  CommGraph g;
  g.nranks = trace.nranks;
  if (g.nranks < 1)
    throw std::invalid_argument(fmt::format("{}: the trace has {} ranks; nothing to place", trace.path, trace.nranks));
  for (auto *v : {&trace.ccs, &trace.recvs})
    for (auto &e : *v)
      if (e.src < 0 || e.src >= g.nranks || e.dst < 0 || e.dst >= g.nranks)
        throw std::invalid_argument(fmt::format(
            "{}: {} entry of step {} names rank {} -> {}, but the trace has {} ranks (valid: 0..{}); the trace is "
            "corrupt or was merged from different runs: profile again",
            trace.path, v == &trace.ccs ? "CCS" : "receive", e.step, e.src, e.dst, g.nranks, g.nranks - 1));
  // Concurrent sets: the trace's steps, or with opt.by_levels and recorded receives the dependency levels
  // (levels.hpp).
  std::vector<uint64_t> set_of;
  std::shared_ptr<Dependencies> deps;
  if (opt.by_levels && !trace.recvs.empty()) {
    std::vector<CollStep> colls;
    for (auto &c : trace.colls)
      if (!(c.flags & ARCOLL_COLL_NONBLOCKING)) colls.push_back(CollStep{c.rank, c.comm_id, c.seq, c.step});
    deps = std::make_shared<Dependencies>();
    deps->graph = build_dep_graph(g.nranks, trace.ccs, trace.recvs, colls);
    deps->msg = trace.ccs;
    deps->recv_alone.assign(deps->graph.rank_nodes(), 0);
    for (const auto &e : trace.recvs)
      if (e.blocking > 0) deps->recv_alone[deps->graph.node(e.dst, e.step)] = 1;
    deps->calls = dependency_calls(trace, g.nranks);
    deps->exit_member = exit_members(deps->graph, deps->calls);
    Levels lv = message_levels(deps->graph, trace.ccs);
    set_of = std::move(lv.of_send);
    g.by_levels = true;
    g.levels_forced = lv.forced;
  }
  std::map<uint64_t, std::map<std::pair<int, int>, uint64_t>> by_step;
  for (std::size_t i = 0; i < trace.ccs.size(); ++i) {
    const auto &e = trace.ccs[i];
    if (e.src == e.dst) continue;
    by_step[set_of.empty() ? e.step : set_of[i]][{e.src, e.dst}] += e.bytes;
  }
  uint64_t last = 0;
  for (auto &[id, msgs] : by_step) {
    Step s{id, {}};
    for (auto &[k, b] : msgs) s.msgs.push_back(Message{k.first, k.second, b});
    g.steps.push_back(std::move(s));
    last = id + 1;
  }
  if (deps) {  // each send's set: the index of its level among the steps
    deps->set.assign(trace.ccs.size(), Dependencies::kNoSet);
    std::size_t k = 0;
    std::vector<std::size_t> idx(trace.ccs.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return set_of[a] < set_of[b]; });
    for (std::size_t i : idx) {
      if (trace.ccs[i].src == trace.ccs[i].dst) continue;
      while (g.steps[k].id < set_of[i]) ++k;
      deps->set[i] = static_cast<uint32_t>(k);
    }
    g.deps = deps;
  }
  if (opt.with_collectives) {
    // Group the calls by (comm, seq); take the maximum bytes over ranks.
    std::map<std::pair<uint64_t, uint64_t>, std::tuple<int, int, uint64_t>> calls;
    for (auto &c : trace.colls) {
      auto &t = calls[{c.comm_id, c.seq}];
      std::get<0>(t) = c.op;
      std::get<1>(t) = c.root;
      std::get<2>(t) = std::max(std::get<2>(t), c.bytes);
    }
    const auto comms = comm_members(trace, g.nranks);
    for (auto &[key, t] : calls) {
      auto it = comms.find(key.first);
      if (it == comms.end()) continue;
      for (int r : it->second)
        if (r < 0 || r >= g.nranks)
          throw std::invalid_argument(fmt::format("{}: communicator {} names rank {} but the trace has {} ranks",
                                                  trace.path, key.first, r, g.nranks));
      model_collective(g.steps, last, it->second, std::get<0>(t), std::get<1>(t), std::get<2>(t));
    }
  }
  finish_comm_graph(g);
  return g;
}

}  // namespace arcoll::placement
