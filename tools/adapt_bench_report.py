#!/usr/bin/env python3
"""adapt_bench_report.py: the table of tools/adapt-bench.sh.

Reads OUT/raw/<platform>-P<P>-<coll>-<m>-<scenario>-<column>[-<algo>].txt
(a RESULT line of test/apps/coll_loop and a META line) for the grid given on
the command line and prints one row per (platform, P, coll, m, scenario):
inside_sum and loop of every column (simulated seconds, 4 significant digits;
best_smpi: the SMPI algorithm with the smallest --best-by figure, and its
name), then the ratios
  auto/nat in, auto/nat loop : auto / min(mpich, ompi), inside_sum and loop
  auto/noord                 : auto / noorder, inside_sum
  auto/noconf in, loop       : auto / noconfirm, inside_sum and loop
  auto/nodef in, loop        : auto / nodefer, inside_sum and loop
  det/auto in, lp            : detach / auto, inside_sum and loop
  late/nat in                : late / min(mpich, ompi), inside_sum
  auto/best                  : auto / best_smpi, inside_sum
and a summary per scenario (rows, max and geometric mean of auto / min(mpich,
ompi)).  Missing figures are "-"; skipped points (OUT/skipped.txt) and failed
runs (OUT/failed/) are listed.
Writes OUT/results.csv (one line per run: platform,P,coll,bytes,scenario,
column,algo,inside_sum,loop,errors,wall_s).  A cached run counts when its
calls and host speed are the ones asked for (the stamp is checked by the
shell script before it reuses a file).

Usage: adapt_bench_report.py OUT --platforms "flat" --procs "64" --colls "bcast"
         --sizes "8" --scenarios "balanced" --columns "mpich auto" [--calls 200]
         [--host-speed 1Gf] [--best-by inside_sum|loop]
"""
import argparse
import csv
import glob
import math
import os
import re
import sys


def parse(path, calls, hs):
    """(inside_sum, loop, errors, wall) of a valid cache file, else None."""
    try:
        text = open(path).read()
    except OSError:
        return None
    res = re.search(r"^RESULT (.*)$", text, re.M)
    meta = re.search(r"^META (.*)$", text, re.M)
    if not res or not meta:
        return None
    kv = dict(x.split("=", 1) for x in res.group(1).split())
    mv = dict(x.split("=", 1) for x in meta.group(1).split())
    if kv.get("calls") != str(calls) or mv.get("host_speed") != hs or kv.get("errors") != "0":
        return None
    return float(kv["inside_sum"]), float(kv["loop"]), int(kv["errors"]), float(mv.get("wall", "nan"))


def fmt(x, w=10):
    """a figure in w characters, a blank first (.4g needs up to 9)"""
    return f" {x:>{w - 1}.4g}" if x is not None else f" {'-':>{w - 1}}"


def ratio(a, b):
    return a / b if a is not None and b else None


