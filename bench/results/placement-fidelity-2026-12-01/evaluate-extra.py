#!/usr/bin/env python3
"""Spearman of every number `arcoll place --evaluate --json` reports with the SMPI time, over one cell's
fidelity mappings, with extra `arcoll place` options (e.g. larger latencies).
  evaluate-extra.py ARCOLL SUITE_DIR SETTING WORKLOAD [ARCOLL_PLACE_OPTION ...]
e.g. evaluate-extra.py build/tools/arcoll DIR node16 scalapack_lu --latency-us node=10 --latency-us switch=10
(the options follow the machine's .params, so they override them)."""
import os
import sys

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(REPO, "tools"))
from placement_suite_offline import evaluate, load_suite, mapping_file  # noqa: E402
from placement_tables import spearman  # noqa: E402

arcoll, suite, setting, w, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
machine = setting.replace("-random", "")
pts = load_suite(suite)[setting][w]["fidelity"]["points"]
sim, vals = [p["sim_s"] for p in pts], {}
for p in pts:
    ev = evaluate(arcoll, machine, os.path.join(suite, machine, w + ".arctrace"),
                  os.path.join(suite, setting, w, mapping_file(p)), *extra, key=None)
    for k, v in ev.items():
        if isinstance(v, (int, float)):
            vals.setdefault(k, []).append(v)
for k, v in vals.items():
    if len(set(v)) > 1:
        print(f"{setting} {w} {' '.join(extra)}: {k:28s} Spearman with SMPI {spearman(v, sim):5.2f}")
