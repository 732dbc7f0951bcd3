// The page's static sections (report_html.hpp, render_sections): tables,
// notes and the plot containers (ids plot-<name>, filled by page.html).
#include <fmt/format.h>

#include <string>

#include "report_html.hpp"

namespace arcoll::report {

namespace {

using nlohmann::json;

std::string secs(double s) { return fmt::format("{:.6g}", s); }

std::string bytes(double b) {
  const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (b >= 1024 && i < 4) b /= 1024, ++i;
  return i == 0 ? fmt::format("{:.0f} B", b) : fmt::format("{:.1f} {}", b, u[i]);
}

std::string row(std::initializer_list<std::string> cells, const char *tag = "td") {
  std::string r = "<tr>";
  bool first = true;
  for (auto &c : cells) {
    r += fmt::format("<{}{}>{}</{}>", tag, first ? " class=\"l\"" : "", c, tag);
    first = false;
  }
  return r + "</tr>\n";
}

std::string totals(const json &t) {
  std::string h = "<h2>Trace</h2>\n<table>\n";
  h += row({"ranks", std::to_string(t["ranks"].get<int>())});
  if (t["incomplete_sections"].get<int>() > 0)
    h += row({"incomplete rank sections", std::to_string(t["incomplete_sections"].get<int>())});
  h += row({"collective calls (one per rank and call)", std::to_string(t["collective_calls"].get<uint64_t>())});
  h += row({"collective instances (comm, seq)", std::to_string(t["collective_instances"].get<uint64_t>())});
  h += row({"bytes in collectives", bytes(t["collective_bytes"].get<double>())});
  h += row({"point-to-point messages", std::to_string(t["p2p_messages"].get<uint64_t>())});
  h += row({"point-to-point bytes", bytes(t["p2p_bytes"].get<double>())});
  h += row({"communication steps with traffic (CCS)", std::to_string(t["steps"].get<uint64_t>())});
  return h + "</table>\n";
}

std::string callsites(const json &d) {
  std::string h = "<h2>Top call sites by waiting time</h2>\n";
  const json &cs = d["callsites"];
  if (cs.empty()) return h + "<p class=\"note\">The trace has no collective call.</p>\n";
  h += "<p class=\"note\">Time in call: sum over ranks and calls of exit - entry (as <code>arcoll summary</code>); "
       "arrival wait: sum over ranks and calls of the last rank's entry - own entry (what a synchronising "
       "collective makes the early ranks wait; it exceeds the time in call when ranks need not wait for the last "
       "one, e.g. broadcast leaves it does not feed); "
       "max skew: largest last - first entry of one call.</p>\n<table id=\"callsites\">\n";
  h += row({"call site", "calls", "rank-calls", "bytes", "time in call (s)", "arrival wait (s)", "max skew (s)"}, "th");
  for (size_t i = 0; i < d["top"].get<size_t>(); ++i) {
    const json &s = cs[i];
    h += row({html_escape(s["label"].get<std::string>()), std::to_string(s["instances"].get<uint64_t>()),
              std::to_string(s["events"].get<uint64_t>()), bytes(s["bytes"].get<double>()),
              secs(s["time_in_call_s"]), secs(s["arrival_wait_s"]), secs(s["max_skew_s"])});
  }
  h += "</table>\n";
  if (cs.size() > d["top"].get<size_t>())
    h += fmt::format("<p class=\"note\">{} more call sites not shown.</p>\n", cs.size() - d["top"].get<size_t>());
  return h;
}

std::string plots(const json &d) {
  std::string h = "<h2>Who causes the waits</h2>\n<p class=\"note\">Per rank: the waiting time the other ranks "
                  "spent because this rank entered a collective last (" +
                  html_escape(d["wait_cause"]["method"].get<std::string>()) +
                  fmt::format("; {} collective instances on two or more ranks).</p>\n",
                              d["wait_cause"]["instances"].get<uint64_t>()) +
                  "<div class=\"plot\" id=\"plot-waits\"></div>\n";
  h += "<h2>Arrival skew</h2>\n";
  if (d["skew"]["sites"].empty())
    h += "<p class=\"note\">No collective call: no heatmap.</p>\n";
  else
    h += fmt::format("<p class=\"note\">Per call site (selector; the {} sites with the most time in call), each "
                     "rank's entry minus the first entry of the same call, calls in time order (at most {} per "
                     "site).</p>\n<div class=\"plot\" id=\"plot-skew\"></div>\n",
                     d["skew"]["sites"].size(), d["skew"]["max_calls"].get<uint64_t>());
  h += "<h2>Communication matrix and CCS per step</h2>\n";
  if (d["matrix"]["cells"].empty())
    h += "<p class=\"note\">The trace has no point-to-point traffic between ranks.</p>\n";
  else
    h += fmt::format("<p class=\"note\">Point-to-point bytes from source to destination rank, over all steps or in "
                     "one communication step (selector; {} of {} steps selectable). Below: bytes per step.</p>\n"
                     "<div class=\"plot\" id=\"plot-matrix\"></div>\n<div class=\"plot\" id=\"plot-steps\"></div>\n",
                     d["ccs"]["steps"].size(), d["ccs"]["steps_total"].get<uint64_t>());
  return h;
}

std::string algorithms(const json &a) {
  std::string h = "<h2>Algorithm choices</h2>\n<p class=\"note\" id=\"algorithms-note\">" +
                  html_escape(a["note"].get<std::string>()) + "</p>\n";
  if (a["choices"].empty()) return h;
  h += "<table id=\"algorithms\">\n";
  h += row({"collective", "P", "bytes (class)", "commutative", "algorithm", "segment", "k", "source", "in trace"}, "th");
  for (const json &c : a["choices"])
    h += row({html_escape(c["collective"].get<std::string>()), std::to_string(c["P"].get<long long>()),
              bytes(c["bytes"].get<double>()), c["commutative"].get<bool>() ? "yes" : "no",
              html_escape(c["algorithm"].get<std::string>()), bytes(c["segment_bytes"].get<double>()),
              std::to_string(c["k"].get<long long>()), html_escape(c["source"].get<std::string>()),
              c["in_trace"].get<bool>() ? "yes" : "no"});
  return h + "</table>\n";
}

std::string placement(const json &p) {
  std::string h = "<h2>Placement: estimated link loads</h2>\n";
  if (p.is_null())
    return h + "<p class=\"note\">Run <code>arcoll report TRACE --mapping FILE --topology topology.conf --hosts "
               "hosts.txt</code> (the files of <code>arcoll place</code>) to compare a mapping with the in-order "
               "one.</p>\n";
  h += fmt::format("<p class=\"note\">Topology {}, hosts {}; {} communication steps, {} messages{}. Before: ranks "
                   "in hostfile order (as mpiexec places them); after: {}. Estimated time: seed-001 cost "
                   "(placement/cost.hpp).</p>\n<table id=\"placement\">\n",
                   html_escape(p["topology"]), html_escape(p["hosts"]), p["steps"].get<uint64_t>(),
                   p["messages"].get<uint64_t>(), p["with_collectives"].get<bool>() ? " (collectives modelled)" : "",
                   html_escape(p["mapping"]));
  h += row({"mapping", "est. time (s)", "hop-bytes", "max link load (bytes)", "peak messages on a link"}, "th");
  for (const char *k : {"before", "after"}) {
    const json &c = p[k];
    h += row({html_escape(c["name"].get<std::string>()), secs(c["time_s"]), fmt::format("{:.0f}", c["hop_bytes"].get<double>()),
              bytes(c["max_link_bytes"].get<double>()), std::to_string(c["max_congestion"].get<int>())});
  }
  h += "</table>\n";
  if (p["links"].empty()) return h + "<p class=\"note\">No link carries traffic.</p>\n";
  return h + "<div class=\"plot\" id=\"plot-links\"></div>\n";
}

}  // namespace

std::string render_sections(const json &d) {
  return totals(d["trace"]) + callsites(d) + plots(d) + algorithms(d["algorithms"]) + placement(d["placement"]);
}

}  // namespace arcoll::report
