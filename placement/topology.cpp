// Topology's queries: slots, shape, routes, latency and bandwidth between hosts (the
// topology.conf parser: topology_conf.cpp; the hostfile: hostfile.cpp). See topology.hpp.
#include "topology.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace arcoll::placement {


int Topology::find(const std::string &name) const {
  for (size_t i = 0; i < vertices.size(); ++i)
    if (vertices[i].name == name) return static_cast<int>(i);
  return -1;
}

int Topology::total_slots() const {
  int s = 0;
  for (auto &h : hosts) s += h.slots;
  return s;
}

namespace {
// used[v]: v leads to (or is) a host of the hostfile.
std::vector<char> used_vertices(const Topology &t) {
  std::vector<char> used(t.vertices.size(), 0);
  for (auto &h : t.hosts)
    for (int v = h.vertex; v >= 0 && !used[v]; v = t.vertices[v].parent) used[v] = 1;
  return used;
}
}  // namespace

bool Topology::homogeneous() const {
  if (hosts.empty()) return false;
  auto used = used_vertices(*this);
  int depth = vertices[hosts[0].vertex].depth;
  for (auto &h : hosts)
    if (vertices[h.vertex].depth != depth) return false;
  std::map<int, int> fan;      // depth -> used children
  std::map<int, double> bw;    // depth of child -> bandwidth of its up link
  for (size_t v = 0; v < vertices.size(); ++v) {
    if (!used[v]) continue;
    const Vertex &x = vertices[v];
    if (!x.is_host) {
      int n = 0;
      for (int c : x.children) n += used[c];
      auto it = fan.find(x.depth);
      if (it == fan.end()) fan[x.depth] = n;
      else if (it->second != n) return false;
    }
    if (x.parent >= 0 && !links.empty()) {
      double b = links[up_link(static_cast<int>(v))].bandwidth_Bps;
      auto it = bw.find(x.depth);
      if (it == bw.end()) bw[x.depth] = b;
      else if (it->second != b) return false;
    }
  }
  return true;
}

std::vector<int> Topology::fanouts() const {
  auto used = used_vertices(*this);
  std::vector<int> out;
  int v = root;
  while (v >= 0 && !vertices[v].is_host) {
    int n = 0, next = -1;
    for (int c : vertices[v].children)
      if (used[c]) {
        ++n;
        if (next < 0) next = c;
      }
    out.push_back(n);
    v = next;
  }
  return out;
}

void Topology::finalize(const TopologyParams &p) {
  const int V = static_cast<int>(vertices.size());
  const int H = static_cast<int>(hosts.size());
  has_sockets_ = std::any_of(hosts.begin(), hosts.end(), [](const Host &h) { return h.sockets > 1; });
  links.assign(2 * V + H + (has_sockets_ ? 2 * H : 0), Link{});
  for (int v = 0; v < V; ++v) {
    const Vertex &x = vertices[v];
    if (x.parent < 0) continue;
    const Vertex &par = vertices[x.parent];
    LinkParams lp = x.is_host ? p.node_leaf : p.switch_switch;
    double bw = par.linkspeed_Bps > 0 ? par.linkspeed_Bps : lp.bandwidth_Bps;
    Link::Kind k = x.is_host ? Link::NodeLeaf : Link::SwitchSwitch;
    links[up_link(v)] = Link{v, x.parent, lp.latency_s, bw, k};
    links[down_link(v)] = Link{x.parent, v, lp.latency_s, bw, k};
  }
  for (int h = 0; h < H; ++h)
    links[intra_link(h)] = Link{hosts[h].vertex, hosts[h].vertex, p.intra.latency_s, p.intra.bandwidth_Bps, Link::Intra};
  if (has_sockets_)
    for (int h = 0; h < H; ++h) {
      const int v = hosts[h].vertex;
      links[socket_up_link(h)] = Link{v, v, p.socket.latency_s, p.socket.bandwidth_Bps, Link::Socket};
      links[socket_down_link(h)] = Link{v, v, p.socket.latency_s, p.socket.bandwidth_Bps, Link::Socket};
    }

  int maxd = 0;
  for (auto &h : hosts) maxd = std::max(maxd, vertices[h.vertex].depth);
  if (maxd > 60)
    throw TopologyError(fmt::format("the switch tree is {} levels deep (host {}); arcoll supports at most 60 levels",
                                    maxd, hosts.empty() ? "" : hosts[0].name));
  max_route_ = std::max(has_sockets_ ? 2 : 1, 2 * maxd);
  contention = p.contention;
  rendezvous_bytes = p.rendezvous_bytes;
  async_bytes = p.async_bytes;
  path_collectives = p.path_collectives;
}

int Topology::route_into(int p, int q, int *buf) const {
  if (p == q) {
    buf[0] = intra_link(p);
    return 1;
  }
  int u = hosts[p].vertex, w = hosts[q].vertex;
  if (u == w) {  // two sockets of one host
    buf[0] = socket_up_link(p);
    buf[1] = socket_down_link(q);
    return 2;
  }
  int n = 0, nd = 0;
  int down[64];
  while (vertices[u].depth > vertices[w].depth) { buf[n++] = up_link(u); u = vertices[u].parent; }
  while (vertices[w].depth > vertices[u].depth) { down[nd++] = down_link(w); w = vertices[w].parent; }
  while (u != w) {
    buf[n++] = up_link(u); u = vertices[u].parent;
    down[nd++] = down_link(w); w = vertices[w].parent;
  }
  while (nd > 0) buf[n++] = down[--nd];
  return n;
}

std::vector<int> Topology::route(int p, int q) const {
  std::vector<int> r(max_route_);
  r.resize(route_into(p, q, r.data()));
  return r;
}

Topology::RouteLB Topology::route_lb(const int *route, int n) const {
  RouteLB r{0.0, links[route[0]].bandwidth_Bps};
  for (int k = 0; k < n; ++k) {
    r.latency_s += links[route[k]].latency_s;
    r.bandwidth_Bps = std::min(r.bandwidth_Bps, links[route[k]].bandwidth_Bps);
  }
  return r;
}

double Topology::latency(int p, int q) const {
  int buf[128];
  return route_lb(buf, route_into(p, q, buf)).latency_s;
}

double Topology::bandwidth(int p, int q) const {
  int buf[128];
  return route_lb(buf, route_into(p, q, buf)).bandwidth_Bps;
}

int Topology::hops(int p, int q) const {
  int u = hosts[p].vertex, w = hosts[q].vertex, n = 0;
  while (vertices[u].depth > vertices[w].depth) { ++n; u = vertices[u].parent; }
  while (vertices[w].depth > vertices[u].depth) { ++n; w = vertices[w].parent; }
  while (u != w) { n += 2; u = vertices[u].parent; w = vertices[w].parent; }
  return n;
}

}  // namespace arcoll::placement
