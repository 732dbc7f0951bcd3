// Checks a trace recorded by the arcoll profiler from coll_all.c or
// p2p_pattern.c, parsing it with the one reader (Trace::read).
// Usage: trace_check coll|p2p|persist|aborted|fortran TRACE NRANKS [--counters N] [--delayed R] [--all]
//          [--source FILE [--line TAG=N]...] [--stripped]
// --all (aborted): every rank must have all its calls.
// --source: the program was built with -g; every call site must be named
// "FILE:LINE (function) [module+0xOFFSET]", and TAG's calls (coll: ibcast,
// inplace; fortran: bcast, allreduce, sub) must name line N. --stripped: the
// program has no symbols; every name must be "module+0xOFFSET" with no line.
// Prints every failed expectation and exits 1 if there was any. The checks of
// the recorded programs' calls: trace_check_programs.cpp.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <algorithm>

#include "trace_check.hpp"
#include "trace_reader.hpp"

using namespace arcoll::trace;

void check_common(const Trace &t, int P, int ncounters, bool seq_gaps) {
  EXPECT(t.nranks == P, "nranks " << t.nranks);
  EXPECT(t.version == 3u, "version " << t.version);
  for (int r = 0; r < t.nranks; r++) {
    const RankInfo &ri = t.ranks[r];
    EXPECT(ri.complete, "rank " << r << " incomplete");
    EXPECT(!ri.host.empty(), "rank " << r << " host");
    EXPECT(ri.pid > 0, "rank " << r << " pid");
    const ClockModel &c = ri.clock;
    EXPECT(c.rtt_init >= 0 && c.rtt_fini >= 0 && c.rtt_init < 1 && c.rtt_fini < 1, "rank " << r << " rtt");
    EXPECT(c.t_fini >= c.t_init, "rank " << r << " clock order");
    // Same host: offsets are small (MPICH's Wtime is per-process but on one machine).
    EXPECT(std::fabs(c.off_init) < 10 && std::fabs(c.off_fini) < 10, "rank " << r << " offsets " << c.off_init);
    if (r == 0) EXPECT(c.off_init == 0 && c.off_fini == 0, "rank 0 offset");
  }
  double total = 0;
  for (auto &e : t.colls) {
    EXPECT(e.t_exit >= e.t_entry, "rank " << e.rank << " exit before entry");
    EXPECT(e.callsite.find("+0x") != std::string::npos, "callsite name " << e.callsite);
    if (ncounters) {
      EXPECT(int(e.counters.size()) == ncounters, "counters size " << e.counters.size());
      for (auto v : e.counters) {
        EXPECT(v >= 0, "negative counter delta");
        total += double(v);
      }
    } else {
      EXPECT(e.counters.empty(), "unexpected counters");
    }
  }
  EXPECT(int(t.counter_names.size()) == ncounters, "counter names " << t.counter_names.size());
  if (ncounters) EXPECT(total > 0, "all counter deltas are zero");
  // seq: per (rank, comm) 0..n-1 in entry order.
  std::map<std::pair<int, uint64_t>, uint64_t> next;
  for (auto &e : t.colls) {
    uint64_t &n = next[{e.rank, e.comm_id}];
    if (seq_gaps)  // MPI_Pcontrol(0): paused calls are numbered, not written
      EXPECT(e.seq >= n, "rank " << e.rank << " comm " << e.comm_id << " seq " << e.seq << " below " << n);
    else
      EXPECT(e.seq == n, "rank " << e.rank << " comm " << e.comm_id << " seq " << e.seq << " expected " << n);
    n = e.seq + 1;
  }
}

/** Call-site expectations from the command line (see the usage above). */
struct SiteOpts {
  std::string source;               // base name of the -g source, "" = not checked
  std::map<std::string, int> line;  // tag -> expected line
  bool stripped = false;
};

/** Line number of a "FILE:LINE (" name, -1 if the name has no such prefix. */
static int name_line(const std::string &name, const std::string &file) {
  std::smatch m;
  if (!std::regex_search(name, m, std::regex("^" + std::regex_replace(file, std::regex("\\."), "\\.") +
                                             ":([0-9]+) (\\(.+\\) )?\\[[^ ]+\\+0x[0-9a-f]+\\]$")))
    return -1;
  return std::atoi(m[1].str().c_str());
}

/** Checks names of call sites; `tag_of` gives an event's tag ("" = none). */
template <class TagOf>
static void check_sites(const Trace &t, const SiteOpts &o, TagOf tag_of) {
  std::map<std::string, std::set<std::string>> names_of_tag;
  for (auto &e : t.colls) {
    if (o.stripped) {
      EXPECT(std::regex_match(e.callsite, std::regex("^[^ :]+\\+0x[0-9a-f]+( \\(.*\\))?$")),
             "stripped program: call site " << e.callsite << " should be module+0xOFFSET");
      continue;
    }
    int line = name_line(e.callsite, o.source);
    EXPECT(line > 0, "call site " << e.callsite << " should be " << o.source << ":LINE (function) [module+0xOFFSET]");
    std::string tag = tag_of(e);
    if (tag.empty() || !o.line.count(tag)) continue;
    names_of_tag[tag].insert(e.callsite);
    EXPECT(line == o.line.at(tag), "rank " << e.rank << " " << tag << " call site " << e.callsite << ", expected line "
                                           << o.line.at(tag));
  }
  // Every rank names a site alike: one name per tag.
  for (auto &[tag, names] : names_of_tag) EXPECT(names.size() == 1, tag << ": " << names.size() << " names across ranks");
  for (auto &[tag, line] : o.line) EXPECT(names_of_tag.count(tag), "no call of tag " << tag << " in the trace");
}

