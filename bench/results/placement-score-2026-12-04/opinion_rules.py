#!/usr/bin/env python3
"""The default pick of a placement suite run (node16 / seed001: six strategy rows with SMPI times) under
`arcoll place`'s chooser (the blend ranking with 1 % ties and the start kept, the 5 % margin on a refined
mapping ranked first, then the path opinion: placement/place.hpp) with the path opinion's model replaced:
the overlap critical path (the chooser before 4 Dec 2026), the fluid one, the path score overlap^w x
fluid^(1 - w); and, instead of the blend ranking, the path score ranking every row (with and without the
margin). Prints each setting's picks (! = not within 5 % of the best row or above the start by more than
1 %, with its SMPI time / the best row's) and the count per rule. No SMPI run: the suite's SMPI times.

    python3 bench/results/placement-score-2026-12-04/opinion_rules.py DIR [W]   # W: default 0.3
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from placement_suite_offline import binary_digest, evaluate, load_suite  # noqa: E402

ARCOLL = os.path.join(ROOT, "build", "tools", "arcoll")
ROWS = ["identity", "hopbytes", "metis", "scotch", "metis_time", "refined"]


def main():
    d, wt = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 0.3
    suite = load_suite(d)
    path = os.path.join(d, "opinion-rules-cache.json")
    cache = json.load(open(path)) if os.path.exists(path) else {}
    if cache.get("arcoll") != binary_digest(ARCOLL):
        cache = {"arcoll": binary_digest(ARCOLL)}
    total, n = {}, 0
    for setting, ws in suite.items():
        machine = setting.replace("-random", "")
        for w, res in ws.items():
            rows, trace = res["rows"], os.path.join(d, machine, w + ".arctrace")
            for r in ROWS:
                k = f"{setting}/{w}/{r}"
                if k not in cache:
                    mp = os.path.join(d, setting, w, r + ".hosts")
                    ev = evaluate(ARCOLL, machine, trace, mp, "--fluid-path", key=None)
                    cache[k] = {"blend": evaluate(ARCOLL, machine, trace, mp, "--contention", "blend"),
                                "overlap": ev.get("critical_path_overlap_s", -1.0),
                                "fluid": ev.get("critical_path_fluid_s", -1.0)}
            v = lambda r, f: cache[f"{setting}/{w}/{r}"][f]
            blend, overlap, fluid = (lambda r: v(r, "blend")), (lambda r: v(r, "overlap")), (lambda r: v(r, "fluid"))
            score = lambda r: overlap(r) ** wt * fluid(r) ** (1 - wt)
            has = overlap("identity") > 0 and fluid("identity") > 0

            def choose(cands, t):  # choose_stage() with keep_start: 1 % ties, max link load, hop-bytes
                lo = min(map(t, cands))
                if "identity" in cands and t("identity") <= 1.01 * lo:
                    return "identity"
                tied = [r for r in cands if t(r) <= 1.01 * lo]
                return min(tied, key=lambda r: (rows[r]["max_congestion"], rows[r]["hop_bytes"], t(r)))

            def default(opinion, rank=blend, margin=0.05):
                full, pre = choose(ROWS, rank), choose(ROWS[:-1], rank)
                ok = full != "refined" or (rank("refined") < rank(pre) * (1 - margin) and (
                    not has or opinion("refined") * 1.01 < opinion(pre)))
                return full if ok else pre

            picks = {"opinion overlap": default(overlap), "opinion fluid": default(fluid),
                     f"opinion score {wt:g}": default(score),
                     f"rank score {wt:g}": default(score, score, 0.0) if has else default(overlap),
                     f"rank score {wt:g} margin": default(score, score) if has else default(overlap)}
            best, start = min(rows[r]["sim_s"] for r in ROWS), rows["identity"]["sim_s"]
            n += 1
            line = f"{setting:15s} {w:18s}"
            for k, p in picks.items():
                t = rows[p]["sim_s"]
                ok = t <= best * 1.05 and t <= start * 1.01
                total[k] = total.get(k, 0) + ok
                line += f" {k}={p}" + ("" if ok else f"!{t / best:.3f}")
            print(line + f"  (suite's pick: {res['best_count']['row']})")
    with open(path, "w") as f:
        json.dump(cache, f)
    print(f"picks within 5 % of the best row (and <= +1 % vs the start), of {n}: " +
          ", ".join(f"{k} {t}" for k, t in total.items()))


if __name__ == "__main__":
    main()
