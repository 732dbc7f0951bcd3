/**
 * @file topology.hpp
 * @brief The machine as the placement sees it: a switch tree read from a Slurm
 *        `topology.conf`, the hosts and slots of a hostfile, and the directed
 *        links of every route between two hosts.
 *
 * Model (seed 001_6a837e3d9ad6c429.txt, "Rank placement": L(p,q), B(p,q) and
 * the links of the path p->q):
 *  - the tree has switches as inner vertices and compute nodes (hosts) as
 *    leaves; every non-root vertex v has one full-duplex link to its parent,
 *    modelled as two directed links: up(v) (v -> parent) and down(v)
 *    (parent -> v);
 *  - every host also has one node-internal (shared-memory) link used by
 *    messages between two ranks of the same host;
 *  - the route p->q (p != q) goes up from p to the lowest common switch and
 *    down to q: up(p), up(parent(p)), ..., down(..), down(q). The route p->p
 *    is the node-internal link of p.
 *
 *  - a host split into sockets (HOSTS.md) is several entries of `hosts` on
 *    one vertex; the route between two of its sockets is up(socket p) to
 *    the host's inter-socket interconnect and down(socket q)
 *    (socket_up_link / socket_down_link); the route inside one socket is its
 *    own node-internal link; the network routes start at the host's vertex,
 *    so a host's sockets share its link to the leaf switch.
 *
 * Units: latencies in seconds, bandwidths in bytes per second (the command
 * line takes microseconds and Gbit/s and converts).
 *
 * Link speeds: Slurm documents `LinkSpeed` as a number in arbitrary units,
 * used only for relative comparisons. arcoll assumes it is in Gbit/s times
 * `TopologyParams::linkspeed_gbps` (default 1, i.e. `LinkSpeed=100` means
 * 100 Gbit/s = 12.5e9 bytes/s). A switch's LinkSpeed sets the bandwidth of
 * the links between that switch and each of its children (both directions);
 * without LinkSpeed the per-level default applies (host <-> leaf switch, or
 * switch <-> switch).
 */
#ifndef ARCOLL_PLACEMENT_TOPOLOGY_HPP
#define ARCOLL_PLACEMENT_TOPOLOGY_HPP

#include <stdexcept>
#include <string>
#include <vector>

