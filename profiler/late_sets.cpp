// Late ranks per rooted collective call site from a trace; see late_sets.hpp.
#include "late_sets.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>

#include "cause_analysis.hpp"
#include "trace_format.h"

namespace arcoll::trace {

namespace {

bool rooted(int op) {
  return op == OP_BCAST || op == OP_REDUCE || op == OP_GATHER || op == OP_GATHERV ||
         op == OP_SCATTER || op == OP_SCATTERV;
}

// The members' own delays per (op, comm, root, root's site): comm rank -> delays.
using Key = std::tuple<int, uint64_t, int, std::string>;
struct Acc {
  int P = 0;
  uint64_t calls = 0;
  std::vector<std::vector<double>> own;  // [comm rank]
};

}  // namespace

std::vector<LateSet> late_sets(const Trace &t, double min_late_s, int list) {
  const auto &cs = t.colls;  // sorted by (rank, t_entry)
  std::map<uint64_t, const Communicator *> comm;
  for (const Communicator &c : t.comms) comm[c.id] = &c;
  // members per instance, and whether some member makes its first call there
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::size_t>> inst;
  std::vector<char> first(cs.size(), 0);
  for (std::size_t i = 0; i < cs.size(); i++) {
    first[i] = i == 0 || cs[i - 1].rank != cs[i].rank;
    if (rooted(cs[i].op) && !(cs[i].flags & ARCOLL_COLL_NONBLOCKING) && cs[i].root >= 0)
      inst[{cs[i].comm_id, cs[i].seq}].push_back(i);
  }
  std::map<Key, Acc> acc;
  for (const auto &kv : inst) {
    const std::vector<std::size_t> &idx = kv.second;
    auto ci = comm.find(kv.first.first);
    if (idx.size() < 2 || ci == comm.end()) continue;
    const std::vector<int> &members = ci->second->world_ranks;
    const int P = int(members.size()), root = cs[idx[0]].root;
    if (root < 0 || root >= P) continue;
    bool has_first = false;
    std::vector<CallMember> mem;
    std::string site;
    for (std::size_t i : idx) {
      has_first = has_first || first[i];
      CallMember m;
      m.rank = cs[i].rank;
      m.entry = cs[i].t_entry, m.exit = cs[i].t_exit;
      m.has_prev = !first[i];
      m.prev_exit = first[i] ? 0 : cs[i - 1].t_exit;
      mem.push_back(m);
      if (cs[i].rank == members[std::size_t(root)]) site = cs[i].callsite;
    }
    if (has_first || site.empty()) continue;
    const std::vector<MemberLateness> res = analyse_call(mem);
    Acc &a = acc[Key{cs[idx[0]].op, kv.first.first, root, site}];
    if (a.own.empty()) a.P = P, a.own.resize(std::size_t(P));
    ++a.calls;
    for (std::size_t k = 0; k < res.size(); k++) {
      auto at = std::find(members.begin(), members.end(), res[k].rank);
      if (at != members.end()) a.own[std::size_t(at - members.begin())].push_back(res[k].own);
    }
  }
  std::vector<LateSet> out;
  for (const auto &kv : acc) {
    LateSet s;
    s.collective = op_name(std::get<0>(kv.first));
    s.comm_id = std::get<1>(kv.first);
    s.root = std::get<2>(kv.first);
    s.callsite = std::get<3>(kv.first);
    s.P = kv.second.P;
    s.calls = kv.second.calls;
    std::vector<LateRank> all;
    for (int r = 0; r < s.P; r++)
      if (r != s.root && !kv.second.own[std::size_t(r)].empty())
        all.push_back({r, lower_median(kv.second.own[std::size_t(r)])});
    std::stable_sort(all.begin(), all.end(), [](const LateRank &a, const LateRank &b) { return a.own > b.own; });
    s.noise = int(all.size()) > list ? all[std::size_t(list)].own : 0.0;
    const double threshold = std::max(min_late_s, 2 * s.noise);
    for (const LateRank &r : all)
      if (r.own > threshold && int(s.late.size()) < list) s.late.push_back(r);
    if (!s.late.empty()) out.push_back(std::move(s));
  }
  return out;
}

bool callsite_module_offset(const std::string &name, std::string *module, uint64_t *offset) {
  std::size_t start = 0, end = name.size();
  const std::size_t lb = name.rfind(" [");
  if (!name.empty() && name.back() == ']' && lb != std::string::npos) start = lb + 2, end = name.size() - 1;
  else if (const std::size_t sp = name.find(' '); sp != std::string::npos) end = sp;
  const std::string s = name.substr(start, end - start);
  const std::size_t plus = s.rfind("+0x");
  if (plus == std::string::npos || plus == 0 || s.compare(0, plus, "?") == 0) return false;
  char *e = nullptr;
  const unsigned long long v = std::strtoull(s.c_str() + plus + 3, &e, 16);
  if (!e || *e || e == s.c_str() + plus + 3) return false;
  *module = s.substr(0, plus);
  *offset = v;
  return true;
}

}  // namespace arcoll::trace
