#!/usr/bin/env python3
"""topo2platform: SimGrid platform (XML) from a Slurm topology.conf + hostfile.

The platform describes the same machine as `arcoll place` sees (placement/
topology.hpp), so that simulated times under SMPI and the placement's cost
model (seed 001_6a837e3d9ad6c429.txt) talk about one machine:

  * every switch becomes a router `sw-<name>`; every host of the hostfile a
    SimGrid host with `core=<slots>`;
  * every tree edge (host -> its switch, switch -> parent switch) becomes one
    SPLITDUPLEX link (one capacity per direction, like arcoll's up/down
    directed links); routes go up to the lowest common switch and down
    (routing="Floyd" for small trees, "Dijkstra" above 512 vertices; the tree
    has a unique shortest path);
  * every host gets a SHARED loopback link (arcoll's node-internal link);
  * bandwidths and latencies follow arcoll's rules and options exactly:
    levels `intra`, `node` (host <-> leaf switch) and `switch` (switch <->
    switch), defaults 0.3/1/1 us and 160/100/100 Gbit/s; a switch's LinkSpeed
    (x --linkspeed-gbps Gbit/s) sets the bandwidth of the links between that
    switch and its children.

Usage:
  topo2platform.py --topology topology.conf --hosts hosts.txt -o platform.xml
                   [--latency-us LEVEL=US]... [--bandwidth-gbps LEVEL=GBIT]...
                   [--linkspeed-gbps X] [--speed 1Gf]
  topo2platform.py ... --smpi-hostfile FILE   # also write one host per slot (in-order mapping)

Only the hosts of the hostfile are put in the platform (other nodes of the
topology.conf are left out, their switches stay as routers). Errors name the
file and line and exit with status 2.
"""
import argparse
import os
import re
import sys

DEFAULTS = {"intra": (0.3, 160.0), "node": (1.0, 100.0), "switch": (1.0, 100.0)}  # (us, Gbit/s)


class InputError(Exception):
    pass


def expand_hostlist(expr, where):
    """Slurm hostlist expression -> names (same rules as placement/topology.hpp)."""
    items, depth, cur = [], 0, ""
    for ch in expr:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise InputError(f"{where}: unbalanced ']' in hostlist \"{expr}\"")
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    if depth != 0:
        raise InputError(f"{where}: unbalanced '[' in hostlist \"{expr}\"")
    items.append(cur)
    out = []
    for item in items:
        if not item:
            raise InputError(f"{where}: empty item in hostlist \"{expr}\"")
        names = [""]
        for part in re.split(r"(\[[^\]]*\])", item):
            if part.startswith("["):
                alts = []
                for rng in part[1:-1].split(","):
                    m = re.fullmatch(r"(\d+)(?:-(\d+))?", rng)
                    if not m:
                        raise InputError(f"{where}: bad range \"{rng}\" in hostlist \"{expr}\"")
                    lo, hi = m.group(1), m.group(2) or m.group(1)
                    if int(hi) < int(lo):
                        raise InputError(f"{where}: range \"{rng}\" goes down in hostlist \"{expr}\"")
                    alts += [str(v).zfill(len(lo)) for v in range(int(lo), int(hi) + 1)]
                names = [n + a for n in names for a in alts]
            else:
                names = [n + part for n in names]
        out += names
    return out


