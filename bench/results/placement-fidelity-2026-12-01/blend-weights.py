#!/usr/bin/env python3
"""Spearman with SMPI of w x volume + (1 - w) x busy over each cell's fidelity mappings, for a few w, from a
suite's suite.json alone (the blend model is w = 0.5: cost.hpp; busy = 2 x blend - volume, both sums of
per-step terms). No arcoll or SMPI run.   blend-weights.py SUITE_DIR"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools"))
from placement_suite_offline import load_suite  # noqa: E402
from placement_tables import spearman  # noqa: E402

WS = [0.0, 0.25, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1.0]
d = load_suite(sys.argv[1])
passed = {w: 0 for w in WS}
print(f"{'cell':33s} " + " ".join(f"{w:5.2f}" for w in WS))
for setting, cells in d.items():
    for wl, r in cells.items():
        pts = r["fidelity"]["points"]
        sim = [p["sim_s"] for p in pts]
        if len(set(sim)) < 2:
            continue
        row = []
        for w in WS:
            rho = spearman([w * p["model_volume_s"] + (1 - w) * (2 * p["model_blend_s"] - p["model_volume_s"])
                            for p in pts], sim)
            passed[w] += rho >= 0.9
            row.append(rho)
        print(f"{setting + ' ' + wl:33s} " + " ".join(f"{x:5.2f}" for x in row))
print(f"{'cells >= 0.9':33s} " + " ".join(f"{passed[w]:5d}" for w in WS))
