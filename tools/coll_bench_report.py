#!/usr/bin/env python3
"""coll_bench_report: the tables of tools/coll-bench.sh from its raw CSV files.

Usage: coll_bench_report.py OUTDIR [--skipped FILE]

Reads OUTDIR/raw/*.csv, files named <platform>__<coll>__P<P>__m<m>__<what>.csv
(<what>: algos = every algorithm x segment size, auto = libarcoll's online selection
(rows: auto = the kept candidate, model = the model's own choice, explore = the summed
time of the measured candidates), mpich / ompi = SMPI's MPI_ collective under that
coll-selector), each holding lines
  coll,P,m,kind,algo,segment_bytes,k,time_s,predicted_s
written by bench/smpi_coll_bench.c (simulated seconds).

Prints, per (collective, platform, P, m): the oracle (best algorithm and
segment size among all measured configurations, auto's included), auto's
choice, auto's penalty against the oracle in % (mdl%: the model's own choice's),
SMPI's mpich and ompi times
and auto's time over the better of them; then the summary lines of issue 3
(mean/max penalty per collective, points where auto is > 2 % slower than
min(mpich, ompi) and the worst auto / min(mpich, ompi), large-message bcast best / best pipelined chain, pipelined
scan / recursive-doubling scan at P = 256, m >= 1 MiB).  Writes
OUTDIR/results.csv (one line per point) and OUTDIR/results.json (points +
summary).  Exit status 2 when OUTDIR has no results.
"""
import collections
import csv
import glob
import json
import os
import re
import sys

COLLS = ["bcast", "reduce", "allreduce", "scan", "gather", "scatter", "alltoall", "allgather",
         "reduce_scatter_block", "allgatherv", "gatherv", "scatterv", "alltoallv", "reduce_scatter"]

# Fastest rate at which the root's link can inject a message on both bench
# platforms (tools/platforms/bench: 10 Gb/s host links) under SMPI's default
# bandwidth factor, whose largest step is 1.08739 (5776..9375-byte messages;
# bench/README.md "Platforms"), bytes/second.  Every broadcast sends all m
# bytes out of the root at least once, so m / ROOT_LINK_BPS bounds its time:
# no broadcast beats a chain by more than chain / that bound.
ROOT_LINK_BPS = 10e9 / 8 * 1.08739


def human(m):
    for unit, s in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if m >= s and m % s == 0:
            return f"{m // s}{unit}"
    return f"{m}B"


def cfg(row):
    a = row["algo"]
    seg = int(row["segment_bytes"])
    if seg > 0:
        a += f"/{human(seg)}"
    if int(row.get("k", 0) or 0) > 0:
        a += f"/k{row['k']}"
    return a


