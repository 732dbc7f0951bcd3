// Hostfile reader and attach_hosts(). See topology.hpp.
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "text_util.hpp"
#include "topology.hpp"

namespace arcoll::placement {

using text::lower;
using text::strip_comment;
using text::trim;

std::vector<Host> parse_hostfile(const std::string &text, const std::string &path) {
  std::vector<Host> hosts;
  std::map<std::string, std::string> where_of;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  auto parse_slots = [&](const std::string &s, const std::string &where, const std::string &host) {
    char *end = nullptr;
    long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0')
      throw TopologyError(fmt::format("{}: slots \"{}\" of host {} is not an integer; write host:N or host slots=N",
                                      where, s, host));
    if (v <= 0)
      throw TopologyError(fmt::format("{}: host {} has {} slots; slots must be at least 1 (remove the line to "
                                      "leave the host unused)", where, host, v));
    if (v > 1000000) throw TopologyError(fmt::format("{}: host {} has too many slots ({})", where, host, v));
    return static_cast<int>(v);
  };
  while (std::getline(in, line)) {
    ++lineno;
    std::string where = fmt::format("{}:{}", path, lineno);
    std::string body = trim(strip_comment(line));
    if (body.empty()) continue;
    std::istringstream toks(body);
    std::vector<std::string> tk;
    std::string tok;
    while (toks >> tok) tk.push_back(tok);
    Host h;
    size_t colon = tk[0].find(':');
    if (colon != std::string::npos) {
      h.name = tk[0].substr(0, colon);
      h.slots = parse_slots(tk[0].substr(colon + 1), where, h.name);
      if (tk.size() > 1)
        throw TopologyError(fmt::format("{}: unexpected \"{}\" after {}; a line is host:N or host slots=N", where, tk[1], tk[0]));
    } else {
      h.name = tk[0];
      h.slots = 1;
      if (tk.size() == 2 && lower(tk[1]).rfind("slots=", 0) == 0) {
        h.slots = parse_slots(tk[1].substr(6), where, h.name);
      } else if (tk.size() > 1) {
        throw TopologyError(fmt::format("{}: unexpected \"{}\"; a line is host, host:N or host slots=N", where, tk[1]));
      }
    }
    if (h.name.empty()) throw TopologyError(fmt::format("{}: empty host name", where));
    if (where_of.count(h.name))
      throw TopologyError(fmt::format("{}: host {} is listed twice (first at {}); give it one line with the total slots",
                                      where, h.name, where_of[h.name]));
    where_of[h.name] = where;
    hosts.push_back(h);
  }
  if (hosts.empty()) throw TopologyError(fmt::format("{}: no host; add lines like \"node01:2\"", path));
  return hosts;
}

std::vector<Host> read_hostfile(const std::string &path) {
  return parse_hostfile(text::read_file(path, "the hostfile"), path);
}

void attach_hosts(Topology &topo, std::vector<Host> hosts, const TopologyParams &params,
                  const std::string &hostfile_path, int nranks) {
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
  }
  for (auto &v : topo.vertices)
    if (!v.is_host) v.linkspeed_Bps *= params.linkspeed_gbps;
  topo.hosts = std::move(hosts);
  if (nranks > 0 && topo.total_slots() < nranks)
    throw TopologyError(fmt::format("{}: {} slots for {} ranks; add hosts or slots (host:N) so that there are at "
                                    "least {}", hostfile_path, topo.total_slots(), nranks, nranks));
  topo.finalize(params);
}

}  // namespace arcoll::placement
