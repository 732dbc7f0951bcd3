#!/usr/bin/env python3
"""Cells (setting x workload) whose fidelity mappings a model or a combination of two orders with Spearman
>= 0.9 against SMPI: the blend model, the overlap path, the fluid path, and per pair of them the normalised
geometric mean (each model divided by its smallest value) and the rank average.

    python3 bench/results/placement-matched-2026-12-03/combos.py DIR   # DIR: a suite --out with fidelity
"""
import itertools
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
from placement_suite_offline import fidelity_cells, load_suite  # noqa: E402
from placement_tables import spearman  # noqa: E402

ARCOLL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "build", "tools", "arcoll")


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0] * len(v)
    for k, i in enumerate(order):
        r[i] = k
    return r


def main():
    d = sys.argv[1]
    suite = load_suite(d)
    names = ["blend", "overlap", "fluid"]
    passed, cells, low = {}, 0, {}
    for setting, w, _, pts, sim, ev_of in fidelity_cells(d, suite):
        ev = [ev_of(ARCOLL, p, "--fluid-path") for p in pts]
        m = {"blend": [p["model_blend_s"] for p in pts],
             "overlap": [e["critical_path_overlap_s"] for e in ev],
             "fluid": [e["critical_path_fluid_s"] for e in ev]}
        if min(min(v) for v in m.values()) <= 0:
            continue
        cells += 1
        for a, b in itertools.combinations(names, 2):
            na, nb = [x / min(m[a]) for x in m[a]], [x / min(m[b]) for x in m[b]]
            m[f"geo({a},{b})"] = [math.sqrt(x * y) for x, y in zip(na, nb)]
            m[f"rank({a},{b})"] = [x + y for x, y in zip(ranks(m[a]), ranks(m[b]))]
        for k, v in m.items():
            rho = spearman(v, sim)
            passed[k] = passed.get(k, 0) + (rho >= 0.9)
            if rho < 0.9:
                low.setdefault(k, []).append(f"{setting}:{w} {rho:.2f}")
    print(f"cells >= 0.9 of {cells}:")
    for k in sorted(passed, key=lambda k: -passed[k]):
        print(f"  {k:24s} {passed[k]:2d}   below: {', '.join(low.get(k, [])) or '-'}")


if __name__ == "__main__":
    main()