def rfmt(x, w=8):
    return f"{x:>{w}.3f}" if x is not None else f"{'-':>{w}}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    for k in ("platforms", "procs", "colls", "sizes", "scenarios", "columns"):
        ap.add_argument("--" + k, required=True)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--host-speed", default="1Gf")
    ap.add_argument("--best-by", choices=("inside_sum", "loop"), default="inside_sum")
    a = ap.parse_args()
    cols = a.columns.split()
    bi = 0 if a.best_by == "inside_sum" else 1
    raw = os.path.join(a.out, "raw")
    csv_rows, rows, failed = [], [], []
    for plat in a.platforms.split():
        for P in a.procs.split():
            for coll in a.colls.split():
                for m in a.sizes.split():
                    for scen in a.scenarios.split():
                        key = f"{plat}-P{P}-{coll}-{m}-{scen}"
                        fig = {}
                        for col in cols:
                            if col == "best_smpi":
                                best = None
                                for f in sorted(glob.glob(os.path.join(raw, f"{key}-best_smpi-*.txt"))):
                                    algo = os.path.basename(f)[len(key) + len("-best_smpi-"):-4]
                                    r = parse(f, a.calls, a.host_speed)
                                    if r is None:
                                        continue
                                    csv_rows.append([plat, P, coll, m, scen, col, algo, *r])
                                    if best is None or r[bi] < best[0][bi]:
                                        best = (r, algo)
                                fig[col] = (best[0][0], best[0][1], best[1]) if best else None
                            else:
                                r = parse(os.path.join(raw, f"{key}-{col}.txt"), a.calls, a.host_speed)
                                if r is not None:
                                    csv_rows.append([plat, P, coll, m, scen, col, "", *r])
                                fig[col] = (r[0], r[1], "") if r else None
                        for f in sorted(glob.glob(os.path.join(a.out, "failed", f"{key}-*.txt"))):
                            name = os.path.basename(f)[:-4]
                            if not os.path.exists(os.path.join(raw, name + ".txt")):
                                col = name[len(key) + 1:]
                                if col.split("-")[0] in cols:
                                    first = open(f).readline().strip()
                                    failed.append(f"{name}: {first}")
                        rows.append(((plat, P, coll, m, scen), fig))

    # the table
    keyw = f"{'plat':<5}{'P':>4} {'coll':<10}{'bytes':>8} {'scenario':<11}"
    head = keyw
    for col in cols:
        head += f"|{col + ' in':>10}{'loop':>10}" + (f" {'algo':<22}" if col == "best_smpi" else "")
    ratios = []
    if "auto" in cols and ("mpich" in cols or "ompi" in cols):
        ratios += ["auto/nat in", "auto/nat loop"]
    if "auto" in cols and "noorder" in cols:
        ratios.append("auto/noord")
    if "auto" in cols and "noconfirm" in cols:
        ratios += ["auto/noconf in", "auto/noconf lp"]
    if "auto" in cols and "nodefer" in cols:
        ratios += ["auto/nodef in", "auto/nodef lp"]
    if "late" in cols and ("mpich" in cols or "ompi" in cols):
        ratios.append("late/nat in")
    if "auto" in cols and "detach" in cols:
        ratios += ["det/auto in", "det/auto lp"]
    if "auto" in cols and "best_smpi" in cols:
        ratios.append("auto/best")
    if ratios:
        head += "|" + "".join(f"{r:>14}" for r in ratios)
    lines = [f"adapt-bench: coll_loop, {a.calls} calls per run, simulated seconds: "
             "in = inside_sum (sum over ranks and calls of the time inside the collective), "
             "loop = loop time (max over ranks); nat = min(mpich, ompi); "
             f"best_smpi = fastest SMPI algorithm by {a.best_by}; host speed {a.host_speed}",
             head, "-" * len(head)]
    summary = {}
    for (plat, P, coll, m, scen), fig in rows:
        line = f"{plat:<5}{P:>4} {coll:<10}{m:>8} {scen:<11}"
        for col in cols:
            v = fig.get(col)
            line += "|" + fmt(v[0] if v else None) + fmt(v[1] if v else None)
            if col == "best_smpi":
                line += f" {(v[2] if v else '-'):<22}"
        au = fig.get("auto")
        nat = [fig[c] for c in ("mpich", "ompi") if fig.get(c)]
        nat_in = min(v[0] for v in nat) if nat else None
        nat_loop = min(v[1] for v in nat) if nat else None
        vals = []
        if "auto/nat in" in ratios:
            vals += [ratio(au and au[0], nat_in), ratio(au and au[1], nat_loop)]
            if vals[0] is not None:
                summary.setdefault(scen, []).append((vals[0], vals[1]))
        if "auto/noord" in ratios:
            vals.append(ratio(au and au[0], fig.get("noorder") and fig["noorder"][0]))
        if "auto/noconf in" in ratios:
            nc = fig.get("noconfirm")
            vals += [ratio(au and au[0], nc and nc[0]), ratio(au and au[1], nc and nc[1])]
        if "auto/nodef in" in ratios:
            nd = fig.get("nodefer")
            vals += [ratio(au and au[0], nd and nd[0]), ratio(au and au[1], nd and nd[1])]
        if "late/nat in" in ratios:
            lt = fig.get("late")
            vals.append(ratio(lt and lt[0], nat_in))
        if "det/auto in" in ratios:
            dt = fig.get("detach")
            vals += [ratio(dt and dt[0], au and au[0]), ratio(dt and dt[1], au and au[1])]
        if "auto/best" in ratios:
            vals.append(ratio(au and au[0], fig.get("best_smpi") and fig["best_smpi"][0]))
        if ratios:
            line += "|" + "".join(rfmt(x, 14) for x in vals)
        lines.append(line)
    if summary:
        lines += ["", "summary: auto / min(mpich, ompi) per scenario (< 1: auto faster)",
                  f"{'scenario':<12}{'rows':>5}{'max in':>10}{'geomean in':>12}{'max loop':>10}{'geomean loop':>14}"]
        allv = []
        for scen in a.scenarios.split() + ["all"]:
            v = [x for s in summary for x in summary[s]] if scen == "all" else summary.get(scen, [])
            if not v:
                continue
            gi = math.exp(sum(math.log(x[0]) for x in v) / len(v))
            loops = [x[1] for x in v if x[1]]
            gl = math.exp(sum(math.log(x) for x in loops) / len(loops)) if loops else None
            lines.append(f"{scen:<12}{len(v):>5}{max(x[0] for x in v):>10.3f}{gi:>12.3f}"
                         f"{rfmt(max(loops) if loops else None, 10)}{rfmt(gl, 14)}")
    missing = sum(1 for _, fig in rows for c in cols if fig.get(c) is None)
    lines.append("")
    lines.append(f"{len(rows)} rows, {missing} missing figures (not run yet or failed)")
    sk = os.path.join(a.out, "skipped.txt")
    if os.path.exists(sk):
        sk_lines = [ln.strip() for ln in open(sk) if ln.strip()]
        if sk_lines:
            lines.append("skipped (not simulated; tools/adapt-bench.sh cap()):")
            lines += ["  " + ln for ln in sk_lines]
    if failed:
        lines.append("failed runs (no result; output in OUT/failed/):")
        lines += ["  " + f for f in failed]
    print("\n".join(lines))
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["platform", "P", "coll", "bytes", "scenario", "column", "algo",
                    "inside_sum", "loop", "errors", "wall_s"])
        w.writerows(csv_rows)


if __name__ == "__main__":
    sys.exit(main())