def load(outdir):
    pts = collections.defaultdict(lambda: {"algo": [], "auto": None, "model": None, "explore": None,
                                           "mpich": None, "ompi": None})
    name_re = re.compile(r"(\w+)__(\w+)__P(\d+)__m(\d+)__(algos|auto|mpich|ompi)\.csv$")
    for path in sorted(glob.glob(os.path.join(outdir, "raw", "*.csv"))):
        mt = name_re.search(os.path.basename(path))
        if not mt:
            continue
        plat, what = mt.group(1), mt.group(5)
        with open(path) as f:
            for r in csv.DictReader(f, fieldnames=["coll", "P", "m", "kind", "algo", "segment_bytes",
                                                  "k", "time_s", "predicted_s"]):
                if r["coll"] not in COLLS:
                    continue
                key = (r["coll"], plat, int(r["P"]), int(r["m"]))
                r["time_s"] = float(r["time_s"])
                if r["kind"] == "algo":
                    pts[key]["algo"].append(r)
                elif r["kind"] in ("auto", "model", "explore"):
                    pts[key][r["kind"]] = r
                elif r["kind"] == "native" and what in ("mpich", "ompi"):
                    pts[key][what] = r
    return pts


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    outdir = sys.argv[1]
    skipped = []
    if "--skipped" in sys.argv:
        sp = sys.argv[sys.argv.index("--skipped") + 1]
        if os.path.exists(sp):
            skipped = [l.strip() for l in open(sp) if l.strip()]
    pts = load(outdir)
    if not pts:
        print(f"coll_bench_report: no results in {outdir}/raw (run tools/coll-bench.sh first)",
              file=sys.stderr)
        return 2
    rows = []
    for key in sorted(pts, key=lambda k: (COLLS.index(k[0]), k[1], k[2], k[3])):
        coll, plat, P, m = key
        p = pts[key]
        cands = list(p["algo"]) + [p[k] for k in ("auto", "model") if p[k]]
        if not cands and not (p["mpich"] or p["ompi"]):
            continue
        best = min(cands, key=lambda r: r["time_s"]) if cands else None
        auto = p["auto"]
        nat = [p[s]["time_s"] for s in ("mpich", "ompi") if p[s]]
        row = {
            "coll": coll, "platform": plat, "P": P, "m": m,
            "oracle": cfg(best) if best else None,
            "oracle_s": best["time_s"] if best else None,
            "auto": cfg(auto) if auto else None,
            "auto_s": auto["time_s"] if auto else None,
            "auto_pred_s": float(auto["predicted_s"]) if auto else None,
            "model": cfg(p["model"]) if p["model"] else None,
            "model_s": p["model"]["time_s"] if p["model"] else None,
            "explore_s": p["explore"]["time_s"] if p["explore"] else None,
            "mpich_s": p["mpich"]["time_s"] if p["mpich"] else None,
            "ompi_s": p["ompi"]["time_s"] if p["ompi"] else None,
        }
        # no penalty without the algorithm sweep (the oracle would be auto itself)
        row["penalty_pct"] = (100.0 * (row["auto_s"] / row["oracle_s"] - 1.0)
                              if auto and p["algo"] else None)
        row["model_penalty_pct"] = (100.0 * (row["model_s"] / row["oracle_s"] - 1.0)
                                    if p["model"] and p["algo"] else None)
        if not p["algo"]:
            row["oracle"] = None
        row["auto_vs_smpi"] = (row["auto_s"] / min(nat) if auto and len(nat) == 2 else None)
        row["oracle_vs_smpi"] = (row["oracle_s"] / min(nat) if p["algo"] and len(nat) == 2 else None)
        # per-algorithm best over segment sizes (for the ratios below)
        per = {}
        for r in cands:  # auto's configuration is a configuration of its algorithm too
            if r["algo"] not in per or r["time_s"] < per[r["algo"]]["time_s"]:
                per[r["algo"]] = r
        row["per_algo_s"] = {a: r["time_s"] for a, r in per.items()}
        row["per_algo_cfg"] = {a: cfg(r) for a, r in per.items()}
        rows.append(row)

    def f_s(x):
        return "-" if x is None else (f"{x * 1e6:.1f}us" if x < 1e-3 else
                                      f"{x * 1e3:.3f}ms" if x < 1 else f"{x:.3f}s")

    def f_r(x, fmt):
        return "-" if x is None else format(x, fmt)

    out = []
    hdr = (f"{'coll':20} {'platform':8} {'P':>5} {'m':>7}  {'oracle':26} {'oracle_t':>10}  "
           f"{'auto':26} {'auto_t':>10} {'pen%':>6} {'mdl%':>6}  {'mpich_t':>10} {'ompi_t':>10} "
           f"{'auto/smpi':>9}")
    last = None
    for r in rows:
        if (r["coll"], r["platform"]) != last:
            out.append("")
            out.append(hdr)
            last = (r["coll"], r["platform"])
        out.append(f"{r['coll']:20} {r['platform']:8} {r['P']:>5} {human(r['m']):>7}  "
                   f"{(r['oracle'] or '-'):26} {f_s(r['oracle_s']):>10}  {(r['auto'] or '-'):26} "
                   f"{f_s(r['auto_s']):>10} {f_r(r['penalty_pct'], '6.2f'):>6} "
                   f"{f_r(r['model_penalty_pct'], '6.1f'):>6}  "
                   f"{f_s(r['mpich_s']):>10} {f_s(r['ompi_s']):>10} "
                   f"{f_r(r['auto_vs_smpi'], '9.3f'):>9}")

    summary = {"per_collective": {}, "targets": {}}
    out.append("")
    out.append("== summary ==")
    for coll in COLLS:
        rs = [r for r in rows if r["coll"] == coll]
        pen = [r["penalty_pct"] for r in rs if r["penalty_pct"] is not None]
        mpen = [r["model_penalty_pct"] for r in rs if r["model_penalty_pct"] is not None]
        slow = [r for r in rs if r["auto_vs_smpi"] is not None and r["auto_vs_smpi"] > 1.02]
        nsm = len([r for r in rs if r["auto_vs_smpi"] is not None])
        orc_slow = [r for r in rs if r["oracle_vs_smpi"] is not None and r["oracle_vs_smpi"] > 1.02]
        norc = len([r for r in rs if r["oracle_vs_smpi"] is not None])
        ratios = [r for r in rs if r["auto_vs_smpi"] is not None]
        worst_smpi = max(ratios, key=lambda r: r["auto_vs_smpi"], default=None)
        s = {"points": len(rs), "auto_points": len(pen),
             "worst_auto_vs_smpi": worst_smpi["auto_vs_smpi"] if worst_smpi else None,
             "mean_penalty_pct": sum(pen) / len(pen) if pen else None,
             "max_penalty_pct": max(pen) if pen else None,
             "model_mean_penalty_pct": sum(mpen) / len(mpen) if mpen else None,
             "model_max_penalty_pct": max(mpen) if mpen else None,
             "auto_gt_2pct_slower_than_smpi": len(slow), "auto_vs_smpi_points": nsm,
             "oracle_gt_2pct_slower_than_smpi": len(orc_slow), "oracle_vs_smpi_points": norc}
        summary["per_collective"][coll] = s
        if not rs:
            continue
        worst = max((r for r in rs if r["penalty_pct"] is not None),
                    key=lambda r: r["penalty_pct"], default=None)
        line = (f"{coll:20}: {len(rs)} points, {len(pen)} with the sweep; auto penalty vs oracle: mean "
                f"{f_r(s['mean_penalty_pct'], '.2f')} %, max {f_r(s['max_penalty_pct'], '.2f')} %")
        if worst:
            line += f" ({worst['platform']} P={worst['P']} m={human(worst['m'])})"
        if mpen:
            line += (f" (model alone: mean {f_r(s['model_mean_penalty_pct'], '.2f')} %, max "
                     f"{f_r(s['model_max_penalty_pct'], '.2f')} %)")
        line += (f"; auto > 2 % slower than min(mpich, ompi) at {len(slow)}/{nsm} points"
                 f" (oracle: {len(orc_slow)}/{norc})")
        if worst_smpi:
            line += (f"; worst auto/smpi {worst_smpi['auto_vs_smpi']:.3f} ({worst_smpi['platform']} "
                     f"P={worst_smpi['P']} m={human(worst_smpi['m'])})")
        out.append(line)
    # large-message bcast: best (oracle, auto) vs the best-segmented single pipelined chain
    big = [r for r in rows if r["coll"] == "bcast" and r["m"] >= (16 << 20)
           and "chain" in r["per_algo_s"]]
    bl = []
    for r in big:
        ch = r["per_algo_s"]["chain"]
        bl.append({"platform": r["platform"], "P": r["P"], "m": r["m"],
                   "chain_cfg": r["per_algo_cfg"]["chain"], "chain_s": ch,
                   "oracle": r["oracle"], "oracle_speedup": ch / r["oracle_s"],
                   "bound_speedup": ch / (r["m"] / ROOT_LINK_BPS),
                   "auto": r["auto"], "auto_speedup": ch / r["auto_s"] if r["auto_s"] else None})
    summary["targets"]["bcast_large_vs_chain"] = bl
    out.append("bcast m >= 16 MiB, chain time / best time (target >= 1.6; chain = the best swept chain: "
               "<= 1024 segments unless amended, coll-bench.sh --help; the root-link bound "
               "m / (1.087 B) caps every broadcast):")
    for b in bl:
        out.append(f"   {b['platform']:8} P={b['P']:>5} m={human(b['m']):>6}: chain {b['chain_cfg']} "
                   f"{f_s(b['chain_s'])}; oracle {b['oracle']} x{b['oracle_speedup']:.2f}; "
                   f"auto {b['auto'] or '-'} x{f_r(b['auto_speedup'], '.2f')}; "
                   f"root-link bound x{b['bound_speedup']:.2f}")
    if not bl:
        out.append("   (no bcast point with m >= 16 MiB measured)")
    # scan: the best pipelined algorithm (chain "pipeline" or "pipelined_tree", each at its
    # best swept segment size) vs recursive doubling, P = 256, m >= 1 MiB
    sl = []
    for r in rows:
        pip = [a for a in ("pipeline", "pipelined_tree") if a in r["per_algo_s"]]
        if (r["coll"] == "scan" and r["P"] == 256 and r["m"] >= (1 << 20) and pip
                and "recursive_doubling" in r["per_algo_s"]):
            a = min(pip, key=lambda n: r["per_algo_s"][n])
            sl.append({"platform": r["platform"], "m": r["m"], "pipelined": a,
                       "pipeline_cfg": r["per_algo_cfg"][a],
                       "pipeline_s": r["per_algo_s"][a],
                       "recursive_doubling_s": r["per_algo_s"]["recursive_doubling"],
                       "speedup": r["per_algo_s"]["recursive_doubling"] / r["per_algo_s"][a]})
    summary["targets"]["scan_pipeline_vs_rd_P256"] = sl
    out.append("scan P=256 m >= 1 MiB, recursive_doubling time / best pipelined scan time "
               "(pipeline, pipelined_tree; target >= 2):")
    for s in sl:
        out.append(f"   {s['platform']:8} m={human(s['m']):>6}: {s['pipeline_cfg']} "
                   f"{f_s(s['pipeline_s'])}, recursive_doubling {f_s(s['recursive_doubling_s'])}: "
                   f"x{s['speedup']:.2f}")
    if not sl:
        out.append("   (no scan point at P=256 with m >= 1 MiB measured)")
    if skipped:
        out.append(f"skipped (budget caps, see tools/coll-bench.sh): {len(skipped)} runs")
        for s in skipped:
            out.append(f"   {s}")
    summary["skipped"] = skipped
    print("\n".join(out).lstrip("\n"))
    with open(os.path.join(outdir, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        keys = ["coll", "platform", "P", "m", "oracle", "oracle_s", "auto", "auto_s", "auto_pred_s",
                "penalty_pct", "model", "model_s", "model_penalty_pct", "explore_s",
                "mpich_s", "ompi_s", "auto_vs_smpi", "oracle_vs_smpi"]
        w.writerow(keys)
        for r in rows:
            w.writerow([r[k] for k in keys])
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump({"points": rows, "summary": summary}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
