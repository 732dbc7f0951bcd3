// Per-rank replay schedule of a recorded trace, with its deadlock guard. See replay_plan.hpp.
#include "replay_plan.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "trace_format.h"

namespace arcoll::replay {

using arcoll::trace::CcsEntry;
using arcoll::trace::CollEvent;
using arcoll::trace::Trace;

namespace {

uint64_t pair_key(int src, int dst) { return (uint64_t(uint32_t(src)) << 32) | uint32_t(dst); }

bool is_neighbourhood(int op) { return op >= OP_NEIGHBOR_ALLGATHER && op < OP_COUNT_; }

// Comm index per trace comm id; -1 for a communicator that cannot be replayed.
std::map<uint64_t, int> index_comms(const Trace &t, ReplayPlan &plan) {
  std::map<uint64_t, int> idx;
  std::vector<int> world(t.nranks);
  for (int r = 0; r < t.nranks; ++r) world[r] = r;
  plan.comms.push_back(world);
  idx[0] = 0;
  for (auto &c : t.comms) {
    if (c.id == 0) continue;
    bool ok = !c.world_ranks.empty();
    for (int w : c.world_ranks) ok = ok && w >= 0 && w < t.nranks;
    idx[c.id] = ok ? int(plan.comms.size()) : -1;
    if (ok) plan.comms.push_back(c.world_ranks);
  }
  return idx;
}

// The replayed call of one collective instance (its members' events), or op = -1 when it is skipped.
Coll call_args(const std::vector<const CollEvent *> &ev, int comm, const std::vector<int> &members) {
  Coll c{ev[0]->op, comm, ev[0]->root, 0, {}};
  const int op = c.op;
  auto member = [&](const CollEvent *e) { return std::find(members.begin(), members.end(), e->rank) != members.end(); };
  if (comm < 0 || is_neighbourhood(op) || c.root < -1 || ev.size() != members.size() ||
      !std::all_of(ev.begin(), ev.end(), member))
    return Coll{-1, -1, -1, 0, {}};
  const uint64_t size = members.size();
  uint64_t most = 0;
  for (auto *e : ev) most = std::max(most, e->bytes);
  switch (op) {
    case OP_GATHERV: case OP_SCATTERV: case OP_ALLGATHERV: {
      c.per_rank.assign(size, 0);
      for (auto *e : ev) {
        auto it = std::find(members.begin(), members.end(), e->rank);
        c.per_rank[it - members.begin()] = e->bytes;
      }
      break;
    }
    case OP_ALLTOALL: case OP_ALLTOALLV: case OP_ALLTOALLW: case OP_REDUCE_SCATTER_BLOCK:
      c.bytes = most / size;
      break;
    case OP_REDUCE_SCATTER:
      c.bytes = (most + size - 1) / size;
      break;
    default:
      c.bytes = most;
  }
  if (op == OP_ALLTOALLV || op == OP_ALLTOALLW) c.op = OP_ALLTOALL;
  if (op == OP_REDUCE_SCATTER) c.op = OP_REDUCE_SCATTER_BLOCK;
  return c;
}

StepOps &at(std::map<uint64_t, StepOps> &m, uint64_t step) {
  return m.try_emplace(step, StepOps{step, {}, {}, {}}).first->second;
}

// The abstract execution of replay_plan.hpp: defers the receives that would deadlock.
class Checker {
 public:
  explicit Checker(ReplayPlan &p) : p_(p), pos_(p.nranks, 0), phase_(p.nranks, 0) {
    // Receive k_end per receive entry: cumulative messages of the pair in program order.
    std::unordered_map<uint64_t, uint64_t> cum;
    need_.resize(p.nranks);
    for (int r = 0; r < p.nranks; ++r)
      for (auto &s : p.ranks[r]) {
        need_[r].emplace_back();
        for (auto &m : s.recvs) need_[r].back().push_back(cum[pair_key(m.peer, r)] += m.count);
      }
  }

  void run() {
    for (;;) {
      bool progress = false, done = true;
      for (int r = 0; r < p_.nranks; ++r) {
        while (advance(r)) progress = true;
        done = done && pos_[r] == p_.ranks[r].size();
      }
      if (done) return;
      if (!progress) unstick();
    }
  }

 private:
  // Receive entry i of rank r's current step waits and its k-th message is not posted yet.
  bool unmet(int r, size_t i) {
    const P2p &m = p_.ranks[r][pos_[r]].recvs[i];
    return !m.deferred && posted_[pair_key(m.peer, r)] < need_[r][pos_[r]][i];
  }

  // Rank r enters phase ph of its current step; a collective phase counts its arrival at the call.
  void enter(int r, int ph) {
    phase_[r] = ph;
    const StepOps &s = p_.ranks[r][pos_[r]];
    if (ph >= 1 && ph <= int(s.colls.size())) ++arrived_[s.colls[ph - 1].call];
  }

