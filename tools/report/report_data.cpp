// Trace -> report JSON (report_data.hpp).
#include "report_data.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "wait_cause.hpp"

namespace arcoll::report {

namespace {

using arcoll::trace::Trace;
using nlohmann::json;

/** One collective instance: (comm_id, seq) with the events of its ranks. */
struct Instance {
  std::vector<size_t> ev;   // indexes into Trace::colls
  double first = 0, last = 0;
};

/** One (call site, operation), as `arcoll summary` groups the events. A rank
 *  may reach one collective instance from another site than the other ranks
 *  (a different code path): each event counts for its own site, and a site's
 *  instances are those with at least one of its events. */
struct Site {
  std::string callsite;
  int op = 0;
  uint64_t events = 0, bytes = 0;
  double in_call = 0, arrival_wait = 0, max_skew = 0;
  std::vector<size_t> inst;  // indexes into the instance list, time order
};

json trace_json(const Trace &t, size_t ninstances) {
  uint64_t coll_bytes = 0, p2p_bytes = 0, p2p_msgs = 0;
  for (auto &c : t.colls) coll_bytes += c.bytes;
  std::set<uint64_t> steps;
  for (auto &c : t.ccs) {
    p2p_bytes += c.bytes;
    p2p_msgs += c.count;
    steps.insert(c.step);
  }
  int incomplete = 0;
  json hosts = json::array();
  for (auto &r : t.ranks) {
    incomplete += r.complete ? 0 : 1;
    hosts.push_back(r.host);
  }
  return {{"path", t.path}, {"ranks", t.nranks}, {"hosts", hosts}, {"incomplete_sections", incomplete},
          {"collective_calls", t.colls.size()}, {"collective_instances", ninstances},
          {"collective_bytes", coll_bytes}, {"p2p_messages", p2p_msgs}, {"p2p_bytes", p2p_bytes},
          {"steps", steps.size()}};
}

/** Groups the events into instances and call sites; sites sorted by time in call. */
void group(const Trace &t, std::vector<Instance> &insts, std::vector<Site> &sites) {
  std::map<std::pair<uint64_t, uint64_t>, size_t> inst_of;
  for (size_t i = 0; i < t.colls.size(); ++i) {
    const auto &c = t.colls[i];
    auto [it, fresh] = inst_of.emplace(std::make_pair(c.comm_id, c.seq), insts.size());
    if (fresh) insts.push_back({});
    Instance &in = insts[it->second];
    if (in.ev.empty() || c.t_entry < in.first) in.first = c.t_entry;
    if (in.ev.empty() || c.t_entry > in.last) in.last = c.t_entry;
    in.ev.push_back(i);
  }
  std::map<std::pair<std::string, int>, size_t> site_of;
  for (size_t k = 0; k < insts.size(); ++k) {
    const Instance &in = insts[k];
    for (size_t i : in.ev) {
      const auto &c = t.colls[i];
      auto [it, fresh] = site_of.emplace(std::make_pair(c.callsite, c.op), sites.size());
      if (fresh) {
        sites.emplace_back();
        sites.back().callsite = c.callsite;
        sites.back().op = c.op;
      }
      Site &s = sites[it->second];
      s.events++;
      s.bytes += c.bytes;
      s.in_call += c.t_exit - c.t_entry;
      s.arrival_wait += in.last - c.t_entry;
      if (s.inst.empty() || s.inst.back() != k) {
        s.inst.push_back(k);
        s.max_skew = std::max(s.max_skew, in.last - in.first);
      }
    }
  }
  // Largest time in call first (ties: first seen), as `arcoll summary` ranks them.
  std::stable_sort(sites.begin(), sites.end(), [](const Site &a, const Site &b) { return a.in_call > b.in_call; });
  // Instances of a site in time order (first entry).
  for (auto &s : sites)
    std::stable_sort(s.inst.begin(), s.inst.end(), [&](size_t a, size_t b) { return insts[a].first < insts[b].first; });
}

json callsites_json(const std::vector<Site> &sites) {
  json a = json::array();
  for (size_t k = 0; k < sites.size(); ++k) {
    const Site &s = sites[k];
    std::string op = arcoll::trace::op_name(s.op);
    a.push_back({{"id", k}, {"label", op + " at " + s.callsite}, {"callsite", s.callsite}, {"op", op},
                 {"events", s.events}, {"instances", s.inst.size()}, {"bytes", s.bytes},
                 {"time_in_call_s", s.in_call}, {"arrival_wait_s", s.arrival_wait}, {"max_skew_s", s.max_skew}});
  }
  return a;
}

json wait_cause_json(const Trace &t) {
  WaitCause w = caused_waits(t);
  json ranks = json::array();
  for (int r = 0; r < t.nranks; ++r)
    ranks.push_back({{"rank", r}, {"host", r < int(t.ranks.size()) ? t.ranks[r].host : ""},
                     {"caused_s", w.caused_s[size_t(r)]}, {"caused_long_term_s", w.caused_long_term_s[size_t(r)]},
                     {"cause_calls", w.cause_calls[size_t(r)]}});
  return {{"method", "the waiting of the other ranks while a rank was inside its own delay (time outside MPI "
                     "beyond the median rank's), shared among the ranks late at that moment; caused_long_term_s adds the "
                     "waiting of later calls traced back to it through inherited lateness; first collective after MPI_Init left out (profiler/cause_analysis.hpp)"},
          {"instances", w.instances}, {"first_calls", w.first_calls}, {"total_wait_s", w.total_wait_s},
          {"caused_wait_s", w.caused_wait_s}, {"propagated_wait_s", w.propagated_wait_s}, {"ranks", ranks}};
}

json skew_json(const Trace &t, const std::vector<Instance> &insts, const std::vector<Site> &sites,
               const DataLimits &lim) {
  const size_t max_calls = std::max<size_t>(1, lim.max_cells / std::max(1, t.nranks));
  json js = json::array(), cells = json::array();
  for (size_t k = 0; k < sites.size() && k < size_t(std::max(0, lim.max_sites)); ++k) {
    const Site &s = sites[k];
    size_t shown = std::min(max_calls, s.inst.size());
    js.push_back({{"id", k}, {"label", std::string(arcoll::trace::op_name(s.op)) + " at " + s.callsite},
                  {"instances", s.inst.size()}, {"shown", shown}});
    for (size_t c = 0; c < shown; ++c) {
      const Instance &in = insts[s.inst[c]];
      for (size_t i : in.ev)
        cells.push_back({{"s", k}, {"c", c}, {"r", t.colls[i].rank}, {"v", t.colls[i].t_entry - in.first}});
    }
  }
  return {{"max_calls", max_calls}, {"sites", js}, {"cells", cells}};
}

json matrix_json(const Trace &t) {
  std::map<std::pair<int, int>, std::pair<uint64_t, uint64_t>> m;  // (src, dst) -> (bytes, count)
  for (auto &c : t.ccs) {
    auto &e = m[{c.src, c.dst}];
    e.first += c.bytes;
    e.second += c.count;
  }
  json cells = json::array();
  for (auto &[k, v] : m) cells.push_back({{"src", k.first}, {"dst", k.second}, {"bytes", v.first}, {"count", v.second}});
  return {{"cells", cells}};
}

json ccs_json(const Trace &t, const DataLimits &lim) {
  json steps = json::array(), cells = json::array();
  size_t total = 0, i = 0;
  bool taking = true;  // the selectable steps are the first ones, without gaps
  for (size_t a = 0; a < t.ccs.size();) {  // t.ccs is sorted by (step, src, dst)
    size_t b = a;
    uint64_t bytes = 0, msgs = 0;
    while (b < t.ccs.size() && t.ccs[b].step == t.ccs[a].step) {
      bytes += t.ccs[b].bytes;
      msgs += t.ccs[b].count;
      ++b;
    }
    ++total;
    taking = taking && i < lim.max_steps && (i == 0 || cells.size() + (b - a) <= lim.max_ccs_cells);
    if (taking) {
      steps.push_back({{"i", i}, {"step", t.ccs[a].step}, {"bytes", bytes}, {"messages", msgs}});
      for (size_t k = a; k < b; ++k)
        cells.push_back({{"i", i}, {"src", t.ccs[k].src}, {"dst", t.ccs[k].dst}, {"bytes", t.ccs[k].bytes}});
      ++i;
    }
    a = b;
  }
  return {{"steps_total", total}, {"steps", steps}, {"cells", cells}};
}

}  // namespace

json report_data(const Trace &t, const DataLimits &lim) {
  std::vector<Instance> insts;
  std::vector<Site> sites;
  group(t, insts, sites);
  json j;
  j["arcoll_report"] = 1;
  j["trace"] = trace_json(t, insts.size());
  j["callsites"] = callsites_json(sites);
  j["top"] = std::min<size_t>(sites.size(), size_t(std::max(0, lim.top)));
  j["wait_cause"] = wait_cause_json(t);
  j["skew"] = skew_json(t, insts, sites, lim);
  j["matrix"] = matrix_json(t);
  j["ccs"] = ccs_json(t, lim);
  j["algorithms"] = {{"source", "none"},
                     {"note", "this trace came from a plain profiler run: the trace format records no algorithm "
                              "choices (pass --tuning FILE, written with ARCOLL_TUNING_OUT by a run with "
                              "libarcoll.so, to show them)"},
                     {"choices", json::array()}};
  j["placement"] = nullptr;
  return j;
}

}  // namespace arcoll::report