def parse_topology(path):
    """-> (switches: name -> dict(nodes, switches, linkspeed, where), order)."""
    try:
        text = open(path).read()
    except OSError as e:
        raise InputError(f"{path}: cannot read the topology file ({e.strerror})")
    sw = {}
    for ln, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{path}:{ln}"
        d = {}
        for tok in line.split():
            if "=" not in tok:
                raise InputError(f"{where}: expected KEY=VALUE, got \"{tok}\"")
            k, v = tok.split("=", 1)
            d[k.lower()] = v
        unknown = set(d) - {"switchname", "nodes", "switches", "linkspeed"}
        if unknown:
            raise InputError(f"{where}: unknown key(s) {sorted(unknown)}; use SwitchName, Nodes, Switches, LinkSpeed")
        if "switchname" not in d:
            raise InputError(f"{where}: missing SwitchName=")
        name = d["switchname"]
        if name in sw:
            raise InputError(f"{where}: switch {name} defined twice (first at {sw[name]['where']})")
        ls = float(d["linkspeed"]) if "linkspeed" in d else 0.0
        if "linkspeed" in d and ls <= 0:
            raise InputError(f"{where}: LinkSpeed must be positive")
        sw[name] = {"nodes": expand_hostlist(d["nodes"], where) if "nodes" in d else [],
                    "switches": expand_hostlist(d["switches"], where) if "switches" in d else [],
                    "linkspeed": ls, "where": where}
    if not sw:
        raise InputError(f"{path}: no switch defined")
    parent = {}
    for name, s in sw.items():
        for c in s["switches"]:
            if c not in sw:
                raise InputError(f"{s['where']}: child switch {c} is not defined")
            if c in parent:
                raise InputError(f"{s['where']}: switch {c} is already a child of {parent[c]}")
            parent[c] = name
    roots = [n for n in sw if n not in parent]
    if len(roots) != 1:
        raise InputError(f"{path}: expected one root switch, found {roots or 'none (cycle)'}")
    return sw, roots[0]


def parse_hostfile(path):
    try:
        text = open(path).read()
    except OSError as e:
        raise InputError(f"{path}: cannot read the hostfile ({e.strerror})")
    hosts = []
    for ln, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        # sockets=S / numa=S / hwloc=FILE (placement/HOSTS.md): the platform has no intra-host structure
        if re.search(r"\s(?i:hwloc)=", line) and not re.search(r":\d|\s(?i:slots)=", line):
            raise InputError(f"{path}:{ln}: hwloc= without a slot count; give slots=N too (this tool does not "
                             "read the XML's cores)")
        line = re.sub(r"\s+(?i:sockets|numa|hwloc)=\S+", "", line)
        m = re.fullmatch(r"(\S+?)(?::(\S+)|\s+slots=(\S+))?", line)
        if not m:
            raise InputError(f"{path}:{ln}: expected host, host:N or host slots=N [sockets=S]")
        cnt = m.group(2) or m.group(3) or "1"
        if not cnt.isdigit() or int(cnt) < 1:
            raise InputError(f"{path}:{ln}: slots must be a positive integer, got \"{cnt}\"")
        if any(h == m.group(1) for h, _ in hosts):
            raise InputError(f"{path}:{ln}: host {m.group(1)} listed twice")
        hosts.append((m.group(1), int(cnt)))
    if not hosts:
        raise InputError(f"{path}: no host")
    return hosts


