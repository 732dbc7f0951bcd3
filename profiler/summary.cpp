#include "summary.hpp"

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

}  // namespace

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
     << " communication steps\n";
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

  // Arrival skew per rank.
  std::map<std::pair<uint64_t, uint64_t>, std::pair<double, int>> first;  // (comm, seq) -> (min entry, count)
  for (auto &c : t.colls) {
    auto it = first.find({c.comm_id, c.seq});
    if (it == first.end()) first.emplace(std::make_pair(c.comm_id, c.seq), std::make_pair(c.t_entry, 1));
    else {
      it->second.first = std::min(it->second.first, c.t_entry);
      it->second.second++;
    }
  }
  std::vector<double> sum(t.nranks, 0.0);
  std::vector<uint64_t> n(t.nranks, 0);
  for (auto &c : t.colls) {
    auto &f = first[{c.comm_id, c.seq}];
    if (f.second < 2 || c.rank < 0 || c.rank >= t.nranks) continue;
    sum[c.rank] += c.t_entry - f.first;
    n[c.rank]++;
  }
  std::vector<int> order;
  for (int r = 0; r < t.nranks; r++)
    if (n[r]) order.push_back(r);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return sum[a] / n[a] > sum[b] / n[b]; });
  os << "latest-arriving ranks (mean arrival skew = entry - first entry of the same collective):\n";
  for (int i = 0; i < top_n && i < int(order.size()); i++) {
    int r = order[i];
    os << "  rank " << r;
    if (!t.ranks[r].host.empty()) os << " (" << t.ranks[r].host << ")";
    os << ": mean skew " << fmt_time(sum[r] / double(n[r])) << " over " << n[r] << " calls\n";
  }
}

}  // namespace arcoll::trace
