// Slurm topology.conf -> switch tree (its hostlists expanded) and Topology (the routes:
// topology.cpp; the hostfile: hostfile.cpp). See topology.hpp.
#include "topology.hpp"

#include "text_util.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

namespace arcoll::placement {

using text::lower;
using text::read_file;
using text::strip_comment;
using text::trim;

namespace {

// Splits on commas that are not inside brackets.
std::vector<std::string> split_top_level(const std::string &expr) {
  std::vector<std::string> items;
  int depth = 0;
  std::string cur;
  for (char c : expr) {
    if (c == '[') ++depth;
    if (c == ']') {
      if (--depth < 0) throw std::invalid_argument(fmt::format("unbalanced ']' in \"{}\"", expr));
    }
    if (c == ',' && depth == 0) {
      items.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (depth != 0) throw std::invalid_argument(fmt::format("unbalanced '[' in \"{}\"", expr));
  items.push_back(cur);
  return items;
}

bool all_digits(const std::string &s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Expands one range list "01-04,07" into zero-padded strings.
std::vector<std::string> expand_ranges(const std::string &ranges, const std::string &expr) {
  std::vector<std::string> out;
  std::stringstream ss(ranges);
  std::string part;
  while (std::getline(ss, part, ',')) {
    part = trim(part);
    size_t dash = part.find('-');
    std::string lo = dash == std::string::npos ? part : part.substr(0, dash);
    std::string hi = dash == std::string::npos ? part : part.substr(dash + 1);
    if (!all_digits(lo) || !all_digits(hi))
      throw std::invalid_argument(fmt::format(
          "bad range \"{}\" in \"{}\": expected N or N-M with decimal numbers, e.g. node[01-04]", part, expr));
    unsigned long long a = std::stoull(lo), b = std::stoull(hi);
    if (b < a)
      throw std::invalid_argument(fmt::format("range \"{}\" in \"{}\" goes downwards; write it as {}-{}", part, expr, hi, lo));
    if (b - a > 1000000) throw std::invalid_argument(fmt::format("range \"{}\" in \"{}\" is too large", part, expr));
    size_t width = lo.size();
    for (unsigned long long i = a; i <= b; ++i) out.push_back(fmt::format("{:0{}d}", i, width));
  }
  if (out.empty()) throw std::invalid_argument(fmt::format("empty brackets in \"{}\"", expr));
  return out;
}

}  // namespace

std::vector<std::string> expand_hostlist(const std::string &expr_in) {
  std::string expr = trim(expr_in);
  std::vector<std::string> out;
  for (const std::string &raw : split_top_level(expr)) {
    std::string item = trim(raw);
    if (item.empty()) throw std::invalid_argument(fmt::format("empty name in hostlist \"{}\"", expr));
    std::vector<std::string> acc{""};
    size_t i = 0;
    while (i < item.size()) {
      size_t open = item.find('[', i);
      std::string prefix = item.substr(i, open == std::string::npos ? std::string::npos : open - i);
      for (auto &a : acc) a += prefix;
      if (open == std::string::npos) break;
      size_t close = item.find(']', open);
      if (close == std::string::npos) throw std::invalid_argument(fmt::format("unbalanced '[' in \"{}\"", expr));
      auto vals = expand_ranges(item.substr(open + 1, close - open - 1), expr);
      std::vector<std::string> next;
      next.reserve(acc.size() * vals.size());
      for (auto &a : acc)
        for (auto &v : vals) next.push_back(a + v);
      acc.swap(next);
      i = close + 1;
    }
    for (auto &a : acc) {
      if (a.find_first_of(" \t]") != std::string::npos)
        throw std::invalid_argument(fmt::format("bad character in name \"{}\" of hostlist \"{}\"", a, expr));
      out.push_back(a);
    }
  }
  return out;
}

Topology parse_topology_conf(const std::string &text, const std::string &path) {
  struct SwitchLine {
    std::string name, where;
    std::vector<std::string> nodes, switches;
    double linkspeed = 0;
  };
  std::vector<SwitchLine> sw;
  text::for_each_line(text, path, [&](const std::string &body, const std::string &where) {
    SwitchLine s;
    s.where = where;
    bool have_nodes = false, have_switches = false;
    std::istringstream toks(body);
    std::string tok;
    while (toks >> tok) {
      size_t eq = tok.find('=');
      if (eq == std::string::npos || eq == 0)
        throw TopologyError(fmt::format("{}: expected KEY=VALUE, got \"{}\"; a line looks like "
                                        "\"SwitchName=s0 Nodes=node[01-04] Switches=s[1-2] LinkSpeed=100\"",
                                        where, tok));
      std::string key = lower(tok.substr(0, eq)), val = tok.substr(eq + 1);
      try {
        if (key == "switchname") {
          if (val.empty()) throw TopologyError(fmt::format("{}: empty SwitchName; give the switch a name", where));
          s.name = val;
        } else if (key == "nodes") {
          s.nodes = expand_hostlist(val);
          have_nodes = true;
        } else if (key == "switches") {
          s.switches = expand_hostlist(val);
          have_switches = true;
        } else if (key == "linkspeed") {
          char *end = nullptr;
          double v = std::strtod(val.c_str(), &end);
          if (val.empty() || *end != '\0' || !(v > 0))
            throw TopologyError(fmt::format("{}: LinkSpeed={} must be a positive number (arcoll reads it as Gbit/s "
                                            "times --linkspeed-gbps)", where, val));
          s.linkspeed = v;
        } else {
          throw TopologyError(fmt::format("{}: unknown key \"{}\"; topology.conf (tree) lines accept only "
                                          "SwitchName, Nodes, Switches and LinkSpeed (case-insensitive)",
                                          where, tok.substr(0, eq)));
        }
      } catch (const std::invalid_argument &e) {
        throw TopologyError(fmt::format("{}: bad hostlist in {}: {}", where, tok.substr(0, eq), e.what()));
      }
    }
    (void)have_nodes;
    (void)have_switches;
    if (s.name.empty())
      throw TopologyError(fmt::format("{}: line has no SwitchName=; every line must define one switch", where));
    sw.push_back(std::move(s));
  });
  if (sw.empty())
    throw TopologyError(fmt::format("{}: no switch defined; add at least one line like "
                                    "\"SwitchName=s0 Nodes=node[01-04]\"", path));

  Topology t;
  std::map<std::string, int> index;
  for (auto &s : sw) {
    if (index.count(s.name))
      throw TopologyError(fmt::format("{}: switch {} is defined twice (first at {}); merge the two lines",
                                      s.where, s.name, t.vertices[index[s.name]].where));
    Vertex v;
    v.name = s.name;
    v.where = s.where;
    v.linkspeed_Bps = s.linkspeed * 1e9 / 8;  // multiplied by linkspeed_gbps in attach_hosts()
    index[s.name] = static_cast<int>(t.vertices.size());
    t.vertices.push_back(v);
  }
  for (auto &s : sw) {
    int me = index[s.name];
    for (auto &c : s.switches) {
      auto it = index.find(c);
      if (it == index.end())
        throw TopologyError(fmt::format("{}: switch {} lists child switch {}, which has no SwitchName line; "
                                        "define it or remove it from Switches=", s.where, s.name, c));
      int ci = it->second;
      if (t.vertices[ci].parent >= 0 && t.vertices[ci].parent != me)
        throw TopologyError(fmt::format("{}: switch {} is already a child of switch {}; a tree gives each "
                                        "switch one parent", s.where, c, t.vertices[t.vertices[ci].parent].name));
      if (t.vertices[ci].parent == me) continue;
      t.vertices[ci].parent = me;
      t.vertices[me].children.push_back(ci);
    }
    for (auto &n : s.nodes) {
      auto it = index.find(n);
      if (it != index.end()) {
        const Vertex &prev = t.vertices[it->second];
        if (!prev.is_host)
          throw TopologyError(fmt::format("{}: node {} has the name of a switch ({}); rename one of them",
                                          s.where, n, prev.where));
        if (prev.parent == me) continue;
        throw TopologyError(fmt::format("{}: node {} is in two switches: {} ({}) and {}; keep it in one Nodes= list",
                                        s.where, n, t.vertices[prev.parent].name, prev.where, s.name));
      }
      Vertex v;
      v.name = n;
      v.is_host = true;
      v.parent = me;
      v.where = s.where;
      index[n] = static_cast<int>(t.vertices.size());
      t.vertices.push_back(v);
      t.vertices[me].children.push_back(index[n]);
    }
  }
  // Roots, cycles, connectivity.
  std::vector<int> roots;
  for (size_t v = 0; v < t.vertices.size(); ++v)
    if (t.vertices[v].parent < 0) roots.push_back(static_cast<int>(v));
  std::vector<char> seen(t.vertices.size(), 0);
  for (int r : roots) {
    std::vector<int> stack{r};
    seen[r] = 1;
    while (!stack.empty()) {
      int v = stack.back();
      stack.pop_back();
      for (int c : t.vertices[v].children) {
        t.vertices[c].depth = t.vertices[v].depth + 1;
        seen[c] = 1;
        stack.push_back(c);
      }
    }
  }
  for (size_t v = 0; v < t.vertices.size(); ++v)
    if (!seen[v]) {
      std::string cyc = t.vertices[v].name;
      int u = t.vertices[v].parent;
      for (size_t k = 0; u >= 0 && k < t.vertices.size(); ++k, u = t.vertices[u].parent) {
        cyc += " -> " + t.vertices[u].name;
        if (u == static_cast<int>(v)) break;
      }
      throw TopologyError(fmt::format("{}: switches form a cycle ({}, each a child of the next); "
                                      "a topology must be a tree: remove one of these Switches= entries",
                                      t.vertices[v].where, cyc));
    }
  if (roots.size() > 1) {
    std::string list;
    for (int r : roots) list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", t.vertices[r].name, t.vertices[r].where);
    throw TopologyError(fmt::format("{}: the topology is not one tree: {} switches have no parent: {}; add a top "
                                    "switch, e.g. \"SwitchName=top Switches=...\" listing them",
                                    path, roots.size(), list));
  }
  t.root = roots[0];
  return t;
}

Topology read_topology_conf(const std::string &path) {
  return parse_topology_conf(read_file(path, "the topology file"), path);
}

}  // namespace arcoll::placement
