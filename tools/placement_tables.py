"""Rank correlation and the printed tables of the placement experiments
(tools/placement_experiments.py, tools/placement_suite_offline.py)."""
import math


def spearman(x, y):
    """Spearman rank correlation of two equal-length sequences (ties get their
    average rank; Pearson correlation of the ranks). NaN when a side is constant,
    has fewer than 3 values or a NaN (a model that does not apply, e.g. a path without receives)."""
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2.0
            i = j + 1
        return r
    if len(x) != len(y) or len(x) < 3 or any(v != v for v in list(x) + list(y)):
        return float("nan")
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def rank_ceiling(rho_ab):
    """The highest Spearman one ranking can reach against each of two orderings A and B at once, given
    their Spearman rho_ab: sqrt((1 + rho_ab) / 2). Spearman is the cosine of the angle between the
    centred rank vectors, and angles on the sphere obey the triangle inequality, so a ranking M has
    min(rho(M, A), rho(M, B)) <= cos(arccos(rho_ab) / 2). Used by placement_suite_offline.py retest: if
    two SMPI configurations of one machine order the mappings with rho_ab < 0.62, no model of the trace
    reaches Spearman 0.9 against both. NaN for NaN (an undefined Spearman)."""
    if math.isnan(rho_ab):
        return float("nan")
    return math.sqrt((1.0 + max(-1.0, min(1.0, rho_ab))) / 2.0)


def print_tables(results, alt_models):
    """The experiments' tables (placement_experiments.py --out's results.json as `results`):
    per setting and workload, each strategy's model and simulated times and gains against the
    initial mapping; the fidelity line names the Spearman of each model in `alt_models`."""
    for name, res in results["settings"].items():
        print(f"\n== setting {name}: {res['machine']}, {res['ranks']} ranks, initial mapping {res['initial']} ==")
        print(f"{'workload':<12} {'strategy':<11} {'model (ms)':>11} {'sim (ms)':>11} {'model gain':>10} "
              f"{'sim gain':>9} {'hop-bytes':>13} {'maxlink':>7} {'map (s)':>8}")
        for w, wr in res["workloads"].items():
            base = wr["rows"][0]
            for r in wr["rows"]:
                mg = 100 * (r["model_s"] - base["model_s"]) / base["model_s"] if base["model_s"] > 0 else 0
                sg = 100 * (r["sim_s"] - base["sim_s"]) / base["sim_s"] if base["sim_s"] > 0 else 0
                print(f"{w:<12} {r['strategy']:<11} {1e3 * r['model_s']:>11.4f} {1e3 * r['sim_s']:>11.4f} "
                      f"{mg:>+9.1f}% {sg:>+8.1f}% {r['hop_bytes']:>13.0f} {r['max_congestion']:>7} "
                      f"{r['map_seconds']:>8.3f}")
            if "fidelity" in wr:
                f = wr["fidelity"]
                alt = "".join(f"{c} model: {f.get(f'spearman_{c}', float('nan')):.3f}, " for c in alt_models)
                print(f"{w:<12} fidelity over {len(f['points'])} mappings: Spearman(model cost, simulated time) = "
                      f"{f['spearman']:.3f}  ({alt}hop-bytes: {f['spearman_hop_bytes']:.3f})")
    print("\n(gain = change vs identity, i.e. the initial mapping; negative is better. model = arcoll's seed-001 "
          "estimate (collision count); sim = SMPI simulated communication time; refined-vol / -fluid / -blend = "
          "refinement of the volume / max-min fluid / blend cost, `--contention volume|fluid|blend`.)")
