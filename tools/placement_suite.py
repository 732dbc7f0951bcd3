#!/usr/bin/env python3
"""Placement chooser suite (`tools/placement-experiments.sh --suite`).

Does the mapping `arcoll place` writes by default come close to the best
mapping it computed? For every workload of the suite (test/workloads/; the
scrambled ring and 2-D / 3-D halos, whose good mappings differ mostly in link loads,
and seed 001's three), on settings of tools/placement_experiments.py
(`--machines seed001,node16` = each machine from the in-order and from a
random initial mapping; or `--settings LIST`; default seed001: 16 nodes x 2
slots, 4 leaves, 4:1 oversubscribed uplinks; node16: 4 nodes x 16 slots with
a shared 16 Gbit/s node-internal link; fattree1024: 1024 ranks, tiny
messages, a subset of the workloads):

 1. profile the workload under SMPI (in-order), giving a trace;
 2. `arcoll place --strategy S` for S = identity, hopbytes, metis, scotch,
    metis_time, refined (older results without the metis_time row print "-"), and the default `--strategy best` with `--contention count`
    (the default) and `--contention blend`; each mapping is simulated under
    SMPI (a default choice equal to a strategy's mapping reuses its run);
 2b. with --extra-rows, opt-in strategies the default does not compute
    (metis_tree: METIS along the switch tree; refined_blocks: the refinement
    with --block-moves) are placed and simulated the same way, printed in a
    table of their own against the best of the rows of step 2, and added to
    the fidelity's mappings;
 3. print per workload the SMPI communication time of every strategy relative
    to identity (the initial mapping), the stage the default picked (`*`; `b`
    for the blend model's pick), and whether the pick is within 5 % of the
    best strategy's SMPI time and not worse than identity by more than 1 %
    (issue 18's targets);
 4. fidelity per workload: Spearman rank correlation between the model's
    estimated time (`arcoll place --evaluate`, count and blend models) and
    the SMPI time over the distinct mappings of the strategies plus random
    mappings up to --fidelity-mappings (placement_experiments.Runner.fidelity,
    the same random mappings, seeds 1001.., as the issue-4 experiments).

SMPI times are cached by (machine, program, arguments, mapping text) in
<out>/smpi-cache.json: a mapping two strategies or two settings share is
simulated once (SMPI times are deterministic).

All MPI launches go through placement_experiments.Runner (flock
/tmp/arcoll-mpi.lock + timeout). Results: <out>/suite.json.
"""
import argparse
import hashlib
import json
import os
import sys

from placement_experiments import SETTINGS, WORKLOADS, ExperimentError, Runner, log

ROWS = ["identity", "hopbytes", "metis", "scotch", "metis_time", "refined"]
# Opt-in strategies measured beside the rows (--extra-rows): row -> (arcoll place --strategy, further options).
# They are not among the stages `--strategy best` computes, so the "best strategy" of the 5 % target stays
# the best of ROWS; the extra table compares each with it.
EXTRA_ROWS = {"metis_tree": ("metis_tree", []), "refined_blocks": ("refined", ["--block-moves"])}
# Suite workloads on the 32-rank machine: program -> arguments.
SUITE = {
    "ring_scrambled": ["-b", "131072", "-i", "40"],
    "halo2d_scrambled": ["-b", "65536", "-i", "20"],
    "halo3d_scrambled": ["-b", "65536", "-i", "20"],
    "wavefront": ["-b", "65536", "-i", "8"],
    "master_worker": ["-b", "65536", "-i", "10"],
    "sparse_random": ["-b", "32768", "-i", "10"],
    "rd_alltoall": WORKLOADS["seed001"]["rd_alltoall"],
    "cg_like": WORKLOADS["seed001"]["cg_like"],
    "umt_like": WORKLOADS["seed001"]["umt_like"],
    "scalapack_lu": [],   # replayed, see REPLAYED
}
# Workloads recorded from a real program on MPICH and replayed under SMPI (test/workloads/trace_replay.cpp):
# workload -> machine -> trace in test/workloads/traces/ (.arctrace.zst). scalapack_lu: Debian
# scalapack-mpi-test's xdlu, LU of a 1024 x 1024 matrix, NB 32, 8 x 4 / 8 x 8 process grid (tools/record-xdlu.sh).
# The placement reads the recorded trace itself; the replay gives the SMPI time of each mapping.
TRACES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "test", "workloads", "traces")
REPLAYED = {"scalapack_lu": {"seed001": "xdlu-n1024-8x4", "node16": "xdlu-n1024-8x8"}}
# Per machine: the workloads run there and their arguments. node16 (64 ranks) runs the 32-rank
# arguments; fattree1024 (1024 ranks) only a subset with tiny messages and few steps (SMPI's run time).
SUITE_BY_MACHINE = {
    "seed001": SUITE,
    "node16": SUITE,
    "fattree1024": {
        "ring_scrambled": ["-b", "4096", "-i", "4"],
        "halo2d_scrambled": ["-b", "4096", "-i", "2"],
        "halo3d_scrambled": ["-b", "4096", "-i", "2"],
        "rd_alltoall": WORKLOADS["fattree1024"]["rd_alltoall"],
        "cg_like": WORKLOADS["fattree1024"]["cg_like"],
    },
}
# Distinct mappings for the Spearman column (the strategies' + random ones); 1024 ranks: strategies only.
FIDELITY_DEFAULT = {"seed001": 20, "node16": 20, "fattree1024": 0}
WITHIN = 0.05       # the pick within 5 % of the best strategy's SMPI time
NOT_WORSE = 0.01    # and at most 1 % worse than identity