namespace arcoll::placement {

/** Any error in a topology file, a hostfile or their combination. what()
 *  names the file (and line when there is one) and says how to fix it. */
class TopologyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/** Latency (seconds) and bandwidth (bytes/s) of one kind of link. */
struct LinkParams {
  double latency_s;
  double bandwidth_Bps;
};

/**
 * How the messages of one step that share a directed link slow each other
 * down (cost.hpp):
 *  - Count (default, seed 001_6a837e3d9ad6c429.txt): a message takes
 *    L + S * coll / B, coll = the largest number of messages of the step on
 *    one link of its route (every colliding message counted as if it were as
 *    large as this one);
 *  - Volume: a message takes L + max over the links k of its route of
 *    (bytes of all the step's messages on k) / B_k, the time a fairly shared
 *    link needs to carry the step's load (what SimGrid's max-min sharing
 *    gives for large messages). Equal to Count when every message of the step
 *    has the same size and one bandwidth per route;
 *  - Fluid: the messages of the step share the links max-min fairly from
 *    time 0 (progressive filling, fluid.hpp); a message ends at its finish
 *    time + L. Slow (evaluation and small searches only);
 *  - Blend: for steps that overlap (no barrier between them, ranks run ahead
 *    as far as their own messages allow): the mean of Volume's step time
 *    (the steps separated: the slowest message) and the busy-time-weighted
 *    mean busy time of the step's links, max L + sum_k t_k^2 / sum_k t_k
 *    with t_k = V_k / B_k (the steps overlapped: what the average moment of
 *    link activity waits for). See cost.hpp.
 */
enum class Contention { Count, Volume, Fluid, Blend };

/** Per-level link parameters. Defaults: a 100 Gbit/s fat-tree-like cluster. */
struct TopologyParams {
  LinkParams intra{0.3e-6, 20e9};           ///< node-internal (shared memory): 0.3 us, 160 Gbit/s
  LinkParams node_leaf{1.0e-6, 12.5e9};     ///< host <-> leaf switch: 1 us, 100 Gbit/s
  LinkParams switch_switch{1.0e-6, 12.5e9}; ///< switch <-> switch: 1 us, 100 Gbit/s
  /// One socket's link to the inter-socket interconnect (UPI / Infinity Fabric), per direction:
  /// 0.2 us, 80 Gbit/s; a message between two sockets of one host crosses two (0.4 us, HOSTS.md).
  /// Messages inside one socket use `intra`.
  LinkParams socket{0.2e-6, 10e9};
  double linkspeed_gbps = 1.0;              ///< Gbit/s per unit of Slurm's LinkSpeed
  Contention contention = Contention::Count; ///< collision model of the cost (cost.hpp)
  /// Smallest message, bytes, that a blocking send transfers by the rendezvous protocol (the sender
  /// waits for the receiver; critical_path.hpp "Rendezvous"); 0 = every message eager. Default 65536:
  /// SMPI's smpi/send-is-detached-thresh (MPI libraries' eager limits are 8-64 KiB over networks).
  uint64_t rendezvous_bytes = 65536;
  /// Every other send (eager, nonblocking) of at least this many bytes per message starts its transfer
  /// only when its receiver has reached the step it receives in; smaller ones flow at once
  /// (critical_path.hpp "Matched sends"). Default 0: every such send waits for its receive, as under SMPI,
  /// whose smpi/async-small-thresh (default 0) is the size below which a message flows before its receive
  /// is posted; on an MPI library whose eager messages flow at once, the eager limit (rendezvous_bytes).
  uint64_t async_bytes = 0;
  /// The critical path charges the blocking collectives between a rank's point-to-point messages with
  /// their tree's time on the mapping (critical_path.hpp "Collectives"); false: 0 s, a barrier only.
  bool path_collectives = true;
};

/**
 * Expands a Slurm hostlist expression: comma-separated items, each a name
 * with optional bracketed ranges, e.g. `node[01-04,07],gpu[1-2]x,login` ->
 * node01 node02 node03 node04 node07 gpu1x gpu2x login. Zero padding follows
 * the width of the lower bound (`[08-10]` -> 08 09 10). Several bracket groups
 * in one item give the cartesian product. Throws std::invalid_argument
 * (message says what is wrong) on unbalanced brackets, empty items, a range
 * whose upper bound is below its lower bound, or a non-numeric bound.
 */
std::vector<std::string> expand_hostlist(const std::string &expr);

/** One vertex of the tree: a switch or a host. */
struct Vertex {
  std::string name;
  bool is_host = false;
  int parent = -1;                 ///< vertex index, -1 for the root
  std::vector<int> children;       ///< vertex indices, in file order
  int depth = 0;                   ///< root = 0
  double linkspeed_Bps = 0;        ///< switch only: bandwidth from LinkSpeed (0 = not set)
  std::string where;               ///< "file:line" that defined it (for messages)
};

/** A directed link. */
struct Link {
  int from = -1, to = -1;          ///< vertex indices (equal for a node-internal link)
  double latency_s = 0;
  double bandwidth_Bps = 0;
  enum Kind { Intra, NodeLeaf, SwitchSwitch, Socket } kind = Intra;
};

/**
 * A place for ranks (from the hostfile), in hostfile order: a whole host, or
 * one socket (NUMA domain) of a host whose hostfile line gives its structure
 * (HOSTS.md). parse_hostfile() returns one Host per line (`sockets` = the
 * line's count, `socket` = 0, `slots` = the host's); attach_hosts() splits a
 * host with sockets > 1 into that many consecutive entries of the same name
 * and vertex, entry k with `socket` = k and slots / sockets slots (slots are
 * filled socket by socket).
 */
struct Host {
  std::string name;
  int slots = 0;
  int vertex = -1;                 ///< index in Topology::vertices
  int sockets = 1;                 ///< sockets (NUMA domains) of the host
  int socket = 0;                  ///< which socket this entry is, 0..sockets-1
  int cores = 0;                   ///< cores per socket (hwloc XML), 0 = unknown (one core per slot)
  std::vector<std::string> core_cpus;  ///< hwloc XML: OS PU indices of each core of the host, "0+4" (HwlocShape)
  std::string where;               ///< "hostfile:line" (for messages)
};

/**
 * Switch tree + hosts + links + routes. Build it with parse_topology_conf()
 * then attach_hosts() (or parse_hostfile() + attach_hosts()). The placement's
 * "node index" everywhere is the index into `hosts` (a socket of a host when
 * the hostfile gives sockets; sockets.hpp for whole hosts).
 */
class Topology {
 public:
  std::vector<Vertex> vertices;
  std::vector<Link> links;         ///< see up_link(), down_link(), intra_link()
  std::vector<Host> hosts;
  int root = -1;
  Contention contention = Contention::Count;  ///< set by finalize() from TopologyParams
  uint64_t rendezvous_bytes = 65536;            ///< set by finalize() from TopologyParams
  uint64_t async_bytes = 0;                     ///< set by finalize() from TopologyParams
  bool path_collectives = true;                 ///< set by finalize() from TopologyParams

  /** Vertex index by name, -1 if absent. */
  int find(const std::string &name) const;
  /** Directed link v -> parent(v). */
  int up_link(int v) const { return 2 * v; }
  /** Directed link parent(v) -> v. */
  int down_link(int v) const { return 2 * v + 1; }
  /** Node-internal link of host index h (the socket-internal link when h is a socket). */
  int intra_link(int h) const { return 2 * static_cast<int>(vertices.size()) + h; }
  /** Link of socket entry h to its host's inter-socket interconnect (only when has_sockets()). */
  int socket_up_link(int h) const {
    return 2 * static_cast<int>(vertices.size()) + static_cast<int>(hosts.size()) + 2 * h;
  }
  /** Link from the inter-socket interconnect to socket entry h (only when has_sockets()). */
  int socket_down_link(int h) const { return socket_up_link(h) + 1; }
  /** True if some host is split into sockets (then links has the socket links). */
  bool has_sockets() const { return has_sockets_; }
  /** True if host indices p and q are sockets of one host (p != q) or the same entry. */
  bool same_node(int p, int q) const { return hosts[p].vertex == hosts[q].vertex; }

