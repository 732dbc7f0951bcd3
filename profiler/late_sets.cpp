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
  std::vector<char> first;
  const std::vector<CallMember> member = call_members(t, &first);
  std::map<Key, Acc> acc;
  for (const BlockingInstance &in : blocking_instances(t, first)) {
    const std::vector<std::size_t> &idx = in.idx;
    const CollEvent &e0 = cs[idx[0]];
    auto ci = comm.find(in.comm_id);
    if (in.has_first || idx.size() < 2 || !rooted(e0.op) || e0.root < 0 || ci == comm.end()) continue;
    const std::vector<int> &members = ci->second->world_ranks;
    const int P = int(members.size()), root = e0.root;
    if (root >= P) continue;
    std::vector<CallMember> mem;
    std::string site;
    for (std::size_t i : idx) {
      mem.push_back(member[i]);
      if (cs[i].rank == members[std::size_t(root)]) site = cs[i].callsite;
    }
    if (site.empty()) continue;
    const std::vector<MemberLateness> res = analyse_call(mem);
    Acc &a = acc[Key{e0.op, in.comm_id, root, site}];
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
