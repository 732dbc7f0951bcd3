// Event order and times of `arcoll export --otf2` (export_otf2_plan.hpp).
#include "export_otf2_plan.hpp"

#include <algorithm>
#include <limits>

namespace arcoll::tools::otf2_plan {

using trace::CollEvent;
using trace::Trace;

namespace {
bool blocking(const CollEvent &c) { return !(c.flags & ARCOLL_COLL_NONBLOCKING); }
}  // namespace

std::vector<std::vector<Ev>> plan(const Trace &T) {
  const int P = T.nranks;
  std::vector<std::pair<size_t, size_t>> calls(P, {0, 0});  // [first, last) in T.colls
  for (size_t i = 0; i < T.colls.size(); ++i) {
    int r = T.colls[i].rank;
    if (r < 0 || r >= P) continue;
    if (calls[r].first == calls[r].second) calls[r].first = i;
    calls[r].second = i + 1;
  }
  std::vector<std::vector<size_t>> sends(P), recvs(P);
  for (size_t j = 0; j < T.ccs.size(); ++j) {
    sends[T.ccs[j].src].push_back(j);
    recvs[T.ccs[j].dst].push_back(j);
  }
  // Bounds of ranks without calls or clock: the whole trace.
  double gmin = std::numeric_limits<double>::infinity(), gmax = -gmin;
  for (const CollEvent &c : T.colls) gmin = std::min(gmin, c.t_entry), gmax = std::max(gmax, c.t_exit);
  for (const trace::RankInfo &ri : T.ranks)
    if (ri.rank >= 0) {
      gmin = std::min(gmin, ri.clock.to_global(ri.clock.t_init));
      gmax = std::max(gmax, ri.clock.to_global(ri.clock.t_fini));
    }
  if (!(gmin <= gmax)) gmin = gmax = 0;

  std::vector<std::vector<Ev>> out(P);
  for (int r = 0; r < P; ++r) {
    const size_t c0 = calls[r].first, n = calls[r].second - c0;
    const bool has_clock = r < static_cast<int>(T.ranks.size()) && T.ranks[r].rank >= 0;
    const trace::ClockModel &ck = has_clock ? T.ranks[r].clock : trace::ClockModel{};
    double S = has_clock ? ck.to_global(ck.t_init) : gmin;
    double E = has_clock && ck.t_fini > ck.t_init ? ck.to_global(ck.t_fini) : gmax;
    if (n) S = std::min(S, T.colls[c0].t_entry), E = std::max(E, T.colls[c0 + n - 1].t_exit);
    E = std::max(E, S);

    // Steps this rank sent or received in, and their time windows.
    std::vector<uint64_t> steps;
    for (size_t j : sends[r]) steps.push_back(T.ccs[j].step);
    for (size_t j : recvs[r]) steps.push_back(T.ccs[j].step);
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    struct Window {
      double begin = 0, end = 0;
      size_t begin_gap = 0, end_gap = 0;
      bool set = false;
    };
    std::vector<Window> win(steps.size());
    // Gap g lies before call g (g == n: after the last call) and holds the steps lo..hi.
    for (size_t g = 0; g <= n; ++g) {
      const CollEvent *prev = g ? &T.colls[c0 + g - 1] : nullptr, *next = g < n ? &T.colls[c0 + g] : nullptr;
      double a = prev ? prev->t_exit : S, b = next ? next->t_entry : E;
      uint64_t lo = prev ? prev->step + (blocking(*prev) ? 1 : 0) : 0;
      uint64_t hi = next ? next->step : std::max(lo, steps.empty() ? lo : steps.back());
      if (hi < lo) continue;  // inconsistent steps: nothing lies here
      const double width = (b - a) / (static_cast<double>(hi - lo) + 1.0);
      for (size_t k = std::lower_bound(steps.begin(), steps.end(), lo) - steps.begin();
           k < steps.size() && steps[k] <= hi; ++k) {
        const double off = static_cast<double>(steps[k] - lo);
        Window &w = win[k];
        if (!w.set) w.begin = a + width * off, w.begin_gap = g, w.set = true;
        w.end = a + width * (off + 1), w.end_gap = g;  // a step spanning a nonblocking start ends in a later gap
      }
    }
    for (Window &w : win)
      if (!w.set) w = Window{E, E, n, n, true};  // step outside this rank's recorded steps: at its end

    struct P2p {
      size_t gap;
      double t;
      uint64_t step;
      Kind kind;
      size_t idx;
    };
    std::vector<P2p> p2p;
    auto window = [&](uint64_t s) -> const Window & {
      return win[std::lower_bound(steps.begin(), steps.end(), s) - steps.begin()];
    };
    for (size_t j : sends[r]) {
      const Window &w = window(T.ccs[j].step);
      p2p.push_back({w.begin_gap, w.begin, T.ccs[j].step, Kind::Send, j});
    }
    for (size_t j : recvs[r]) {
      const Window &w = window(T.ccs[j].step);
      p2p.push_back({w.end_gap, w.end, T.ccs[j].step, Kind::Recv, j});
    }
    std::sort(p2p.begin(), p2p.end(), [](const P2p &x, const P2p &y) {
      if (x.gap != y.gap) return x.gap < y.gap;
      if (x.t != y.t) return x.t < y.t;
      if (x.step != y.step) return x.step < y.step;
      if (x.kind != y.kind) return x.kind == Kind::Send;
      return x.idx < y.idx;
    });

    std::vector<Ev> &ev = out[r];
    size_t k = 0;
    for (size_t g = 0; g <= n; ++g) {
      for (; k < p2p.size() && p2p[k].gap == g; ++k) ev.push_back({p2p[k].t, p2p[k].kind, p2p[k].idx});
      if (g == n) break;
      const CollEvent &c = T.colls[c0 + g];
      ev.push_back({c.t_entry, Kind::Enter, c0 + g});
      if (blocking(c)) {
        ev.push_back({c.t_entry, Kind::CollBegin, c0 + g});
        ev.push_back({c.t_exit, Kind::CollEnd, c0 + g});
      }
      ev.push_back({c.t_exit, Kind::Leave, c0 + g});
    }
  }
  return out;
}

}  // namespace arcoll::tools::otf2_plan
