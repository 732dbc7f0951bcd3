// The whole-trace cause analysis (cause_analysis.hpp: analyse_causes): every
// blocking collective instance through analyse_call, the ranking per (call
// site, op, rank), first calls apart, and the propagation of inherited
// lateness back to the own delays of earlier calls.
#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "cause_analysis.hpp"

namespace arcoll::trace {

namespace {

struct Acc {
  uint64_t calls = 0, cause_calls = 0;
  double caused = 0, long_term = 0;
  std::vector<double> own, inherited, skew;
};

// Root causes of one instance: (Acc index, share), shares summing to 1.
using Dist = std::vector<std::pair<std::size_t, double>>;

// The `k` largest entries of `w` (seconds), normalised; empty when nothing.
Dist top_shares(const std::map<std::size_t, double> &w, int k) {
  Dist d(w.begin(), w.end());
  std::sort(d.begin(), d.end(), [](const auto &a, const auto &b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (d.size() > std::size_t(k)) d.resize(std::size_t(k));
  double sum = 0;
  for (auto &x : d) sum += x.second;
  if (!(sum > 0)) return {};
  for (auto &x : d) x.second /= sum;
  return d;
}

FirstCall first_call_of(const Trace &t, const BlockingInstance &in, const std::vector<CallMember> &mem,
                        const std::vector<MemberLateness> &res) {
  const auto &cs = t.colls;
  FirstCall fc;
  fc.comm_id = in.comm_id;
  fc.seq = in.seq;
  fc.members = int(in.idx.size());
  double emin = mem[0].entry, emax = mem[0].entry, rmin = 0, rmax = 0;
  bool rseen = false;
  std::size_t latest = 0;
  for (std::size_t k = 0; k < in.idx.size(); k++) {
    emin = std::min(emin, mem[k].entry);
    if (mem[k].entry > emax) emax = mem[k].entry, latest = k;
    fc.total_wait += res[k].waited;
    int r = mem[k].rank;
    if (r >= 0 && r < int(t.ranks.size()) && t.ranks[std::size_t(r)].clock.t_ready != 0) {
      double rd = t.ranks[std::size_t(r)].ready;
      rmin = rseen ? std::min(rmin, rd) : rd;
      rmax = rseen ? std::max(rmax, rd) : rd;
      rseen = true;
    }
  }
  fc.spread = emax - emin;
  fc.latest_rank = mem[latest].rank;
  fc.op = cs[in.idx[latest]].op;
  fc.callsite = cs[in.idx[latest]].callsite;
  fc.ready_spread = rmax - rmin;
  return fc;
}

}  // namespace

CauseReport analyse_causes(const Trace &t) {
  CauseReport rep;
  const auto &cs = t.colls;  // sorted by (rank, t_entry)
  std::vector<char> first;
  const std::vector<CallMember> member = call_members(t, &first);
  std::vector<BlockingInstance> inst = blocking_instances(t, first);
  // in order of the earliest entry: a rank's previous instance comes first
  std::vector<const BlockingInstance *> order;
  for (const BlockingInstance &in : inst)
    if (in.idx.size() >= 2) order.push_back(&in);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto *a, const auto *b) { return a->first_entry < b->first_entry; });

  std::map<std::tuple<std::string, int, int>, std::size_t> acc_id;
  std::vector<Acc> acc;
  std::vector<long> inst_of(cs.size(), -1);  // event -> its instance's position in `order`
  std::vector<Dist> roots(order.size());     // root causes per instance
  for (std::size_t n = 0; n < order.size(); n++) {
    const BlockingInstance &in = *order[n];
    for (std::size_t i : in.idx) inst_of[i] = long(n);
    std::vector<CallMember> mem;
    for (std::size_t i : in.idx) mem.push_back(member[i]);
    auto res = analyse_call(mem);
    if (in.has_first) {
      rep.first_calls.push_back(first_call_of(t, in, mem, res));
      continue;
    }
    rep.instances++;
    std::size_t cause = in.idx.size();
    std::map<std::size_t, double> w;  // root-cause waiting of this instance
    for (std::size_t k = 0; k < in.idx.size(); k++) {
      rep.total_wait += res[k].waited;
      rep.caused_wait += res[k].caused;
      if (res[k].caused > 0 && (cause == in.idx.size() || res[k].caused > res[cause].caused)) cause = k;
    }
    for (std::size_t k = 0; k < in.idx.size(); k++) {
      const std::size_t i = in.idx[k];
      const CollEvent &e = cs[i];
      auto [it, fresh] = acc_id.try_emplace({e.callsite, e.op, e.rank}, acc.size());
      if (fresh) acc.emplace_back();
      Acc &a = acc[it->second];
      a.calls++;
      a.cause_calls += k == cause ? 1 : 0;
      a.caused += res[k].caused;
      a.own.push_back(res[k].own);
      a.inherited.push_back(res[k].inherited);
      a.skew.push_back(res[k].skew);
      if (res[k].caused > 0) w[it->second] += res[k].caused;
      // inherited waiting: through the root causes of the rank's previous
      // blocking instance (already done: it started earlier)
      const long prev = i > 0 && !first[i] ? inst_of[i - 1] : -1;
      if (res[k].inherited_caused > 0 && prev >= 0 && std::size_t(prev) < n)
        for (auto &[id, share] : roots[std::size_t(prev)]) {
          w[id] += res[k].inherited_caused * share;
          rep.propagated_wait += res[k].inherited_caused * share;
        }
    }
    for (auto &[id, sec] : w) acc[id].long_term += sec;
    roots[n] = top_shares(w, ARCOLL_CAUSE_TOP_K);
  }
  std::sort(rep.first_calls.begin(), rep.first_calls.end(), [](const FirstCall &a, const FirstCall &b) {
    return a.comm_id != b.comm_id ? a.comm_id < b.comm_id : a.seq < b.seq;
  });
  for (auto &[key, id] : acc_id) {
    Acc &a = acc[id];
    SiteRankCause s;
    s.callsite = std::get<0>(key);
    s.op = std::get<1>(key);
    s.rank = std::get<2>(key);
    s.calls = a.calls;
    s.cause_calls = a.cause_calls;
    s.caused = a.caused;
    s.caused_long_term = a.long_term;
    s.own_median = lower_median(std::move(a.own));
    s.inherited_median = lower_median(std::move(a.inherited));
    s.skew_median = lower_median(std::move(a.skew));
    rep.ranking.push_back(std::move(s));
  }
  std::stable_sort(rep.ranking.begin(), rep.ranking.end(), [](const SiteRankCause &a, const SiteRankCause &b) {
    if (a.caused != b.caused) return a.caused > b.caused;
    return a.rank < b.rank;
  });
  return rep;
}

}  // namespace arcoll::trace