class SuiteRunner(Runner):
    """Runner whose plain (non-profiling) SMPI runs are cached by mapping content in <out>/smpi-cache.json."""

    def __init__(self, a):
        super().__init__(a)
        self.cache_path = os.path.join(self.out, "smpi-cache.json")
        self.cache = json.load(open(self.cache_path)) if os.path.exists(self.cache_path) else {}

    def smpi(self, m, hostfile, prog, args, log_path, trace=None):
        if trace:
            return super().smpi(m, hostfile, prog, args, log_path, trace)
        key = hashlib.sha1("\0".join([m["xml"], prog] + list(args) + [open(hostfile).read()]).encode()).hexdigest()
        if key not in self.cache:
            sim, wall = super().smpi(m, hostfile, prog, args, log_path)
            self.cache[key] = [sim, wall]
            with open(self.cache_path + ".tmp", "w") as f:
                json.dump(self.cache, f)
            os.replace(self.cache_path + ".tmp", self.cache_path)
        return tuple(self.cache[key])


def run_workload(r, setting, w, args, nfid):
    machine, initial = SETTINGS[setting]
    m = r.machine_files(machine)
    wd = os.path.join(r.out, setting, w)
    os.makedirs(wd, exist_ok=True)
    trace = os.path.join(r.out, machine, w + ".arctrace")
    prog = w
    if w in REPLAYED:
        prog, args = "trace_replay", ["-t", trace]
        if not os.path.exists(trace):
            src = os.path.join(TRACES, REPLAYED[w][machine] + ".arctrace.zst")
            p, _ = r.run(["zstd", "-dqf", src, "-o", trace], 120)
            if p.returncode != 0:
                raise ExperimentError(f"zstd -d {src} failed (Debian zstd): {p.stderr.strip()}")
    elif not os.path.exists(trace):
        log(f"[{setting}] {w}: profiling ({m['nranks']} ranks, in-order)")
        r.smpi(m, m["inorder"], w + "_prof", args, os.path.join(r.out, machine, w + ".profile.log"), trace)
    sims, by_text, res = {}, {}, {"args": args, "rows": {}}
    fid_rows = []
    def place_row(row, strategy, opts, table):
        """Place with `strategy` (+ opts), simulate, record as res[table][row]; returns (mapping, SMPI s)."""
        mp = os.path.join(wd, row + ".hosts")
        st, _, _ = r.place(m, trace, mp, strategy, initial, r.a.seed, mp + ".place.log", extra=opts)
        sim, _ = r.smpi(m, mp, prog, args, mp + ".smpi.log")
        fid_rows.append({"mapping": mp, "strategy": row, "sim_s": sim})
        res.setdefault(table, {})[row] = {"sim_s": sim, "model_s": st["time_s"], "hop_bytes": st["hop_bytes"],
                                          "max_congestion": st["max_congestion"]}
        log(f"[{setting}] {w} {row}{' (extra)' if table == 'extra' else ''}: model {st['time_s']:.4e} s, "
            f"maxlink {st['max_congestion']}, SMPI {sim:.4e} s")
        return mp, sim

    for row in ROWS:
        mp, sims[row] = place_row(row, row, [], "rows")
        by_text.setdefault(open(mp).read(), (row, sims[row]))
    for row in r.a.extra_rows:
        place_row(row, *EXTRA_ROWS[row], "extra")
    for model in ("count", "blend"):
        mp = os.path.join(wd, f"best-{model}.hosts")
        st, j, _ = r.place(m, trace, mp, "best", initial, r.a.seed, mp + ".place.log", model)
        text = open(mp).read()
        same, sim = by_text[text] if text in by_text else (None, r.smpi(m, mp, prog, args, mp + ".smpi.log")[0])
        if same is None:
            fid_rows.append({"mapping": mp, "strategy": f"best-{model}", "sim_s": sim})
        # "row": the strategy row whose mapping is the same file (None: a mapping of its own, e.g. the blend
        # model's refinement)
        res[f"best_{model}"] = {"stage": st["name"], "row": same, "sim_s": sim, "stages": j["stages"]}
        log(f"[{setting}] {w} best ({model}): stage {st['name']}, SMPI {sim:.4e} s")
    best = min(sims.values())
    for model in ("count", "blend"):
        b = res[f"best_{model}"]
        b["vs_best"] = b["sim_s"] / best - 1 if best > 0 else 0.0
        b["vs_identity"] = b["sim_s"] / sims["identity"] - 1 if sims["identity"] > 0 else 0.0
        b["ok"] = b["vs_best"] <= WITHIN and b["vs_identity"] <= NOT_WORSE
    r.a.fidelity_mappings = nfid
    f = r.fidelity(m, trace, prog, args, wd, fid_rows)
    res["fidelity"] = {"n": len(f["points"]), "count": f["spearman"], "blend": f["spearman_blend"],
                       "hop_bytes": f["spearman_hop_bytes"], "path_score": f["spearman_path_score"],
                       "points": f["points"]}
    return res


