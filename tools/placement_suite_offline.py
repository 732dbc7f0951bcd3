#!/usr/bin/env python3
"""Offline analyses of a finished placement suite run (tools/placement_suite.py --out DIR): no SMPI run,
only `arcoll place --evaluate` on the mappings and traces the suite left in DIR.

  placement_suite_offline.py sets DIR [--build B]
      Spearman rank correlation of the count model's cost with the SMPI time over each workload's mappings
      (the strategies', the picks' and the random ones the suite simulated), with the trace's communication
      steps and with dependency levels (`arcoll place --sets steps|levels`, placement/levels.hpp).
  placement_suite_offline.py rules DIR [--build B]
      How many default picks would be within 5 % of the best strategy (and <= +1 % vs the start) under
      other chooser rules over the five strategy rows: the count model's lowest cost, the blend model's,
      the second opinion (the refined row only if the blend model also rates it below the best other row),
      the sum / max of the two normalised costs, a hop-bytes guard on the refined row, and the critical paths
      (placement/critical_path.hpp: by sets cp*, contention-free cpf*, with time overlap cpo*) as a third opinion
      on the refined row, a guard against the start, or the ranking; cpo_opinion_0.01 was `arcoll place`'s
      default from 29 Nov (PathOpinion, `--rank count`), blend_ties_cpo_keep_start from 30 Nov (the
      blend model's ranking with ties and the kept start, then the path opinion: placement/place.hpp Ranking),
      blend_margin_0.05 is it since the twenty-fourth session (the same, the refined row written only when its
      blend cost is more than 5 % below the next ranked row's: place.hpp SecondOpinion, --refined-margin).

  placement_suite_offline.py fidelity DIR [--build B] [--place-args ARGS]
      Spearman of the count model, the blend model, the critical paths (count-model collisions, time
      overlap, fluid replay) and the path opinion's score (overlap^w x fluid^(1 - w)) with the SMPI time
      over each workload's fidelity mappings (the suite's Spearman column, with the paths added), and per
      model the cells at >= 0.9; ARGS go to `arcoll place --evaluate`.

  placement_suite_offline.py pairs DIR [--gap G]
      Of the pairs of fidelity mappings whose SMPI times differ by more than G (default 0.05: the chooser's
      5 % tolerance), the fraction each model (count, blend) orders as SMPI does; pairs closer than G are
      the ones a chooser within 5 % may order either way (no `arcoll` run: the suite's model columns).

  placement_suite_offline.py retest DIR --cfg SMPI_OPTION [--cfg ...] [--args ARGS] [--cells SETTING:WORKLOAD,...]
      SMPI against itself: simulates every fidelity mapping of the cells again with the SimGrid options
      given (a machine the trace and the topology describe as well: e.g. network/crosstraffic:0, or
      smpi/bw-factor:1 and smpi/lat-factor:1) and prints the Spearman of the two SMPI times, the ceiling
      sqrt((1 + rho) / 2) that no ranking of the mappings exceeds against both machines at once (Spearman
      is the Pearson correlation of ranks: two rank vectors at angle a apart leave a ranking at most
      cos(a / 2) to both), and the Spearman of the blend model and of the critical path (count-model
      collisions) against each machine; network/model:CM02 is SimGrid's plain max-min model (no SMPI size
      factors, no weight-S: the physics the fluid path replays). Runs under the
      suite's MPI lock; cached in <DIR>/retest-cache.json. --args appends workload arguments instead or as
      well (trace_replay's "-only p2p" / "-only colls": which part of a replay the order comes from).

  placement_suite_offline.py paths DIR [--build B]
      Spearman of the count model and of the overlap critical path with the SMPI time over each setting's
      distinct strategy mappings.

Used for placement/SUITE.md ("Dependency levels", "Where the default misses"). SMPI times come from the
suite's <DIR>/suite.json and its *.smpi.log files; blend costs and paths are cached in <DIR>/offline-cache.json,
keyed by the arcoll binary's SHA-256 (another binary starts it again).
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

from placement_experiments import LOCK, workload_fields  # the MPI lock every suite run holds; its result line
from placement_tables import rank_ceiling, spearman

# The rows of the runs it reads (before 1 Dec 2026): the metis_time row, a stage of `best` since, is not
# modelled here.
ROWS = ["identity", "hopbytes", "metis", "scotch", "refined"]
PLATFORMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "platforms", "placement")


def load_suite(d):
    """The suite's results (<d>/suite.json, written by tools/placement_suite.py --out d); exits naming the
    file when it is missing or not JSON."""
    path = os.path.join(d, "suite.json")
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"placement_suite_offline: cannot read {path} ({e}); give the --out directory of a finished "
                 "`tools/placement-experiments.sh --suite` run")


def evaluate(arcoll, machine, trace, mapping, *extra, key="time_s"):
    """`arcoll place --evaluate MAPPING` of `trace` on the suite's machine with `extra` options after its
    .params (so they override them): the JSON report's `key`, or the whole "evaluate" object with key=None."""
    p = os.path.join(PLATFORMS, machine)
    cmd = [arcoll, "place", trace, "--topology", p + ".topology.conf", "--hosts", p + ".hosts", "--json",
           "--evaluate", mapping] + open(p + ".params").read().split() + list(extra)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"placement_suite_offline: {' '.join(cmd)} failed: {r.stderr.strip()}")
    ev = json.loads(r.stdout)["evaluate"]
    return ev if key is None else ev.get(key, -1.0)


