#include "summary.hpp"

#include "cause_analysis.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace arcoll::trace {

namespace {

std::string fmt_time(double s) {
  char b[64];
  double a = s < 0 ? -s : s;
  if (a >= 1) std::snprintf(b, sizeof b, "%.3f s", s);
  else if (a >= 1e-3) std::snprintf(b, sizeof b, "%.3f ms", s * 1e3);
  else std::snprintf(b, sizeof b, "%.3f us", s * 1e6);
  return b;
}

std::string fmt_bytes(uint64_t n) {
  char b[64];
  if (n >= (1ull << 30)) std::snprintf(b, sizeof b, "%.2f GiB", n / double(1ull << 30));
  else if (n >= (1ull << 20)) std::snprintf(b, sizeof b, "%.2f MiB", n / double(1ull << 20));
  else if (n >= 1024) std::snprintf(b, sizeof b, "%.2f KiB", n / 1024.0);
  else std::snprintf(b, sizeof b, "%llu B", static_cast<unsigned long long>(n));
  return b;
}

std::string rank_name(const Trace &t, int r) {
  std::string s = "rank " + std::to_string(r);
  if (r >= 0 && r < int(t.ranks.size()) && !t.ranks[std::size_t(r)].host.empty())
    s += " (" + t.ranks[std::size_t(r)].host + ")";
  return s;
}

void print_clock_and_causes(const Trace &t, std::ostream &os, int top_n) {
  ClockSyncStats cl = clock_sync_stats(t);
  if (cl.cost_init_rank >= 0) {
    os << "clock synchronisation (binomial tree, " << t.nranks << " ranks): at MPI_Init max " << fmt_time(cl.cost_init_max)
       << " (rank " << cl.cost_init_rank << "), at MPI_Finalize max " << fmt_time(cl.cost_fini_max) << " (rank "
       << cl.cost_fini_rank << "); offset error <= " << fmt_time(cl.error_max) << "\n";
  }
  CauseReport rep = analyse_causes(t);
  for (std::size_t i = 0; i < rep.first_calls.size() && int(i) < top_n; i++) {
    const FirstCall &f = rep.first_calls[i];
    os << "first collective after MPI_Init (not counted below): " << op_name(f.op) << " at " << f.callsite
       << " on " << f.members << " ranks: arrival spread " << fmt_time(f.spread) << " (last: rank " << f.latest_rank
       << "), ranks left MPI_Init within " << fmt_time(f.ready_spread) << ", waiting " << fmt_time(f.total_wait)
       << "\n";
  }
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.0f%%", rep.total_wait > 0 ? 100.0 * rep.caused_wait / rep.total_wait : 0.0);
  os << "ranks causing waiting (others' waiting attributed to the rank's own delay = its gap since its previous "
        "call beyond the median gap; per call site): "
     << fmt_time(rep.total_wait) << " waiting in " << rep.instances << " calls, " << pct
     << " of it caused by own delays";
  if (rep.propagated_wait > 0) {
    std::snprintf(pct, sizeof pct, "%.0f%%", rep.total_wait > 0 ? 100.0 * rep.propagated_wait / rep.total_wait : 0.0);
    os << ", " << pct << " more traced back to own delays of earlier calls through inherited lateness";
  }
  os << "\n";
  int shown = 0;
  for (const SiteRankCause &s : rep.ranking) {
    if (shown >= top_n || s.caused <= 0) break;
    char share[32];
    std::snprintf(share, sizeof share, "%.0f%%", 100.0 * double(s.cause_calls) / double(s.calls));
    os << "  " << (++shown) << ". " << rank_name(t, s.rank) << " at " << op_name(s.op) << " " << s.callsite
       << ": caused " << fmt_time(s.caused) << " of waiting in " << s.calls << " calls; own delay median "
       << fmt_time(s.own_median) << ", the cause in " << share << " of calls, inherited lateness median "
       << fmt_time(s.inherited_median);
    if (s.caused_long_term > s.caused * 1.005)
      os << "; with the waiting it propagated into later calls " << fmt_time(s.caused_long_term);
    os << "\n";
  }
  if (shown == 0) os << "  (no rank's own delay made others wait)\n";

  // A late rank nobody waits for (a leaf of a broadcast tree) causes no
  // waiting but is still late: list the largest own delays too.
  std::vector<const SiteRankCause *> by_own;
  for (const SiteRankCause &s : rep.ranking)
    if (s.own_median > 0) by_own.push_back(&s);
  std::stable_sort(by_own.begin(), by_own.end(),
                   [](const SiteRankCause *a, const SiteRankCause *b) { return a->own_median > b->own_median; });
  os << "largest own delays (median gap beyond the others', whether or not anyone waited):\n";
  for (int i = 0; i < top_n && i < int(by_own.size()); i++) {
    const SiteRankCause &s = *by_own[std::size_t(i)];
    os << "  " << rank_name(t, s.rank) << " at " << op_name(s.op) << " " << s.callsite << ": own delay median "
       << fmt_time(s.own_median) << " over " << s.calls << " calls, caused " << fmt_time(s.caused) << " of waiting\n";
  }
  if (by_own.empty()) os << "  (none)\n";
}

}  // namespace

