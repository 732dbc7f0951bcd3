#include "cause_analysis.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace arcoll::trace {

double lower_median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  auto mid = v.begin() + std::ptrdiff_t((v.size() - 1) / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

std::vector<MemberLateness> analyse_call(const std::vector<CallMember> &m) {
  const std::size_t n = m.size();
  std::vector<MemberLateness> out(n);
  if (n == 0) return out;
  double emin = m[0].entry, elast = m[0].entry;
  std::vector<double> gaps;
  for (auto &c : m) {
    emin = std::min(emin, c.entry);
    elast = std::max(elast, c.entry);
    if (c.has_prev) gaps.push_back(c.entry - c.prev_exit);
  }
  const double G = lower_median(gaps);

  // Sweep events: waiting ranks (A) and ranks inside their own delay (D).
  struct Ev {
    double t;
    int dA, dD;
    int q;     // member index for a query, else -1
    int kind;  // 1: start of q's own delay, 2: its end
  };
  std::vector<Ev> ev;
  ev.reserve(4 * n);
  for (std::size_t i = 0; i < n; i++) {
    const CallMember &c = m[i];
    MemberLateness &o = out[i];
    o.rank = c.rank;
    o.skew = c.entry - emin;
    o.gap = c.has_prev ? c.entry - c.prev_exit : 0.0;
    o.own = c.has_prev ? std::max(0.0, o.gap - G) : 0.0;
    o.inherited = o.skew - o.own;
    const double stop = std::min(c.exit, elast);
    o.waited = std::max(0.0, stop - c.entry);
    if (o.waited > 0) {
      ev.push_back({c.entry, +1, 0, -1, 0});
      ev.push_back({stop, -1, 0, -1, 0});
    }
    if (o.own > 0) {
      ev.push_back({c.entry - o.own, 0, +1, int(i), 1});
      ev.push_back({c.entry, 0, -1, int(i), 2});
    }
  }
  std::sort(ev.begin(), ev.end(), [](const Ev &a, const Ev &b) { return a.t < b.t; });
  std::vector<double> f_start(n, 0.0);
  double F = 0, cur = ev.empty() ? 0.0 : ev[0].t;
  long A = 0, D = 0;
  for (const Ev &e : ev) {
    if (e.t > cur && A > 0 && D > 0) F += (e.t - cur) * double(A) / double(D);
    cur = e.t;
    A += e.dA;
    D += e.dD;
    if (e.kind == 1) f_start[std::size_t(e.q)] = F;
    if (e.kind == 2) out[std::size_t(e.q)].caused = F - f_start[std::size_t(e.q)];
  }
  return out;
}

namespace {

struct Acc {
  uint64_t calls = 0, cause_calls = 0;
  double caused = 0;
  std::vector<double> own, inherited, skew;
};

}  // namespace

CauseReport analyse_causes(const Trace &t) {
  CauseReport rep;
  const auto &cs = t.colls;  // sorted by (rank, t_entry)
  std::vector<CallMember> member(cs.size());
  std::vector<char> first(cs.size(), 0);
  for (std::size_t i = 0; i < cs.size(); i++) {
    const CollEvent &e = cs[i];
    CallMember &c = member[i];
    c.rank = e.rank;
    c.entry = e.t_entry;
    c.exit = e.t_exit;
    if (i > 0 && cs[i - 1].rank == e.rank) {
      c.prev_exit = cs[i - 1].t_exit;
      c.has_prev = true;
    } else {
      first[i] = 1;
      if (e.rank >= 0 && e.rank < int(t.ranks.size()) && t.ranks[std::size_t(e.rank)].clock.t_ready != 0) {
        c.prev_exit = t.ranks[std::size_t(e.rank)].ready;
        c.has_prev = true;
      }
    }
  }
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::size_t>> inst;
  for (std::size_t i = 0; i < cs.size(); i++)
    if ((cs[i].flags & ARCOLL_COLL_NONBLOCKING) == 0) inst[{cs[i].comm_id, cs[i].seq}].push_back(i);

  std::map<std::tuple<std::string, int, int>, Acc> acc;
  for (auto &[key, idx] : inst) {
    if (idx.size() < 2) continue;
    std::vector<CallMember> mem;
    bool has_first = false;
    for (std::size_t i : idx) {
      mem.push_back(member[i]);
      has_first = has_first || first[i];
    }
    auto res = analyse_call(mem);
    if (has_first) {
      FirstCall fc;
      fc.comm_id = key.first;
      fc.seq = key.second;
      fc.members = int(idx.size());
      double emin = mem[0].entry, emax = mem[0].entry, rmin = 0, rmax = 0;
      bool rseen = false;
      std::size_t latest = 0;
      for (std::size_t k = 0; k < idx.size(); k++) {
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
      fc.op = cs[idx[latest]].op;
      fc.callsite = cs[idx[latest]].callsite;
      fc.ready_spread = rmax - rmin;
      rep.first_calls.push_back(fc);
      continue;
    }
    rep.instances++;
    std::size_t cause = idx.size();
    for (std::size_t k = 0; k < idx.size(); k++) {
      rep.total_wait += res[k].waited;
      rep.caused_wait += res[k].caused;
      if (res[k].caused > 0 && (cause == idx.size() || res[k].caused > res[cause].caused)) cause = k;
    }
    for (std::size_t k = 0; k < idx.size(); k++) {
      const CollEvent &e = cs[idx[k]];
      Acc &a = acc[{e.callsite, e.op, e.rank}];
      a.calls++;
      a.cause_calls += k == cause ? 1 : 0;
      a.caused += res[k].caused;
      a.own.push_back(res[k].own);
      a.inherited.push_back(res[k].inherited);
      a.skew.push_back(res[k].skew);
    }
  }
  for (auto &[key, a] : acc) {
    SiteRankCause s;
    s.callsite = std::get<0>(key);
    s.op = std::get<1>(key);
    s.rank = std::get<2>(key);
    s.calls = a.calls;
    s.cause_calls = a.cause_calls;
    s.caused = a.caused;
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