def fmt_rho(x):
    return "-" if x != x else f"{x:.2f}"   # NaN: fewer than 3 distinct mappings, or one side constant


def print_table(setting, results):
    machine, initial = SETTINGS[setting]
    print(f"\n== suite, setting {setting} (machine {machine}, initial mapping {initial}): SMPI communication time / "
          f"identity (* = `arcoll place` default pick, b = pick with --contention blend: same mapping as that row) ==")
    print("| workload | " + " | ".join(ROWS) + " | pick vs best | within 5 % | blend pick | blend pick vs best "
          "| within 5 % | Spearman count / blend / path score (n) |")
    print("|---|" + "---:|" * (len(ROWS) + 6))
    for w, res in results.items():
        base = res["rows"]["identity"]["sim_s"]
        cells = []
        for row in ROWS:
            mark = ("*" if res["best_count"]["row"] == row else "") + ("b" if res["best_blend"]["row"] == row else "")
            cells.append(f"{res['rows'][row]['sim_s'] / base:.3f}{mark}" if base > 0 and row in res["rows"] else "-")
        c, b = res["best_count"], res["best_blend"]
        yes = lambda x: "yes" if x["ok"] else f"**NO** ({100 * x['vs_identity']:+.1f} % vs identity)"
        own = "" if b["row"] else f" (own mapping, {b['sim_s'] / base:.3f})" if base > 0 else " (own mapping)"
        cown = "" if c["row"] else f" (own mapping {c['sim_s'] / base:.3f})" if base > 0 else " (own mapping)"
        f = res.get("fidelity", {})
        rho = " / ".join(fmt_rho(f.get(k, float("nan"))) for k in ("count", "blend", "path_score")) + f" ({f.get('n', 0)})"
        if len({p["sim_s"] for p in f.get("points", [])}) == 1:
            rho = f"SMPI time equal on all ({f['n']})"
        print(f"| {w} | " + " | ".join(cells) + f" | {100 * c['vs_best']:+.1f} %{cown} | {yes(c)} | {b['stage']}{own} | "
              f"{100 * b['vs_best']:+.1f} % | {yes(b)} | {rho} |")
    print("\n(Spearman: model cost vs SMPI time over the n distinct mappings: the strategies', the picks' and random "
          "ones; path score: the path opinion's, placement/place.hpp PathOpinion, traces with receives; "
          "- = undefined)")
    print("\nmodel: est. time (count model, ms) / max link load per strategy")
    for w, res in results.items():
        print(f"  {w}: " + ", ".join(f"{row} {1e3 * res['rows'][row]['model_s']:.3f}/{res['rows'][row]['max_congestion']}"
                                     for row in ROWS if row in res["rows"]))
    ok = sum(res["best_count"]["ok"] for res in results.values())
    print(f"\ndefault pick within 5 % of the best strategy (and <= +1 % vs identity): {ok} of {len(results)} workloads")
    fids = [res["fidelity"] for res in results.values() if "fidelity" in res]
    if fids:
        print("Spearman >= 0.9 (workloads where it is defined): " + ", ".join(
            f"{k.replace('_', ' ')} {sum(f.get(k, 0) >= 0.9 for f in fids)} of "
            f"{sum(f.get(k, float('nan')) == f.get(k, float('nan')) for f in fids)}"
            for k in ("count", "blend", "path_score")))
    print_extra(results)