def binary_digest(path):
    """SHA-256 of the arcoll binary at `path` (the offline cache's key); exits naming it when unreadable."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        sys.exit(f"placement_suite_offline: cannot read the arcoll binary {path} ({e}); build it "
                 "(cmake --build build --target arcoll_cli) or pass --build")


def sets(a):
    for machine in ("seed001", "node16", "fattree1024"):
        for trace in sorted(glob.glob(os.path.join(a.dir, machine, "*.arctrace"))):
            w = os.path.basename(trace)[:-len(".arctrace")]
            rows = []
            for log in sorted(glob.glob(os.path.join(a.dir, machine, w, "*.hosts.smpi.log"))):
                m = re.search(r"comm_time_s=([0-9.eE+-]+)", open(log).read())
                if m:
                    rows.append((log[:-len(".smpi.log")], float(m.group(1))))
            if len(rows) < 3:
                continue
            sim = [s for _, s in rows]
            rho = {k: spearman([evaluate(a.arcoll, machine, trace, mp, "--sets", k) for mp, _ in rows], sim)
                   for k in ("steps", "levels")}
            print(f"{machine:12s} {w:18s} n={len(rows):2d} Spearman steps {rho['steps']:.3f} levels {rho['levels']:.3f}")


def rules(a):
    d = load_suite(a.dir)
    cache_path = os.path.join(a.dir, "offline-cache.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    binary = binary_digest(a.arcoll)
    if cache.get("arcoll") != binary:  # another arcoll binary: its paths may differ (e.g. before 2 Dec 2026)
        cache = {"arcoll": binary}
    total, n = {}, 0
    for setting, ws in d.items():
        machine = setting.replace("-random", "")
        for w, res in ws.items():
            rows = res["rows"]
            for r in ROWS:
                key = f"{setting}/{w}/{r}"
                trace, mp = os.path.join(a.dir, machine, w + ".arctrace"), os.path.join(a.dir, setting, w, r + ".hosts")
                if key not in cache:  # the blend model's time; the paths of the machine's own model, one report
                    cache[key] = evaluate(a.arcoll, machine, trace, mp, "--contention", "blend")
                    ev = evaluate(a.arcoll, machine, trace, mp, key=None)
                    for suffix, k in (("cp", "critical_path_s"), ("cpo", "critical_path_overlap_s"),
                                      ("cpf", "critical_path_free_s")):
                        cache[f"{key}/{suffix}"] = ev.get(k, -1.0)
            c = lambda r: rows[r]["model_s"]
            b = lambda r: cache[f"{setting}/{w}/{r}"]
            hb = lambda r: rows[r]["hop_bytes"]
            start = min(ROWS[:-1], key=c)
            cmin, bmin = min(map(c, ROWS)), min(map(b, ROWS))
            count = min(ROWS, key=c)
            picks = {
                "count": count,
                "blend": min(ROWS, key=b),
                "second_opinion": count if count != "refined" or b("refined") < b(start) else start,
                "sum": min(ROWS, key=lambda r: c(r) / cmin + b(r) / bmin),
                "max": min(ROWS, key=lambda r: max(c(r) / cmin, b(r) / bmin)),
            }
            # arcoll place's choose_stage(): the stages within 1 % of the lowest cost, then the lowest max link
            # load, then hop-bytes; with keep_start the start (identity row) wins when it is within that 1 %.
            def choose(cands, keep, t=c):
                lo = min(map(t, cands))
                if keep and "identity" in cands and t("identity") <= 1.01 * lo:
                    return "identity"
                tied = [r for r in cands if t(r) <= 1.01 * lo]
                return min(tied, key=lambda r: (rows[r]["max_congestion"], hb(r), t(r)))
            for keep in (False, True):
                pre, full = choose(ROWS[:-1], keep), choose(ROWS, keep)
                picks["ties_second_opinion" + ("_keep_start" if keep else "")] = (
                    full if full != "refined" or b("refined") < b(pre) else pre)
            # The critical path (placement/critical_path.hpp; -1 without recorded receives): as a third opinion
            # on the pick (keep the refinement's start unless the critical path also falls), as the ranking
            # itself, and as a guard against the start (write the start unless the pick's critical path is
            # below it).
            cp = lambda r: cache[f"{setting}/{w}/{r}/cp"]
            base = picks["ties_second_opinion_keep_start"]
            pre = choose(ROWS[:-1], True)
            has_cp = cp("identity") >= 0
            picks["cp_opinion"] = base if not has_cp or base != "refined" or cp("refined") < cp(pre) else pre
            picks["cp_rank"] = min(ROWS, key=cp) if has_cp else base
            for g in (0.0, 0.01, 0.05):
                picks[f"cp_guard_{g}"] = (base if not has_cp or cp(base) <= cp("identity") * (1 - g) or
                                          base == "identity" else "identity")
            picks["cp_opinion_guard"] = (picks["cp_opinion"] if not has_cp or picks["cp_opinion"] == "identity" or
                                         cp(picks["cp_opinion"]) < cp("identity") else "identity")
            cpf = lambda r: cache[f"{setting}/{w}/{r}/cpf"]
            for g in (0.0, 0.05, 0.1, 0.25):
                picks[f"cpf_opinion_{g}"] = (base if not has_cp or base != "refined" or
                                             cpf("refined") <= cpf(pre) * (1 + g) else pre)
                picks[f"cpf_guard_{g}"] = (base if not has_cp or base == "identity" or
                                           cpf(base) <= cpf("identity") * (1 + g) else "identity")
            cpo = lambda r: cache[f"{setting}/{w}/{r}/cpo"]
            for mg in (0.0, 0.01, 0.02, 0.05):
                picks[f"cpo_opinion_{mg}"] = (base if not has_cp or base != "refined" or
                                              cpo("refined") < cpo(pre) * (1 - mg) else pre)
            picks["cpo_rank"] = min(ROWS, key=cpo) if has_cp else base
            bl, pre_b = min(ROWS, key=b), min(ROWS[:-1], key=b)
            picks["blend_cpo_opinion_0.01"] = (bl if not has_cp or bl != "refined" or
                                               cpo("refined") * 1.01 < cpo(pre_b) else pre_b)
            # The blend ranking as choose_stage() ranks the count model: the rows within 1 % of the lowest
            # blend cost, then the lowest max link load, then hop-bytes; with keep the start wins within 1 %.
            for keep in (False, True):
                full, pre = choose(ROWS, keep, b), choose(ROWS[:-1], keep, b)
                picks["blend_ties_cpo" + ("_keep_start" if keep else "")] = (
                    full if not has_cp or full != "refined" or cpo("refined") * 1.01 < cpo(pre) else pre)
            # The same with a margin on the refined row: a mapping searched to minimise one model carries that
            # model's error in its favour (the optimiser's curse), so it is written only when its blend time is
            # below the stage ranked first among the others by more than the margin.
            # The path opinion's own margin pm (1 % = the tie tolerance, arcoll place's default): the refined
            # row also needs an overlap critical path below the other stage's by more than pm.
            full, pre = choose(ROWS, True, b), choose(ROWS[:-1], True, b)
            margin = lambda mg, pm: (full if full != "refined" or (b("refined") < b(pre) * (1 - mg) and (
                not has_cp or cpo("refined") * (1 + pm) < cpo(pre))) else pre)
            for mg in (0.02, 0.03, 0.05, 0.08):
                picks[f"blend_margin_{mg}"] = margin(mg, 0.01)
            for pm in (0.02, 0.05, 0.08):
                picks[f"blend_margin_0.05_path_{pm}"] = margin(0.05, pm)
            for h in (0.1, 0.25, 0.5, 0.75):
                picks[f"hop_bytes_{h}"] = count if count != "refined" or hb("refined") <= (1 + h) * hb(start) else start
            best = min(rows[r]["sim_s"] for r in ROWS)
            ident = rows["identity"]["sim_s"]
            line = f"{setting:18s} {w:18s}"
            n += 1
            for k, p in picks.items():
                v = rows[p]["sim_s"]
                ok = v <= best * 1.05 and v <= ident * 1.01
                total[k] = total.get(k, 0) + ok
                line += f" {k}={p}{'' if ok else '!'}"
            print(line)
    with open(cache_path, "w") as f:
        json.dump(cache, f)
    print(f"\npicks within 5 % of the best strategy (and <= +1 % vs the start), of {n}: " +
          ", ".join(f"{k} {v}" for k, v in total.items()))


def paths(a):
    """Spearman of the count model and of the overlap critical path with the SMPI time over each setting's
    distinct strategy mappings (2-5: coarse)."""
    d = load_suite(a.dir)
    for setting, ws in d.items():
        machine = setting.replace("-random", "")
        for w, res in ws.items():
            rows, seen = res["rows"], {}
            for r in ROWS:
                seen.setdefault(open(os.path.join(a.dir, setting, w, r + ".hosts")).read(), r)
            rr = list(seen.values())
            sim = [rows[r]["sim_s"] for r in rr]
            trace = os.path.join(a.dir, machine, w + ".arctrace")
            cpo = [evaluate(a.arcoll, machine, trace, os.path.join(a.dir, setting, w, r + ".hosts"),
                            key="critical_path_overlap_s") for r in rr]
            rho = lambda x: spearman(x, sim) if len(rr) > 2 and len(set(sim)) > 1 else float("nan")
            print(f"{setting:14s} {w:18s} n={len(rr)} Spearman count {rho([rows[r]['model_s'] for r in rr]):5.2f} "
                  f"overlap path {rho(cpo):5.2f}")


def mapping_file(pt):
    """The mapping file of a fidelity point (its "mapping" field; the suites of 30 Nov and before have
    only the label, and placement_experiments.py wrote "random seed <1000 + k>" to random<k>.hosts)."""
    if "mapping" in pt:
        return pt["mapping"]
    m = re.fullmatch(r"random seed (\d+)", pt["label"])
    return (f"random{int(m.group(1)) - 1000}" if m else pt["label"]) + ".hosts"


def fidelity(a):
    """Spearman of the count model, the blend model, the three critical paths (count-model collisions,
    time overlap, fluid replay) and the path opinion's score (overlap^w x fluid^(1 - w), placement/place.hpp
    PathOpinion; `--path-overlap-weight W` in ARGS sets w) with the SMPI time over every mapping of each workload's fidelity set (the strategies',
    the picks' and the random ones), and per model the cells at >= 0.9. a.place_args go to every
    `arcoll place --evaluate` (e.g. --no-path-collectives: the paths without the collectives' times)."""
    d = load_suite(a.dir)
    models = ("count", "blend", "path", "overlap path", "fluid path", "path score")
    passed, cells = {m: 0 for m in models}, 0
    for setting, ws in d.items():
        machine = setting.replace("-random", "")
        for w, res in ws.items():
            pts = res.get("fidelity", {}).get("points", [])
            if len(pts) < 3:
                continue
            trace = os.path.join(a.dir, machine, w + ".arctrace")
            ev = [evaluate(a.arcoll, machine, trace, os.path.join(a.dir, setting, w, mapping_file(pt)),
                           "--fluid-path", *a.place_args.split(), key=None) for pt in pts]
            sim = [pt["sim_s"] for pt in pts]
            if len(set(sim)) < 2:
                print(f"{setting:14s} {w:18s} n={len(pts):2d} SMPI time equal on all")
                continue
            cells += 1
            values = {"count": [p["model_s"] for p in pts], "blend": [p["model_blend_s"] for p in pts],
                      "path": [e.get("critical_path_s", -1.0) for e in ev],
                      "overlap path": [e.get("critical_path_overlap_s", -1.0) for e in ev],
                      "fluid path": [e.get("critical_path_fluid_s", -1.0) for e in ev],
                      "path score": [e.get("path_score_s", -1.0) for e in ev]}
            shown = []
            for m in models:
                if min(values[m]) < 0:  # no dependency graph: no path
                    shown.append(f"{m} {'-':>5s}")
                    continue
                rho = spearman(values[m], sim)
                passed[m] += rho >= 0.9
                shown.append(f"{m} {rho:5.2f}")
            print(f"{setting:14s} {w:18s} n={len(pts):2d} Spearman " + " ".join(shown))
    print(f"cells >= 0.9 of {cells}: " + ", ".join(f"{m} {passed[m]}" for m in models) +
          (f" ({a.place_args})" if a.place_args else ""))


def pairs(a):
    """Per workload x setting: the pairs of fidelity mappings more than a.gap apart in SMPI time, and the
    fraction of them each model orders the same way (ties in a model count as wrong)."""
    d = load_suite(a.dir)
    total = {"count": [0, 0], "blend": [0, 0]}
    for setting, ws in d.items():
        for w, res in ws.items():
            pts = res.get("fidelity", {}).get("points", [])
            far = [(p, q) for i, p in enumerate(pts) for q in pts[i + 1:]
                   if max(p["sim_s"], q["sim_s"]) > (1 + a.gap) * min(p["sim_s"], q["sim_s"])]
            cells = []
            for model, key in (("count", "model_s"), ("blend", "model_blend_s")):
                ok = sum((p[key] - q[key]) * (p["sim_s"] - q["sim_s"]) > 0 for p, q in far)
                total[model][0] += ok
                total[model][1] += len(far)
                cells.append(f"{model} {ok / len(far):5.3f}" if far else f"{model}     -")
            print(f"{setting:18s} {w:18s} n={len(pts):2d} pairs > {100 * a.gap:g} % apart: {len(far):3d}  "
                  + "  ".join(cells))
    print("all: " + ", ".join(f"{m} {ok}/{n} = {ok / n:.3f}" for m, (ok, n) in total.items() if n))


def retest(a):
    """Spearman of the suite's SMPI times with those of the same mappings on a second SMPI configuration
    (a.cfg), the ceiling that leaves any ranking against both, and the blend model's and the critical path's
    (count-model collisions, `critical_path_s`; a.place_args apply) against each."""
    d = load_suite(a.dir)
    cache_path = os.path.join(a.dir, "retest-cache.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    smpirun = shutil.which("smpirun") or sys.exit("placement_suite_offline: smpirun not found "
                                                  "(apt-get install libsimgrid-dev simgrid)")
    wl_dir = os.path.join(a.build, "smpi", "test", "workloads")
    cells = [c.split(":") for c in a.cells.split(",")] if a.cells else \
        [[s, w] for s, ws in d.items() for w in ws]
    for setting, w in cells:
        if setting not in d or w not in d[setting]:
            sys.exit(f"placement_suite_offline: no cell {setting}:{w} in {a.dir}/suite.json")
        machine = setting.replace("-random", "")
        res = d[setting][w]
        pts = res.get("fidelity", {}).get("points", [])
        if len(pts) < 3:
            continue
        mdir = os.path.join(a.dir, machine)
        platform = open(os.path.join(mdir, "platform.xml")).read()  # in the cache key: an edited platform reruns
        nranks = sum(1 for _ in open(os.path.join(mdir, "inorder.hosts")))
        trace = os.path.join(mdir, w + ".arctrace")
        prog, args = (("trace_replay", ["-t", trace]) if res["args"][:1] == ["-t"] else (w, list(res["args"])))
        args += a.args.split()
        second = []
        for pt in pts:
            hostfile = os.path.join(a.dir, setting, w, mapping_file(pt))
            key = hashlib.sha1("\0".join([platform, prog] + args + a.cfg + [open(hostfile).read()])
                               .encode()).hexdigest()
            if key not in cache:
                cmd = ["flock", LOCK, "timeout", str(a.sim_timeout), smpirun, "-platform",
                       os.path.join(mdir, "platform.xml"),
                       "-hostfile", hostfile, "-np", str(nranks), "--cfg=smpi/simulate-computation:no",
                       "--log=root.thres:critical"] + [f"--cfg={c}" for c in a.cfg] + \
                    [os.path.join(wl_dir, prog)] + args
                r = subprocess.run(cmd, capture_output=True, text=True)
                kv = workload_fields(r.stdout)
                if r.returncode or kv is None:
                    sys.exit(f"placement_suite_offline: {' '.join(cmd)} failed (exit {r.returncode}): "
                             f"{r.stderr.strip()[-400:]}")
                cache[key] = float(kv["comm_time_s"])
                with open(cache_path + ".tmp", "w") as f:
                    json.dump(cache, f)
                os.replace(cache_path + ".tmp", cache_path)
            second.append(cache[key])
        first = [pt["sim_s"] for pt in pts]
        rho = spearman(first, second)
        blend = [pt["model_blend_s"] for pt in pts]
        path = [evaluate(a.arcoll, machine, trace, os.path.join(a.dir, setting, w, mapping_file(pt)),
                         *a.place_args.split(), key="critical_path_s") for pt in pts]
        path_rho = (f"path vs SMPI {spearman(path, first):5.2f}, vs SMPI' {spearman(path, second):5.2f}  "
                    if min(path) >= 0 else "")
        print(f"{setting:14s} {w:18s} n={len(pts):2d} Spearman SMPI / SMPI' {rho:5.2f} ceiling "
              f"{rank_ceiling(rho):5.2f}  blend vs SMPI {spearman(blend, first):5.2f}, vs SMPI' "
              f"{spearman(blend, second):5.2f}  {path_rho}(SMPI' / SMPI {min(s / f for s, f in zip(second, first)):.3f}-"
              f"{max(s / f for s, f in zip(second, first)):.3f}; {' '.join(a.cfg + ([a.args] if a.args else []))})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["sets", "rules", "paths", "fidelity", "pairs", "retest"])
    ap.add_argument("dir", help="the suite's --out directory")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                    "build"))
    ap.add_argument("--gap", type=float, default=0.05, help="pairs: the SMPI time ratio - 1 above which a pair counts")
    ap.add_argument("--cfg", action="append", default=[], help="retest: a SimGrid option (repeatable)")
    ap.add_argument("--cells", default="", help="retest: SETTING:WORKLOAD,... (default: every cell)")
    ap.add_argument("--sim-timeout", type=int, default=900, help="retest: seconds per SMPI run (as the suite's)")
    ap.add_argument("--place-args", default="",
                    help="fidelity: more `arcoll place --evaluate` options (--place-args=\"--no-path-collectives\")")
    ap.add_argument("--args", default="",
                    help="retest: more workload arguments (--args=\"-only colls\" for trace_replay: write it with =)")
    a = ap.parse_args()
    if a.what == "retest" and not a.cfg and not a.args:
        ap.error("retest needs at least one --cfg SMPI_OPTION (e.g. --cfg network/crosstraffic:0) or --args")
    a.arcoll = os.path.join(a.build, "tools", "arcoll")
    {"sets": sets, "rules": rules, "paths": paths, "fidelity": fidelity, "pairs": pairs, "retest": retest}[a.what](a)


if __name__ == "__main__":
    main()