  // One phase of rank r; false when it is blocked or finished.
  bool advance(int r) {
    if (pos_[r] == p_.ranks[r].size()) return false;
    const StepOps &s = p_.ranks[r][pos_[r]];
    const int ph = phase_[r];
    if (ph == 0) {
      for (auto &m : s.sends) posted_[pair_key(r, m.peer)] += m.count;
    } else if (ph <= int(s.colls.size())) {  // collective ph - 1: go on when every member has arrived
      const Coll &c = s.colls[ph - 1];
      if (arrived_[c.call] < p_.comms[c.comm].size()) return false;
    } else {
      for (size_t i = 0; i < s.recvs.size(); ++i)
        if (unmet(r, i)) return false;
      phase_[r] = 0;
      ++pos_[r];
      return true;
    }
    enter(r, ph + 1);
    return true;
  }

  // Nothing advances: defer the unmet receives of the lowest stuck step, or fail.
  void unstick() {
    int best = -1;
    for (int r = 0; r < p_.nranks; ++r) {
      if (pos_[r] == p_.ranks[r].size() || phase_[r] <= int(p_.ranks[r][pos_[r]].colls.size())) continue;
      if (best < 0 || p_.ranks[r][pos_[r]].step < p_.ranks[best][pos_[best]].step) best = r;
    }
    if (best < 0) {
      for (int r = 0; r < p_.nranks; ++r)
        if (pos_[r] < p_.ranks[r].size()) {
          const StepOps &s = p_.ranks[r][pos_[r]];
          throw std::invalid_argument(
              "trace replay: the collectives cannot be replayed in the recorded order: rank " + std::to_string(r) +
              " waits in its step " + std::to_string(s.step) + " in a call on communicator index " +
              std::to_string(s.colls[phase_[r] - 1].comm) + " that another member never reaches");
        }
      return;
    }
    StepOps &s = p_.ranks[best][pos_[best]];
    for (size_t i = 0; i < s.recvs.size(); ++i)
      if (unmet(best, i)) {
        s.recvs[i].deferred = true;
        ++p_.deferred_recvs;
      }
  }

  ReplayPlan &p_;
  std::vector<size_t> pos_;
  std::vector<int> phase_;  // 0 post, 1..ncoll collectives, ncoll + 1 wait
  std::unordered_map<uint64_t, uint64_t> posted_;
  std::unordered_map<int, size_t> arrived_;  // call -> members that have reached it
  std::vector<std::vector<std::vector<uint64_t>>> need_;
};

}  // namespace

ReplayPlan make_replay_plan(const Trace &t) {
  ReplayPlan plan;
  plan.nranks = t.nranks;
  const std::map<uint64_t, int> comm_index = index_comms(t, plan);
  std::vector<std::map<uint64_t, StepOps>> steps(t.nranks);

  // Collectives: the members' events of each instance (comm_id, seq).
  std::map<std::pair<uint64_t, uint64_t>, std::vector<const CollEvent *>> instances;
  for (auto &e : t.colls) instances[{e.comm_id, e.seq}].push_back(&e);
  std::map<std::pair<uint64_t, uint64_t>, Coll> calls;
  for (auto &[key, ev] : instances) {
    auto ci = comm_index.find(key.first);
    const int comm = ci == comm_index.end() ? -1 : ci->second;
    static const std::vector<int> none;
    Coll c = call_args(ev, comm, comm >= 0 ? plan.comms[comm] : none);
    c.call = int(calls.size());
    calls.emplace(key, std::move(c));
  }
  for (auto &e : t.colls) {  // sorted by (rank, t_entry): entry order within a step
    const Coll &c = calls.at({e.comm_id, e.seq});
    if (c.op < 0) {
      ++plan.skipped_colls;
      continue;
    }
    at(steps[e.rank], e.step).colls.push_back(c);
    ++plan.colls;
    if (e.flags & (ARCOLL_COLL_NONBLOCKING | ARCOLL_COLL_PERSISTENT)) ++plan.nonblocking_colls;
  }

  // Point-to-point: sends from the CCS; receives from RT_RECV when every pair's counts agree.
  std::unordered_map<uint64_t, uint64_t> sent, received, max_msg;
  for (auto &e : t.ccs) {
    if (e.count == 0) continue;
    at(steps[e.src], e.step).sends.push_back(P2p{e.dst, e.count, e.bytes, false});
    sent[pair_key(e.src, e.dst)] += e.count;
    auto &mm = max_msg[pair_key(e.src, e.dst)];
    mm = std::max<uint64_t>(mm, part_bytes(e.bytes, e.count, 0));
    plan.messages += e.count;
    plan.p2p_bytes += e.bytes;
  }
  for (auto &e : t.recvs) received[pair_key(e.src, e.dst)] += e.count;
  plan.receives_from_trace = received == sent;
  for (auto &e : plan.receives_from_trace ? t.recvs : t.ccs) {
    if (e.count == 0) continue;
    at(steps[e.dst], e.step).recvs.push_back(P2p{e.src, e.count, max_msg[pair_key(e.src, e.dst)], false});
  }

  plan.ranks.resize(t.nranks);
  for (int r = 0; r < t.nranks; ++r)
    for (auto &[s, ops] : steps[r]) plan.ranks[r].push_back(std::move(ops));
  Checker(plan).run();
  return plan;
}

}  // namespace arcoll::replay