/** fortran_sites.f90: 3 bcasts (bcast), 1 allreduce (allreduce), 1 bcast (sub) per rank. */
static void check_fortran(const Trace &t, int P, const SiteOpts &o) {
  std::map<std::pair<int, std::string>, int> calls;  // (rank, name) -> count
  for (auto &e : t.colls) {
    EXPECT(e.op == OP_BCAST || e.op == OP_ALLREDUCE, "unexpected op " << op_name(e.op));
    EXPECT(e.bytes == 4 && e.comm_id == 0, "rank " << e.rank << " bytes " << e.bytes << " comm " << e.comm_id);
    calls[{e.rank, e.callsite}]++;
  }
  EXPECT(int(t.colls.size()) == 5 * P, "collectives " << t.colls.size() << " expected " << 5 * P);
  EXPECT(int(calls.size()) == 3 * P, "distinct (rank, call site) " << calls.size() << " expected " << 3 * P);
  for (auto &[k, n] : calls) {
    int line = name_line(k.second, o.source);
    int want = o.line.count("bcast") && line == o.line.at("bcast") ? 3 : 1;
    EXPECT(n == want, "rank " << k.first << " site " << k.second << " calls " << n << " expected " << want);
  }
}

int main(int argc, char **argv) {
  if (argc < 4) {
    std::cerr << "usage: trace_check coll|p2p|persist|aborted|fortran TRACE NRANKS [--counters N] [--delayed R]"
                 " [--all] [--source FILE [--line TAG=N]...] [--stripped]\n";
    return 2;
  }
  std::string mode = argv[1];
  int P = std::atoi(argv[3]), ncounters = 0, delayed = P - 1;
  SiteOpts so;
  bool all = false;
  for (int i = 4; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--stripped" || a == "--all") {
      (a == "--all" ? all : so.stripped) = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << "trace_check: " << a << " needs a value\n";
      return 2;
    }
    std::string v = argv[++i];
    if (a == "--counters") ncounters = std::atoi(v.c_str());
    else if (a == "--delayed") delayed = std::atoi(v.c_str());
    else if (a == "--source") so.source = v;
    else if (a == "--line" && v.find('=') != std::string::npos && std::atoi(v.c_str() + v.find('=') + 1) > 0)
      so.line[v.substr(0, v.find('='))] = std::atoi(v.c_str() + v.find('=') + 1);
    else {
      std::cerr << "trace_check: bad option " << a << " " << v << "\n";
      return 2;
    }
  }
  auto coll_tag = [](const CollEvent &e) -> std::string {
    if (e.flags & ARCOLL_COLL_NONBLOCKING) return "ibcast";
    if (e.flags & ARCOLL_COLL_IN_PLACE) return "inplace";
    return "";
  };
  auto fortran_tag = [&so](const CollEvent &e) -> std::string {
    if (e.op == OP_ALLREDUCE) return "allreduce";
    int line = name_line(e.callsite, so.source);
    for (auto &[tag, l] : so.line)
      if (l == line) return tag;
    return "";  // a bcast at neither line: check_sites reports the tag missing or check_fortran the counts
  };
  try {
    Trace t = Trace::read(argv[2]);
    if (mode == "aborted") {
      check_aborted(t, P, delayed, all);
    } else {
      check_common(t, P, ncounters, mode == "persist");
    }
    if (so.stripped || !so.source.empty()) {
      if (mode == "fortran") check_sites(t, so, fortran_tag);
      else check_sites(t, so, coll_tag);
    }
    if (mode == "coll" && !so.source.empty())  // the ibcast is in main(), not in run()
      for (auto &e : t.colls)
        if (e.flags & ARCOLL_COLL_NONBLOCKING)
          EXPECT(e.callsite.find(" (main) [") != std::string::npos, "ibcast call site " << e.callsite);
    if (mode == "coll") check_coll(t, P);
    else if (mode == "persist") check_persist(t, P);
    else if (mode == "p2p") check_p2p(t, P, delayed);
    else if (mode == "fortran") check_fortran(t, P, so);
    else if (mode != "aborted") {
      std::cerr << "unknown mode " << mode << "\n";
      return 2;
    }
  } catch (const TraceError &e) {
    std::cerr << "trace_check: " << e.what() << "\n";
    return 1;
  }
  if (tracecheck::failures) std::cerr << "trace_check: " << tracecheck::failures << " failures\n";
  else std::cout << "trace_check: " << mode << " OK\n";
  return tracecheck::failures ? 1 : 0;
}
