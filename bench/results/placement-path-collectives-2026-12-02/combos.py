#!/usr/bin/env python3
"""Cells (setting x workload) whose fidelity mappings a model or a combination of two orders with Spearman
>= 0.9 against SMPI: the blend model, the critical path (count-model collisions, collectives charged), their
normalised geometric means and rank average, and "the path where the trace has collectives between its
messages (scalapack_lu), the blend model elsewhere".

    python3 bench/results/placement-path-collectives-2026-12-02/combos.py DIR   # DIR: a suite --out with fidelity
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
from placement_suite_offline import fidelity_cells, load_suite  # noqa: E402
from placement_tables import spearman  # noqa: E402

ARCOLL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "build", "tools", "arcoll")


def rank_of(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0] * len(v)
    for k, i in enumerate(order):
        r[i] = k
    return r


def combos(w, blend, path):
    nb, np_ = [x / min(blend) for x in blend], [x / min(path) for x in path]
    m = {"blend": blend, "path": path}
    for a in (0.25, 0.5, 0.75):
        m[f"blend^{1 - a:g} x path^{a:g}"] = [x ** (1 - a) * y ** a for x, y in zip(nb, np_)]
    m["rank average"] = [x + y for x, y in zip(rank_of(blend), rank_of(path))]
    m["path if LU else blend"] = path if w == "scalapack_lu" else blend
    return m


def main():
    d = sys.argv[1]
    suite = load_suite(d)
    ok, miss, cells = {}, {}, 0
    for setting, w, _, pts, sim, ev_of in fidelity_cells(d, suite):
        path = [ev_of(ARCOLL, p).get("critical_path_s", -1.0) for p in pts]
        if min(path) < 0:  # a trace without a dependency graph has no path
            continue
        cells += 1
        for name, v in combos(w, [p["model_blend_s"] for p in pts], path).items():
            rho = spearman(v, sim)
            ok[name] = ok.get(name, 0) + (rho >= 0.9)
            miss.setdefault(name, [])
            if not rho >= 0.9:
                miss[name].append(f"{setting}:{w} {rho:.2f}")
    for name in ok:
        print(f"{name:24s} {ok[name]:2d} of {cells}; below 0.9: {', '.join(miss[name]) or '-'}")


if __name__ == "__main__":
    main()