ClockSyncStats clock_sync_stats(const Trace &t) {
  ClockSyncStats st;
  for (const RankInfo &r : t.ranks) {
    const ClockModel &c = r.clock;
    if (r.rank < 0 || (c.t_ready == 0 && c.cost_init == 0)) continue;
    if (st.cost_init_rank < 0 || c.cost_init > st.cost_init_max) st.cost_init_max = c.cost_init, st.cost_init_rank = r.rank;
    if (st.cost_fini_rank < 0 || c.cost_fini > st.cost_fini_max) st.cost_fini_max = c.cost_fini, st.cost_fini_rank = r.rank;
    st.error_max = std::max(st.error_max, 0.5 * std::max(c.rtt_init, c.rtt_fini));
  }
  return st;
}

void print_summary(const Trace &t, std::ostream &os, int top_n) {
  uint64_t coll_bytes = 0, p2p_bytes = 0, p2p_msgs = 0, max_step = 0;
  int incomplete = 0;
  for (auto &r : t.ranks) incomplete += r.complete ? 0 : 1;
  for (auto &c : t.colls) {
    coll_bytes += c.bytes;
    max_step = std::max(max_step, c.step);
  }
  std::set<uint64_t> steps;
  for (auto &c : t.ccs) {
    p2p_bytes += c.bytes;
    p2p_msgs += c.count;
    steps.insert(c.step);
  }
  os << "trace " << t.path << ": " << t.nranks << " ranks";
  if (incomplete) os << " (" << incomplete << " with incomplete sections)";
  os << ", " << t.colls.size() << " collective calls (" << fmt_bytes(coll_bytes) << "), " << p2p_msgs
     << " point-to-point messages (" << fmt_bytes(p2p_bytes) << ") in " << steps.size()
     << " communication steps";
  if (!t.recvs.empty()) {  // RT_RECV (traces recorded since 27 Nov 2026)
    uint64_t n = 0;
    for (auto &c : t.recvs) n += c.count;
    os << "; " << n << " receives recorded";
  }
  os << "\n";
  if (top_n <= 0 || t.colls.empty()) return;

  // Call sites by total waiting time.
  struct Site { double total = 0; uint64_t calls = 0; uint64_t bytes = 0; };
  std::map<std::pair<std::string, int>, Site> sites;
  for (auto &c : t.colls) {
    Site &s = sites[{c.callsite, c.op}];
    s.total += c.t_exit - c.t_entry;
    s.calls++;
    s.bytes += c.bytes;
  }
  std::vector<std::pair<std::pair<std::string, int>, Site>> sv(sites.begin(), sites.end());
  std::sort(sv.begin(), sv.end(), [](auto &a, auto &b) { return a.second.total > b.second.total; });
  os << "top call sites by total waiting time (sum over ranks of exit - entry):\n";
  for (int i = 0; i < top_n && i < int(sv.size()); i++) {
    auto &s = sv[i];
    os << "  " << (i + 1) << ". " << op_name(s.first.second) << " at " << s.first.first << ": "
       << fmt_time(s.second.total) << " in " << s.second.calls << " calls (mean "
       << fmt_time(s.second.total / double(s.second.calls)) << ", " << fmt_bytes(s.second.bytes) << ")\n";
  }

  print_clock_and_causes(t, os, top_n);
}

}  // namespace arcoll::trace
