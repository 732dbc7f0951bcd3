// Hostfile reader (slots and the hosts' socket structure) and attach_hosts(). See topology.hpp, HOSTS.md.
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "hwloc_shape.hpp"
#include "text_util.hpp"
#include "topology.hpp"

namespace arcoll::placement {

using text::lower;
using text::strip_comment;
using text::trim;

namespace {

// Positive integer VALUE of KEY on host `host`, at most `max`.
int parse_count(const std::string &s, const std::string &where, const std::string &host, const char *key, long max) {
  char *end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0')
    throw TopologyError(fmt::format("{}: {} \"{}\" of host {} is not an integer; write host:N or host slots=N "
                                    "[sockets=S]", where, key, s, host));
  if (v <= 0)
    throw TopologyError(fmt::format("{}: host {} has {} {}; {} must be at least 1 (remove the line to leave the host "
                                    "unused)", where, host, v, key, key));
  if (v > max) throw TopologyError(fmt::format("{}: host {} has too many {} ({})", where, host, key, v));
  return static_cast<int>(v);
}

// A relative hwloc= path is relative to the hostfile's directory.
std::string beside(const std::string &file, const std::string &hostfile) {
  if (file.empty() || file[0] == '/') return file;
  size_t slash = hostfile.rfind('/');
  return slash == std::string::npos ? file : hostfile.substr(0, slash + 1) + file;
}

// Sockets and cores per socket of `h` from the hwloc XML at `xml`; the slots default to its cores.
void apply_hwloc(Host &h, const std::string &xml, bool have_slots, const std::string &where) {
  HwlocShape s;
  try {
    s = read_hwloc_shape(xml);
  } catch (const TopologyError &e) {
    throw TopologyError(fmt::format("{}: host {}: {}", where, h.name, e.what()));
  }
  h.sockets = s.packages;
  h.cores = s.cores / s.packages;
  h.core_cpus = s.core_cpus;
  if (!have_slots) h.slots = s.cores;
}

}  // namespace

std::vector<Host> parse_hostfile(const std::string &text, const std::string &path, const std::string &hwloc_all) {
  std::vector<Host> hosts;
  std::map<std::string, std::string> where_of;
  text::for_each_line(text, path, [&](const std::string &body, const std::string &where) {
    std::istringstream toks(body);
    std::vector<std::string> tk;
    std::string tok;
    while (toks >> tok) tk.push_back(tok);
    Host h;
    h.where = where;
    h.slots = 1;
    bool have_slots = false, have_sockets = false;
    std::string hwloc;
    size_t colon = tk[0].find(':');
    h.name = colon == std::string::npos ? tk[0] : tk[0].substr(0, colon);
    if (colon != std::string::npos) {
      h.slots = parse_count(tk[0].substr(colon + 1), where, h.name, "slots", 1000000);
      have_slots = true;
    }
    for (size_t i = 1; i < tk.size(); ++i) {
      size_t eq = tk[i].find('=');
      std::string key = eq == std::string::npos ? "" : lower(tk[i].substr(0, eq));
      std::string val = eq == std::string::npos ? "" : tk[i].substr(eq + 1);
      if (key == "slots") {
        if (have_slots)
          throw TopologyError(fmt::format("{}: host {} gives its slots twice (\"{}\"); write host:N or host slots=N, "
                                          "not both", where, h.name, tk[i]));
        h.slots = parse_count(val, where, h.name, "slots", 1000000);
        have_slots = true;
      } else if (key == "sockets" || key == "numa") {
        if (have_sockets)
          throw TopologyError(fmt::format("{}: host {} gives its sockets twice (\"{}\"); keep one of sockets=, numa= "
                                          "(a NUMA domain counts as a socket)", where, h.name, tk[i]));
        h.sockets = parse_count(val, where, h.name, "sockets", 1024);
        have_sockets = true;
      } else if (key == "hwloc") {
        if (val.empty()) throw TopologyError(fmt::format("{}: empty hwloc= path; give lstopo's XML file", where));
        hwloc = beside(val, path);
      } else {
        throw TopologyError(fmt::format("{}: unexpected \"{}\"; a line is host, host:N or host slots=N, optionally "
                                        "followed by sockets=S (or numa=S) or hwloc=FILE (keys: slots, sockets, numa, "
                                        "hwloc; HOSTS.md)", where, tk[i]));
      }
    }
    if (have_sockets && !hwloc.empty())
      throw TopologyError(fmt::format("{}: host {} has both sockets= and hwloc=; the XML gives the sockets, keep one",
                                      where, h.name));
    if (hwloc.empty() && !have_sockets && !hwloc_all.empty()) hwloc = hwloc_all;
    if (!hwloc.empty()) apply_hwloc(h, hwloc, have_slots, where);
    if (h.slots % h.sockets != 0)
      throw TopologyError(fmt::format("{}: host {} has {} slots on {} sockets; slots are filled socket by socket, so the "
                                      "sockets must divide the slots (e.g. slots={} sockets={}), or leave sockets out",
                                      where, h.name, h.slots, h.sockets, h.sockets * std::max(1, h.slots / h.sockets),
                                      h.sockets));
    if (h.cores > 0 && h.slots / h.sockets > h.cores)
      throw TopologyError(fmt::format("{}: host {} has {} slots per socket but its hwloc XML only {} cores per socket; "
                                      "lower the slots (oversubscription is not modelled)", where, h.name,
                                      h.slots / h.sockets, h.cores));
    if (h.name.empty()) throw TopologyError(fmt::format("{}: empty host name", where));
    if (where_of.count(h.name))
      throw TopologyError(fmt::format("{}: host {} is listed twice (first at {}); give it one line with the total slots",
                                      where, h.name, where_of[h.name]));
    where_of[h.name] = where;
    hosts.push_back(h);
  });
  if (hosts.empty()) throw TopologyError(fmt::format("{}: no host; add lines like \"node01:2\"", path));
  return hosts;
}

std::vector<Host> read_hostfile(const std::string &path, const std::string &hwloc_all) {
  return parse_hostfile(text::read_file(path, "the hostfile"), path, hwloc_all);
}

void attach_hosts(Topology &topo, std::vector<Host> hosts, const TopologyParams &params,
                  const std::string &hostfile_path, int nranks) {
  std::vector<Host> places;
  for (auto &h : hosts) {
    int v = topo.find(h.name);
    if (v < 0 || !topo.vertices[v].is_host) {
      std::string where = topo.vertices.empty() ? std::string("the topology") : topo.vertices[topo.root].where;
      where = where.substr(0, where.rfind(':'));
      throw TopologyError(fmt::format("{}: host {} is not a node of the topology {}{}; add it to a Nodes= list there "
                                      "or remove it from the hostfile",
                                      hostfile_path, h.name, where, v >= 0 ? " (it is a switch)" : ""));
    }
    h.vertex = v;
    // A host with sockets becomes one entry per socket, slots filled socket by socket.
    for (int k = 0; k < h.sockets; ++k) {
      Host e = h;
      e.socket = k;
      e.slots = h.slots / h.sockets;
      places.push_back(e);
    }
  }
  for (auto &v : topo.vertices)
    if (!v.is_host) v.linkspeed_Bps *= params.linkspeed_gbps;
  topo.hosts = std::move(places);
  if (nranks > 0 && topo.total_slots() < nranks)
    throw TopologyError(fmt::format("{}: {} slots for {} ranks; add hosts or slots (host:N) so that there are at "
                                    "least {}", hostfile_path, topo.total_slots(), nranks, nranks));
  topo.finalize(params);
}

}  // namespace arcoll::placement
