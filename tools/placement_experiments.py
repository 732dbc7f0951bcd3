#!/usr/bin/env python3
"""Placement experiments of issue 4 (driver of tools/placement-experiments.sh).

For every setting and workload (test/workloads/, the patterns of seed
001_6a837e3d9ad6c429.txt's three programs):

 1. profile the workload once under SimGrid SMPI with the arcoll profiler
    (nested SMPI build: <build>/smpi/test/workloads/<w>_prof linked with
    <build>/smpi/profiler/libarcoll_profiler.so, privatised with
    --cfg=smpi/privatize-libs), in-order placement -> a trace;
 2. run `arcoll place` for each strategy (identity, hopbytes, metis, scotch,
    refined), starting from the in-order mapping (settings `seed001`,
    `fattree4096`) or from a random one as a batch scheduler may give
    (settings `*-random`, issue 4's setting 3), writing one host per rank
    (`--format slurm`, which is also an smpirun -hostfile);
 3. rerun the plain workload under SMPI with each mapping; the simulated
    communication time is the workload's `comm_time_s` (the largest time a
    rank spent in the timed communication, simulated seconds);
 4. fidelity: over >= --fidelity-mappings distinct mappings (the strategies'
    and random ones), the Spearman rank correlation between the model's
    estimated time (`arcoll place --evaluate`) and the simulated time.

The platform the simulation uses is generated at every run from the same
topology.conf + hostfile + link parameters (tools/platforms/placement/
<setting>.{topology.conf,hosts,params}) that `arcoll place` reads, by
tools/topo2platform.py, so both see one machine.

Every MPI launch is serialised with `flock /tmp/arcoll-mpi.lock` and bounded
by `timeout`. Output: the tables on stdout and, under --out, the traces,
mappings, logs and results.json.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

from placement_tables import print_tables, spearman

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAT = os.path.join(REPO, "tools", "platforms", "placement")
LOCK = "/tmp/arcoll-mpi.lock"
# Rows of the table: (label, `arcoll place --strategy`, `--contention`). "refined" minimises seed 001's
# collision-count cost; "refined-vol" the volume variant (cost.hpp, Contention::Volume); "refined-fluid"
# the max-min fair-sharing model (fluid.hpp); "refined-blend" the blend of the volume model with the
# links' mean busy time (cost.hpp, Contention::Blend), the best ranked against SMPI for irregular volumes.
STRATEGIES = [("identity", "identity", "count"), ("hopbytes", "hopbytes", "count"), ("metis", "metis", "count"),
              ("scotch", "scotch", "count"), ("refined", "refined", "count"), ("refined-vol", "refined", "volume"),
              ("refined-fluid", "refined", "fluid"), ("refined-blend", "refined", "blend")]
# The other cost models whose fidelity (Spearman vs SMPI) is printed beside seed 001's.
ALT_MODELS = ("volume", "fluid", "blend")

# Workload arguments per machine. seed001: 32 ranks (16 nodes x 2), seed 001's
# scale. fattree4096: 4096 ranks; the doubling all-to-all needs P*P*B bytes per
# rank, so the hypercube variant (same partners rank ^ 2^k) is used there.
WORKLOADS = {
    "seed001": {
        "rd_alltoall": ["-a", "doubling", "-b", "2048", "-i", "2"],
        "cg_like": ["-n", "16384", "-i", "2"],
        "umt_like": ["-b", "8192", "-i", "2"],
    },
    # node16: 64 ranks (4 nodes x 16), the 32-rank arguments.
    "node16": {
        "rd_alltoall": ["-a", "doubling", "-b", "2048", "-i", "2"],
        "cg_like": ["-n", "16384", "-i", "2"],
        "umt_like": ["-b", "8192", "-i", "2"],
    },
    "fattree1024": {
        "rd_alltoall": ["-a", "hypercube", "-b", "256", "-i", "1"],
        "cg_like": ["-n", "8192", "-i", "1"],
        "umt_like": ["-b", "4096", "-i", "1", "-g", "1"],
    },
    "fattree4096": {
        "rd_alltoall": ["-a", "hypercube", "-b", "64", "-i", "1"],
        "cg_like": ["-n", "4096", "-i", "1"],
        "umt_like": ["-b", "2048", "-i", "1", "-g", "1"],
    },
}
# setting name -> (machine, initial mapping)
SETTINGS = {
    "seed001": ("seed001", "in-order"),
    "seed001-random": ("seed001", "random"),
    "node16": ("node16", "in-order"),
    "node16-random": ("node16", "random"),
    "fattree1024": ("fattree1024", "in-order"),
    "fattree1024-random": ("fattree1024", "random"),
    "fattree4096": ("fattree4096", "in-order"),
    "fattree4096-random": ("fattree4096", "random"),
}


class ExperimentError(Exception):
    pass


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def workload_fields(stdout):
    """The key=value fields of a workload's `WORKLOAD ...` line (test/workloads/wl_common.h) when the line
    is there and says status=OK, else None."""
    mres = re.search(r"^WORKLOAD .*$", stdout, re.M)
    if not mres or "status=OK" not in mres.group(0):
        return None
    return dict(t.split("=", 1) for t in mres.group(0).split()[1:] if "=" in t)


class Runner:
    def __init__(self, a):
        self.a = a
        self.build = os.path.abspath(a.build)
        self.out = os.path.abspath(a.out)
        self.arcoll = os.path.join(self.build, "tools", "arcoll")
        self.wl_dir = os.path.join(self.build, "smpi", "test", "workloads")
        self.prof_lib = os.path.join(self.build, "smpi", "profiler", "libarcoll_profiler.so")
        self.smpirun = shutil.which("smpirun")
        self.results = {"settings": {}, "commands": []}
        self.check_tools()
        # Private copy: a rebuild during the (long) run must not swap the binary under it.
        os.makedirs(self.out, exist_ok=True)
        private = os.path.join(self.out, "arcoll")
        shutil.copy2(self.arcoll, private)
        self.arcoll = private

    # -- prerequisites -----------------------------------------------------------
    def check_tools(self):
        missing = []
        if not self.smpirun:
            missing.append("smpirun (SimGrid; apt-get install libsimgrid-dev simgrid)")
        if not os.access(self.arcoll, os.X_OK):
            missing.append(f"{self.arcoll} (build the target arcoll_cli)")
        for w in WORKLOADS["seed001"]:
            for suffix in ("", "_prof"):
                p = os.path.join(self.wl_dir, w + suffix)
                if not os.access(p, os.X_OK):
                    missing.append(f"{p} (build the nested SMPI build: cmake --build {self.build} --target arcoll_smpi)")
        if not os.path.exists(self.prof_lib):
            missing.append(f"{self.prof_lib} (nested SMPI build of profiler/)")
        if missing:
            raise ExperimentError("missing prerequisites:\n  " + "\n  ".join(missing))
        help_text = subprocess.run([self.arcoll, "place", "--help"], capture_output=True, text=True).stdout
        self.has = {opt: opt in help_text for opt in ("--strategy", "--evaluate", "--initial", "--json", "--max-evals",
                                                      "--contention", "--path-overlap-weight")}
        if not self.has["--json"]:
            raise ExperimentError(f"{self.arcoll} place has no --json option; this script needs it to read costs")
        if not self.has["--strategy"]:
            log("WARNING: `arcoll place` has no --strategy: only its best mapping is simulated")
        if not self.has["--initial"]:
            log("WARNING: `arcoll place` has no --initial: the *-random settings are skipped")
        if not self.has["--evaluate"]:
            log("WARNING: `arcoll place` has no --evaluate: the fidelity (Spearman) is not computed")

    # -- commands ----------------------------------------------------------------
    def run(self, cmd, timeout, env=None, log_path=None):
        self.results["commands"].append(" ".join(cmd))
        t0 = time.time()
        # Behind `flock LOCK timeout T`, the simulation is bounded by `timeout` once the lock is
        # held; the wait for the lock (other MPI jobs of the machine) is not bounded here.
        limit = None if cmd[:2] == ["flock", LOCK] else timeout + 60
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=limit)
        except subprocess.TimeoutExpired:
            raise ExperimentError(f"{cmd[0]} did not finish in {limit} s: {' '.join(cmd)}")
        if log_path:
            with open(log_path, "w") as f:
                f.write("$ " + " ".join(cmd) + "\n" + p.stdout + "\n--- stderr ---\n" + p.stderr)
        return p, time.time() - t0

    def machine_files(self, machine):
        base = os.path.join(PLAT, machine)
        params = []
        with open(base + ".params") as f:
            for line in f:
                if not line.lstrip().startswith("#"):
                    params += line.split()
        d = os.path.join(self.out, machine)
        os.makedirs(d, exist_ok=True)
        xml, hosts = os.path.join(d, "platform.xml"), os.path.join(d, "inorder.hosts")
        cmd = [sys.executable, os.path.join(REPO, "tools", "topo2platform.py"), "--topology", base + ".topology.conf",
               "--hosts", base + ".hosts", "-o", xml, "--smpi-hostfile", hosts] + params
        p, _ = self.run(cmd, 60)
        if p.returncode != 0:
            raise ExperimentError(f"topo2platform failed: {p.stderr.strip()}")
        nranks = sum(1 for _ in open(hosts))
        return {"topology": base + ".topology.conf", "hosts": base + ".hosts", "params": params, "xml": xml,
                "inorder": hosts, "nranks": nranks, "dir": d}

    def smpi(self, m, hostfile, prog, args, log_path, trace=None):
        """Runs one workload under SMPI; returns the simulated comm time (s)."""
        cmd = ["flock", LOCK, "timeout", str(self.a.sim_timeout), self.smpirun, "-platform", m["xml"],
               "-hostfile", hostfile, "-np", str(m["nranks"]), "--cfg=smpi/simulate-computation:no",
               "--log=root.thres:critical"]
        env = dict(os.environ)
        if trace:
            cmd.append(f"--cfg=smpi/privatize-libs:{self.prof_lib}")
            env["ARCOLL_TRACE"] = trace
            env["ARCOLL_PAPI"] = "0"
        cmd += [os.path.join(self.wl_dir, prog)] + args
        p, wall = self.run(cmd, self.a.sim_timeout, env=env, log_path=log_path)
        kv = workload_fields(p.stdout)
        if p.returncode != 0 or kv is None:
            raise ExperimentError(f"SMPI run failed (exit {p.returncode}), see {log_path}")
        return float(kv["comm_time_s"]), wall

    def place(self, m, trace, out_map, strategy, initial, seed, log_path, contention="count", extra=()):
        cmd = [self.arcoll, "place", trace, "--topology", m["topology"], "--hosts", m["hosts"], "--json",
               "--seed", str(seed), "--time-limit", str(self.a.time_limit)] + m["params"]
        if self.has["--contention"]:
            cmd += ["--contention", contention]
        if self.has["--max-evals"] and self.a.max_evals > 0:
            cmd += ["--max-evals", str(self.a.max_evals)]
        if strategy and self.has["--strategy"]:
            cmd += ["--strategy", strategy]
        if initial != "in-order" and self.has["--initial"]:
            cmd += ["--initial", initial]
        cmd += list(extra) + ["--format", "slurm", "-o", out_map]
        p, wall = self.run(cmd, 600, log_path=log_path)
        if p.returncode != 0:
            raise ExperimentError(f"arcoll place failed (exit {p.returncode}): {p.stderr.strip()} (log {log_path})")
        j = json.loads(p.stdout)
        chosen = j.get("chosen")
        st = next((s for s in j["stages"] if s["name"] == chosen), None)
        if st is None:
            raise ExperimentError(f"arcoll place --json: chosen stage {chosen!r} not among the stages ({log_path})")
        return st, j, wall

    def evaluate(self, m, trace, map_path, contention="count", fluid_path=False):
        cmd = [self.arcoll, "place", trace, "--topology", m["topology"], "--hosts", m["hosts"], "--json",
               "--evaluate", map_path] + m["params"]
        if fluid_path and self.has["--path-overlap-weight"]:  # also the fluid path and the path score
            cmd += ["--fluid-path"]
        if self.has["--contention"]:
            cmd += ["--contention", contention]
        p, _ = self.run(cmd, 600)
        if p.returncode != 0:
            raise ExperimentError(f"arcoll place --evaluate {map_path} failed: {p.stderr.strip()}")
        return json.loads(p.stdout)["evaluate"]

    # -- one setting -------------------------------------------------------------
    def setting(self, name, workloads):
        machine, initial_kind = SETTINGS[name]
        m = self.machine_files(machine)
        d = os.path.join(self.out, name)
        os.makedirs(d, exist_ok=True)
        res = {"machine": machine, "initial": initial_kind, "ranks": m["nranks"], "workloads": {}}
        self.results["settings"][name] = res
        for w in workloads:
            args = WORKLOADS[machine][w]
            wd = os.path.join(d, w)
            os.makedirs(wd, exist_ok=True)
            trace = os.path.join(self.out, machine, w + ".arctrace")
            if not os.path.exists(trace):
                log(f"[{name}] {w}: profiling ({m['nranks']} ranks, in-order)")
                t_prof, wall = self.smpi(m, m["inorder"], w + "_prof", args, os.path.join(self.out, machine,
                                                                                          w + ".profile.log"), trace)
                log(f"[{name}] {w}: trace {trace} (simulated comm time {t_prof:.6e} s, {wall:.1f} s wall)")
            initial = "in-order" if initial_kind == "in-order" else "random"
            rows = []
            strategies = STRATEGIES if self.has["--strategy"] else [("best", None, "count")]
            if not self.has["--contention"]:
                strategies = [x for x in strategies if x[2] == "count"]
            strategies = [x for x in strategies if x[0] in self.a.rows or x[0] == "best"]
            for label, s, contention in strategies:
                mp = os.path.join(wd, f"{label}.hosts")
                st, j, place_wall = self.place(m, trace, mp, s, initial, self.a.seed, mp + ".place.log", contention)
                sim, wall = self.smpi(m, mp, w, args, mp + ".smpi.log")
                if contention != "count":   # the table's model column is always seed 001's cost
                    ev = self.evaluate(m, trace, mp)
                    st = dict(st, time_s=ev["time_s"], hop_bytes=ev["hop_bytes"], max_congestion=ev["max_congestion"])
                rows.append({"strategy": label, "stage": st["name"], "model_s": st["time_s"],
                             "hop_bytes": st["hop_bytes"], "max_congestion": st["max_congestion"],
                             "map_seconds": st.get("seconds", place_wall), "sim_s": sim, "sim_wall_s": wall,
                             "mapping": mp})
                log(f"[{name}] {w} {label}: model {st['time_s']:.6e} s, simulated {sim:.6e} s "
                    f"({wall:.1f} s wall)")
            res["workloads"][w] = {"args": args, "trace": trace, "rows": rows}
            if self.has["--evaluate"] and self.has["--initial"] and self.a.fidelity_mappings > 0:
                res["workloads"][w]["fidelity"] = self.fidelity(m, trace, w, args, wd, rows)
        return res

    def fidelity(self, m, trace, w, args, wd, rows):
        """Model cost vs simulated time over >= N distinct mappings."""
        pts, seen = [], set()
        def add(map_path, label, sim=None):
            key = open(map_path).read()
            if key in seen:
                return
            seen.add(key)
            ev = self.evaluate(m, trace, map_path, fluid_path=True)
            pt = {"label": label, "mapping": os.path.basename(map_path), "model_s": ev["time_s"],
                  "hop_bytes": ev["hop_bytes"],
                  # the chooser's path opinion's score (placement/place.hpp PathOpinion); NaN: no receives
                  "path_score_s": ev.get("path_score_s", float("nan"))}
            for c in ALT_MODELS:  # the fluid model is slow: 256 ranks at most
                ok = self.has["--contention"] and (c != "fluid" or m["nranks"] <= 256)
                pt[f"model_{c}_s"] = self.evaluate(m, trace, map_path, c)["time_s"] if ok else float("nan")
            if sim is None:
                sim, _ = self.smpi(m, map_path, w, args, map_path + ".smpi.log")
            pt["sim_s"] = sim
            pts.append(pt)
        for r in rows:
            add(r["mapping"], r["strategy"], r["sim_s"])
        k = 0
        while len(pts) < self.a.fidelity_mappings and k < 4 * self.a.fidelity_mappings:
            k += 1
            mp = os.path.join(wd, f"random{k}.hosts")
            self.place(m, trace, mp, "identity", "random", 1000 + k, mp + ".place.log")
            add(mp, f"random seed {1000 + k}")
        sims = [p["sim_s"] for p in pts]
        res = {"points": pts, "spearman": spearman([p["model_s"] for p in pts], sims)}
        for c in ALT_MODELS:
            res[f"spearman_{c}"] = spearman([p[f"model_{c}_s"] for p in pts], sims)
        res["spearman_hop_bytes"] = spearman([p["hop_bytes"] for p in pts], sims)
        res["spearman_path_score"] = spearman([p["path_score_s"] for p in pts], sims)
        log(f"fidelity {w}: {len(pts)} mappings, Spearman(model, sim) = {res['spearman']:.3f}, " +
            "".join(f"({c} model, sim) = {res[f'spearman_{c}']:.3f}, " for c in ALT_MODELS) +
            f"(hop-bytes, sim) = {res['spearman_hop_bytes']:.3f}")
        return res


def main(argv):
    ap = argparse.ArgumentParser(description="Placement experiments of issue 4 (SMPI simulated time).")
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="build directory (MPICH build with the "
                    "nested SMPI build in <build>/smpi)")
    ap.add_argument("--out", default="placement-results", help="directory for traces, mappings, logs, results.json")
    ap.add_argument("--settings", default=None, help="comma-separated, from " + ",".join(SETTINGS) +
                    " (default: the seed001 and fattree1024 ones; seed001 only with --quick; fattree4096 is opt-in: "
                    "SMPI needed 317 s for one cg_like iteration at 4096 ranks)")
    ap.add_argument("--workloads", default="rd_alltoall,cg_like,umt_like")
    ap.add_argument("--strategies", default=None,
                    help="comma-separated rows to run, from " + ",".join(x[0] for x in STRATEGIES) +
                    " (default: all; identity, the base of the gains, always runs; e.g. leave refined-fluid out at 4096 "
                    "ranks, where one fluid evaluation is slow)")
    ap.add_argument("--quick", action="store_true", help="32-rank settings only, 20 fidelity mappings")
    ap.add_argument("--fidelity-mappings", type=int, default=20, help="distinct mappings per workload (0 = skip)")
    ap.add_argument("--fidelity-at-scale", action="store_true",
                    help="also compute the fidelity on the fat-tree settings (1024/4096 ranks; slow: one simulation "
                    "per mapping; by default only the 32-rank settings get it)")
    ap.add_argument("--time-limit", type=float, default=5.0, help="arcoll place --time-limit, seconds")
    ap.add_argument("--max-evals", type=int, default=0, help="arcoll place --max-evals (0 = none)")
    ap.add_argument("--seed", type=int, default=1, help="arcoll place --seed (also the random initial mapping)")
    ap.add_argument("--sim-timeout", type=int, default=900, help="seconds per SMPI run")
    a = ap.parse_args(argv)
    names = (a.settings.split(",") if a.settings else
             ["seed001", "seed001-random"] if a.quick else
             ["seed001", "seed001-random", "fattree1024", "fattree1024-random"])
    for n in names:
        if n not in SETTINGS:
            print(f"placement-experiments: unknown setting {n!r}; use {', '.join(SETTINGS)}", file=sys.stderr)
            return 2
    known = [x[0] for x in STRATEGIES]
    a.rows = a.strategies.split(",") if a.strategies else known
    if "identity" not in a.rows:  # the base of the gains
        a.rows.insert(0, "identity")
    for x in a.rows:
        if x not in known:
            print(f"placement-experiments: unknown strategy {x!r}; use {', '.join(known)}", file=sys.stderr)
            return 2
    workloads = a.workloads.split(",")
    for w in workloads:
        if w not in WORKLOADS["seed001"]:
            print(f"placement-experiments: unknown workload {w!r}", file=sys.stderr)
            return 2
    try:
        r = Runner(a)
        os.makedirs(r.out, exist_ok=True)
        t0 = time.time()
        for n in names:
            fm = a.fidelity_mappings
            if SETTINGS[n][0] not in ("seed001", "node16") and not a.fidelity_at_scale:
                a.fidelity_mappings = 0
            r.setting(n, workloads)
            a.fidelity_mappings = fm
        r.results["wall_seconds"] = time.time() - t0
        with open(os.path.join(r.out, "results.json"), "w") as f:
            json.dump(r.results, f, indent=1)
        print_tables(r.results, ALT_MODELS)
        print(f"\nresults: {os.path.join(r.out, 'results.json')} ({r.results['wall_seconds']:.0f} s)")
    except ExperimentError as e:
        print(f"placement-experiments: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
