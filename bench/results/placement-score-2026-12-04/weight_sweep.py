#!/usr/bin/env python3
"""Cells (setting x workload) of a placement suite run whose fidelity mappings the path score
overlap^w x fluid^(1 - w) orders as SMPI does at Spearman >= 0.9, for w = 0, 0.05, ..., 1 (placement/place.hpp
PathOpinion, kPathOverlapWeight): the two critical paths come from `arcoll place --evaluate --fluid-path`
(cached in DIR/weight-sweep-cache.json, keyed by the arcoll binary's SHA-256).

    python3 bench/results/placement-score-2026-12-04/weight_sweep.py DIR   # DIR: a suite --out with fidelity
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from placement_suite_offline import binary_digest, fidelity_cells, load_suite  # noqa: E402
from placement_tables import spearman  # noqa: E402

ARCOLL = os.path.join(ROOT, "build", "tools", "arcoll")


def main():
    d = sys.argv[1]
    suite = load_suite(d)
    path = os.path.join(d, "weight-sweep-cache.json")
    cache = json.load(open(path)) if os.path.exists(path) else {}
    if cache.get("arcoll") != binary_digest(ARCOLL):
        cache = {"arcoll": binary_digest(ARCOLL)}
    cells = {}
    for setting, w, _, pts, sim, ev_of in fidelity_cells(d, suite):
        key = f"{setting}:{w}"
        if key not in cache:
            ev = [ev_of(ARCOLL, p, "--fluid-path") for p in pts]
            cache[key] = {"overlap": [e.get("critical_path_overlap_s", -1.0) for e in ev],
                          "fluid": [e.get("critical_path_fluid_s", -1.0) for e in ev]}
        if min(cache[key]["overlap"] + cache[key]["fluid"]) > 0:
            cells[key] = (cache[key]["overlap"], cache[key]["fluid"], sim)
    with open(path, "w") as f:
        json.dump(cache, f)
    for k in range(21):
        wt = k / 20
        rho = {c: spearman([o ** wt * f ** (1 - wt) for o, f in zip(ov, fl)], sim) for c, (ov, fl, sim) in cells.items()}
        low = ", ".join(f"{c} {r:.3f}" for c, r in sorted(rho.items(), key=lambda x: x[1]) if r < 0.9) or "-"
        print(f"w {wt:4.2f}: {sum(r >= 0.9 for r in rho.values()):2d} of {len(rho)} cells >= 0.9, "
              f"min {min(rho.values()):.3f}; below: {low}")


if __name__ == "__main__":
    main()