def print_extra(results):
    """The opt-in rows (--extra-rows): SMPI time / identity, and against the best of ROWS."""
    extra = [x for x in EXTRA_ROWS if any(x in res.get("extra", {}) for res in results.values())]
    if not extra:
        return
    print("\nopt-in strategies (--extra-rows; not among the stages of --strategy best): SMPI time / identity "
          "(vs the best of the rows above)")
    print("| workload | " + " | ".join(extra) + " |")
    print("|---|" + "---:|" * len(extra))
    for w, res in results.items():
        base = res["rows"]["identity"]["sim_s"]
        best = min(r["sim_s"] for r in res["rows"].values())
        cells = []
        for x in extra:
            e = res.get("extra", {}).get(x)
            cells.append("-" if e is None or base <= 0 or best <= 0 else
                         f"{e['sim_s'] / base:.3f} ({100 * (e['sim_s'] / best - 1):+.1f} %)")
        print(f"| {w} | " + " | ".join(cells) + " |")


def main(argv):
    ap = argparse.ArgumentParser(description="Placement chooser suite (SMPI time of every strategy and of the pick).")
    ap.add_argument("--suite", action="store_true", help="(selects this script from placement-experiments.sh)")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                    "build"))
    ap.add_argument("--out", default="placement-suite")
    ap.add_argument("--settings", default="seed001", help="comma-separated settings of placement_experiments.py")
    ap.add_argument("--machines", default=None, help="comma-separated machines (" + ",".join(SUITE_BY_MACHINE) +
                    "); each runs from the in-order and from a random initial mapping (overrides --settings)")
    ap.add_argument("--workloads", default=None, help="comma-separated, from " + ",".join(SUITE) +
                    " (default: all the machine runs; a machine skips the ones it does not run)")
    ap.add_argument("--fidelity-mappings", type=int, default=None,
                    help="distinct mappings for the Spearman column (default per machine: " +
                    ", ".join(f"{k} {v}" for k, v in FIDELITY_DEFAULT.items()) + "; 0 = the strategies' only)")
    ap.add_argument("--extra-rows", default="", help="comma-separated opt-in strategies simulated beside the rows: " +
                    ", ".join(EXTRA_ROWS) + " (default: none)")
    ap.add_argument("--reprint", action="store_true", help="print the tables of <out>/suite.json again, no runs")
    ap.add_argument("--time-limit", type=float, default=5.0)
    ap.add_argument("--max-evals", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sim-timeout", type=int, default=900)
    a = ap.parse_args(argv)
    settings = ([f"{mc}{sfx}" for mc in a.machines.split(",") for sfx in ("", "-random")] if a.machines
                else a.settings.split(","))
    ws = a.workloads.split(",") if a.workloads else list(SUITE)
    a.extra_rows = [x for x in a.extra_rows.split(",") if x]
    bad_rows = [x for x in a.extra_rows if x not in EXTRA_ROWS]
    if bad_rows:
        print(f"placement-suite: unknown --extra-rows {', '.join(bad_rows)}; use {', '.join(EXTRA_ROWS)}", file=sys.stderr)
        return 2
    bad = [w for w in ws if w not in SUITE] + [s for s in settings if s not in SETTINGS or
                                               SETTINGS[s][0] not in SUITE_BY_MACHINE]
    if bad:
        print(f"placement-suite: unknown workload or setting: {', '.join(bad)}", file=sys.stderr)
        return 2
    path = os.path.join(a.out, "suite.json")
    if a.reprint:
        for s, results in json.load(open(path)).items():
            print_table(s, results)
        return 0
    try:
        r = SuiteRunner(a)
        allres = json.load(open(path)) if os.path.exists(path) else {}
        for s in settings:
            machine = SETTINGS[s][0]
            todo = [w for w in ws if w in SUITE_BY_MACHINE[machine] and (w not in REPLAYED or machine in REPLAYED[w])]
            missing = [w for w in todo if not os.access(os.path.join(r.wl_dir, "trace_replay" if w in REPLAYED
                                                                  else w + "_prof"), os.X_OK)]
            if missing:
                raise ExperimentError(f"not built in {r.wl_dir}: {', '.join(missing)}")
            nfid = FIDELITY_DEFAULT[machine] if a.fidelity_mappings is None else a.fidelity_mappings
            allres.setdefault(s, {})
            for w in todo:
                allres[s][w] = run_workload(r, s, w, SUITE_BY_MACHINE[machine][w], nfid)
                with open(path, "w") as f:   # after every workload: a run stopped early keeps its rows
                    json.dump(allres, f, indent=1)
            print_table(s, {w: allres[s][w] for w in todo})
        print(f"\nresults: {path}")
    except ExperimentError as e:
        print(f"placement-suite: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