def parse_levels(items, option, latency):
    out = {}
    for it in items or []:
        m = re.fullmatch(r"(intra|node|switch)=([0-9.eE+-]+)", it)
        if not m or (float(m.group(2)) < 0 if latency else float(m.group(2)) <= 0):
            raise InputError(f"{option} {it}: expected LEVEL=VALUE with LEVEL intra, node or switch "
                             f"and a {'non-negative' if latency else 'positive'} number")
        out[m.group(1)] = float(m.group(2))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--topology", required=True)
    ap.add_argument("--hosts", required=True)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--latency-us", action="append")
    ap.add_argument("--bandwidth-gbps", "--bandwidth", action="append")
    ap.add_argument("--linkspeed-gbps", type=float, default=1.0)
    ap.add_argument("--speed", default="1Gf", help="host speed (flop/s), SimGrid syntax")
    ap.add_argument("--smpi-hostfile", help="also write an SMPI hostfile: one line per slot, hosts in order")
    a = ap.parse_args(argv)
    try:
        lat = {k: v[0] for k, v in DEFAULTS.items()}
        bw = {k: v[1] for k, v in DEFAULTS.items()}
        lat.update(parse_levels(a.latency_us, "--latency-us", True))
        bw.update(parse_levels(a.bandwidth_gbps, "--bandwidth-gbps", False))
        if a.linkspeed_gbps <= 0:
            raise InputError("--linkspeed-gbps must be > 0")
        sw, root = parse_topology(a.topology)
        hosts = parse_hostfile(a.hosts)
        host_parent = {}
        for name, s in sw.items():
            for h in s["nodes"]:
                if h in host_parent:
                    raise InputError(f"{s['where']}: host {h} is already under switch {host_parent[h]}")
                host_parent[h] = name
        for h, _ in hosts:
            if h not in host_parent:
                raise InputError(f"{a.hosts}: host {h} is not a node of any switch in {a.topology}")
    except InputError as e:
        print(f"topo2platform: error: {e}", file=sys.stderr)
        return 2

    def gbps(v):
        return f"{v:.6g}Gbps"

    def us(v):
        return f"{v:.6g}us"

    def child_bw(parent_sw, level):
        ls = sw[parent_sw]["linkspeed"]
        return ls * a.linkspeed_gbps if ls > 0 else bw[level]

    used_sw = set()
    for h, _ in hosts:
        s = host_parent[h]
        while s is not None and s not in used_sw:
            used_sw.add(s)
            s = next((p for p, d in sw.items() if s in d["switches"]), None)
    sw_parent = {c: p for p, d in sw.items() for c in d["switches"]}
    nvert = len(hosts) + len(used_sw)
    routing = "Floyd" if nvert <= 512 else "Dijkstra"
    L = ['<?xml version="1.0"?>',
         '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">',
         f'<!-- Generated by tools/topo2platform.py from {os.path.basename(a.topology)} and {os.path.basename(a.hosts)}; do not edit.',
         f'     levels: intra {lat["intra"]} us {bw["intra"]} Gbit/s, node {lat["node"]} us {bw["node"]} Gbit/s, '
         f'switch {lat["switch"]} us {bw["switch"]} Gbit/s; linkspeed x{a.linkspeed_gbps} Gbit/s -->',
         '<platform version="4.1">',
         f'  <zone id="machine" routing="{routing}">']
    for h, n in hosts:
        L.append(f'    <host id="{h}" speed="{a.speed}" core="{n}"/>')
    for s in sorted(used_sw):
        L.append(f'    <router id="sw-{s}"/>')
    for h, _ in hosts:
        L.append(f'    <link id="{h}-net" bandwidth="{gbps(child_bw(host_parent[h], "node"))}" '
                 f'latency="{us(lat["node"])}" sharing_policy="SPLITDUPLEX"/>')
        L.append(f'    <link id="{h}-loop" bandwidth="{gbps(bw["intra"])}" latency="{us(lat["intra"])}" '
                 f'sharing_policy="SHARED"/>')
    for s in sorted(used_sw):
        if s in sw_parent:
            L.append(f'    <link id="sw-{s}-up" bandwidth="{gbps(child_bw(sw_parent[s], "switch"))}" '
                     f'latency="{us(lat["switch"])}" sharing_policy="SPLITDUPLEX"/>')
    for h, _ in hosts:
        L.append(f'    <route src="{h}" dst="{h}" symmetrical="NO"><link_ctn id="{h}-loop"/></route>')
        L.append(f'    <route src="{h}" dst="sw-{host_parent[h]}"><link_ctn id="{h}-net" direction="UP"/></route>')
    for s in sorted(used_sw):
        if s in sw_parent:
            L.append(f'    <route src="sw-{s}" dst="sw-{sw_parent[s]}"><link_ctn id="sw-{s}-up" direction="UP"/></route>')
    L += ['  </zone>', '</platform>', '']
    with open(a.output, "w") as f:
        f.write("\n".join(L))
    if a.smpi_hostfile:
        with open(a.smpi_hostfile, "w") as f:
            for h, n in hosts:
                f.write((h + "\n") * n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