  /** Longest possible route (links): 2 x tree depth, at least 1. Size of the
   *  buffer route_into() needs. */
  int max_route() const { return max_route_; }
  /** Writes the route from host index p to host index q (directed links, in
   *  order) into `buf` (at least max_route() ints) and returns its length.
   *  Computed on demand by walking up to the lowest common switch (no H x H
   *  table: 4096 hosts would need 16M routes); O(depth). */
  int route_into(int p, int q, int *buf) const;
  /** Route from host index p to host index q: the directed links in order. */
  std::vector<int> route(int p, int q) const;
  /** L and B of a route: the sum of its links' latencies (seconds, added in
   *  route order, as every cost model of this directory adds them, so that
   *  their totals are bit-identical) and its bottleneck (minimum) bandwidth
   *  (bytes/s). `route`: n >= 1 links as route_into() writes them (a route
   *  has at least one link: the node-internal one inside a host). */
  struct RouteLB {
    double latency_s;
    double bandwidth_Bps;
  };
  RouteLB route_lb(const int *route, int n) const;
  /** Sum of the latencies of route(p,q), seconds. */
  double latency(int p, int q) const;
  /** Bottleneck (minimum) bandwidth of route(p,q), bytes/s. */
  double bandwidth(int p, int q) const;
  /** Number of network links of route(p,q) (0 when p and q are on one host: the
   *  node-internal and socket links are not network links). */
  int hops(int p, int q) const;
  int total_slots() const;
  /** True if every host is at the same depth, every switch at a given depth
   *  has the same number of children (only switches/hosts leading to hosts
   *  counted) and every link of one level has the same bandwidth. */
  bool homogeneous() const;
  /** Fan-out per level from the root down (valid when homogeneous()). */
  std::vector<int> fanouts() const;

  /** Creates links and routes; called by attach_hosts(). */
  void finalize(const TopologyParams &params);

 private:
  int max_route_ = 1;
  bool has_sockets_ = false;
};

/**
 * Parses a Slurm topology.conf (topology/tree plugin syntax): one switch per
 * line, `SwitchName=NAME [Nodes=HOSTLIST] [Switches=HOSTLIST] [LinkSpeed=N]`,
 * keys case-insensitive, `#` starts a comment, blank lines ignored.
 * Errors (TopologyError naming `path:line` with a hint): unknown key, missing
 * SwitchName, a switch defined twice, a host under two switches, a switch
 * listed as child of two switches, an undefined child switch, cycles, more
 * than one root (disconnected tree), no switch at all, a non-positive
 * LinkSpeed, a bad hostlist expression.
 * @param text  file contents; @param path  name used in messages.
 */
Topology parse_topology_conf(const std::string &text, const std::string &path);
/** Reads the file then calls parse_topology_conf(); unreadable file -> TopologyError. */
Topology read_topology_conf(const std::string &path);

/**
 * Parses a hostfile (hostfile.cpp; syntax in HOSTS.md): one host per line,
 * `host`, `host:N` (Hydra) or `host slots=N` (Open MPI), optionally followed
 * by `sockets=S` (or `numa=S`: S sockets / NUMA domains, slots filled socket
 * by socket) or `hwloc=FILE` (an `lstopo --of xml` file, relative to the
 * hostfile's directory: its packages are the sockets, its cores the default
 * slots); `#` comments, blank lines ignored; a host without a count has 1
 * slot. `hwloc_all` (`--hwloc FILE`), when not empty, applies to every line
 * that gives neither sockets= nor hwloc=. Errors (TopologyError, `path:line`
 * and the fix): zero, negative or non-numeric counts, a host listed twice,
 * an unknown key, slots or sockets given twice, sockets= with hwloc=, sockets
 * not dividing the slots, more slots per socket than the XML's cores, an
 * unreadable or invalid XML, no host.
 */
std::vector<Host> parse_hostfile(const std::string &text, const std::string &path,
                                 const std::string &hwloc_all = "");
std::vector<Host> read_hostfile(const std::string &path, const std::string &hwloc_all = "");

/**
 * Attaches the hostfile's hosts to the topology and builds links and routes;
 * a host with sockets > 1 becomes that many entries of Topology::hosts (Host).
 * Errors (TopologyError): a host that is not a node of the topology (names
 * both files), fewer slots than `nranks` (when nranks > 0).
 */
void attach_hosts(Topology &topo, std::vector<Host> hosts, const TopologyParams &params,
                  const std::string &hostfile_path, int nranks);

}  // namespace arcoll::placement

#endif
