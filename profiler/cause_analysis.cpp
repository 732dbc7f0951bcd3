#include "cause_analysis.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace arcoll::trace {

std::vector<CallMember> call_members(const Trace &t, std::vector<char> *first) {
  const auto &cs = t.colls;
  std::vector<CallMember> member(cs.size());
  first->assign(cs.size(), 0);
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
      (*first)[i] = 1;
      if (e.rank >= 0 && e.rank < int(t.ranks.size()) && t.ranks[std::size_t(e.rank)].clock.t_ready != 0) {
        c.prev_exit = t.ranks[std::size_t(e.rank)].ready;
        c.has_prev = true;
      }
    }
  }
  return member;
}

std::vector<BlockingInstance> blocking_instances(const Trace &t, const std::vector<char> &first) {
  const auto &cs = t.colls;
  std::map<std::pair<uint64_t, uint64_t>, BlockingInstance> inst;
  for (std::size_t i = 0; i < cs.size(); i++)
    if ((cs[i].flags & ARCOLL_COLL_NONBLOCKING) == 0) {
      BlockingInstance &in = inst[{cs[i].comm_id, cs[i].seq}];
      in.first_entry = in.idx.empty() ? cs[i].t_entry : std::min(in.first_entry, cs[i].t_entry);
      in.idx.push_back(i);
      in.has_first = in.has_first || first[i];
    }
  std::vector<BlockingInstance> out;
  out.reserve(inst.size());
  for (auto &[key, in] : inst) {
    in.comm_id = key.first, in.seq = key.second;
    out.push_back(std::move(in));
  }
  return out;
}

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

  // Sweep events: waiting ranks (A), ranks inside their own delay (D), ranks
  // inside their inherited interval (H).
  struct Ev {
    double t;
    int dA, dD, dH;
    int q;     // member index for a query, else -1
    int kind;  // 1 / 2: start / end of q's own delay; 3 / 4: of its inherited interval
  };
  std::vector<Ev> ev;
  ev.reserve(6 * n);
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
      ev.push_back({c.entry, +1, 0, 0, -1, 0});
      ev.push_back({stop, -1, 0, 0, -1, 0});
    }
    if (o.own > 0) {
      ev.push_back({c.entry - o.own, 0, +1, 0, int(i), 1});
      ev.push_back({c.entry, 0, -1, 0, int(i), 2});
    }
    if (o.inherited > 0) {
      ev.push_back({emin, 0, 0, +1, int(i), 3});
      ev.push_back({c.entry - o.own, 0, 0, -1, int(i), 4});
    }
  }
  std::sort(ev.begin(), ev.end(), [](const Ev &a, const Ev &b) { return a.t < b.t; });
  // F, FH: integrals of the waiting per rank inside an own delay / per rank
  // inside an inherited interval while nobody is inside an own delay
  std::vector<double> f_start(n, 0.0), h_start(n, 0.0);
  double F = 0, FH = 0, cur = ev.empty() ? 0.0 : ev[0].t;
  long A = 0, D = 0, H = 0;
  for (const Ev &e : ev) {
    if (e.t > cur && A > 0) {
      if (D > 0) F += (e.t - cur) * double(A) / double(D);
      else if (H > 0) FH += (e.t - cur) * double(A) / double(H);
    }
    cur = e.t;
    A += e.dA;
    D += e.dD;
    H += e.dH;
    const std::size_t q = std::size_t(e.q);
    if (e.kind == 1) f_start[q] = F;
    if (e.kind == 2) out[q].caused = F - f_start[q];
    if (e.kind == 3) h_start[q] = FH;
    if (e.kind == 4) out[q].inherited_caused = FH - h_start[q];
  }
  return out;
}

}  // namespace arcoll::trace
