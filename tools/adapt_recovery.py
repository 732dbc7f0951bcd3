#!/usr/bin/env python3
"""How fast the adaptive layer gets back to its steady state after the late rank moves.

Reads the per-call files tools/adapt-recovery.sh writes (coll_loop -p: rank 0 prints
`CALL c inside_sum=<s>`, the time inside the collective summed over ranks at call c, simulated
seconds) and prints one line per window of coll_loop's `moving` scenario (the late rank changes
every 10 calls: rank (w 37 + 11) mod P in window w with -S 1, the next rank if that is the root).

Steady state of window w: the median per-call time of the same library with that window's late
rank late from the first call (coll_loop -s one_late -L rank), over the run's second half.
A window is back when a call's time is at most `tol` x that steady state (issue 16's target:
within 5 % within 10 calls of each move). Per window: the first such call (0-9, counted from the
move; `-` none), the calls above the bound, and the window's time over its steady state (percent).
The selector's column (SMPI's mpich selector in the same moving run, when given) is the ratio of
the window's sums, auto / selector, for comparison with the steady ratio (steady sum / selector).

Usage: adapt_recovery.py DIR [--tol 1.05]
  DIR holds moving-auto.txt, moving-SELECTOR.txt (optional), steady-RANK.txt and meta.txt
  (`P=.. root=.. calls=..`). Exit status 1 on a missing or unreadable file, naming it.
"""
import argparse
import os
import re
import statistics
import sys

CALL_RE = re.compile(r"^CALL (\d+) inside_sum=(\S+)$")
# calls per window of coll_loop's `moving` scenario (test/apps/coll_loop.c delay_of: call / 10)
WINDOW = 10


def parse_calls(text, calls, what):
    """Per-call sums from coll_loop -p output: a list of `calls` floats (seconds).
    Raises ValueError naming `what` when a call is missing or repeated."""
    out = [None] * calls
    for line in text.splitlines():
        m = CALL_RE.match(line.strip())
        if not m:
            continue
        c = int(m.group(1))
        if c >= calls or out[c] is not None:
            raise ValueError(f"{what}: call {c} out of range 0..{calls - 1} or repeated")
        out[c] = float(m.group(2))
    missing = [c for c, v in enumerate(out) if v is None]
    if missing:
        raise ValueError(f"{what}: {len(missing)} of {calls} calls missing (first: {missing[0]}); "
                         "was coll_loop run with -p and did it finish?")
    return out


def moving_rank(w, P, root):
    """coll_loop's `moving` late rank of window w with -S 1 (test/apps/coll_loop.c delay_of)."""
    r = (w * 37 + 11) % P
    return (r + 1) % P if r == root else r


def steady_state(per_call):
    """Median of the run's second half (seconds per call)."""
    half = per_call[len(per_call) // 2:]
    return statistics.median(half)


def recovery(moving, steady, tol=1.05, window=WINDOW):
    """moving: per-call sums of the moving run; steady: per-window steady state (seconds per call),
    one per window (len(moving) // window). Returns per window a dict: first (the first call of
    the window, 0-based from the move, at or under tol x steady; None if none), over (calls above
    the bound) and excess (window's time over window x steady, fraction)."""
    res = []
    for w, s in enumerate(steady):
        calls = moving[w * window:(w + 1) * window]
        bound = tol * s
        first = next((k for k, t in enumerate(calls) if t <= bound), None)
        over = sum(1 for t in calls if t > bound)
        excess = sum(calls) / (len(calls) * s) - 1 if s > 0 else float("inf")
        res.append({"first": first, "over": over, "excess": excess})
    return res


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror}; rerun tools/adapt-recovery.sh") from e


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--tol", type=float, default=1.05)
    a = ap.parse_args(argv)
    try:
        meta = dict(kv.split("=", 1) for kv in read(os.path.join(a.dir, "meta.txt")).split())
        P, root, calls = int(meta["P"]), int(meta["root"]), int(meta["calls"])
        sel = meta.get("selector", "")
        mv = parse_calls(read(os.path.join(a.dir, "moving-auto.txt")), calls, "moving-auto.txt")
        msel = None
        if sel:
            f = f"moving-{sel}.txt"
            msel = parse_calls(read(os.path.join(a.dir, f)), calls, f)
        nw = calls // WINDOW
        ranks = [moving_rank(w, P, root) for w in range(nw)]
        steady = {}
        for r in sorted(set(ranks)):
            f = f"steady-{r}.txt"
            steady[r] = steady_state(parse_calls(read(os.path.join(a.dir, f)), calls, f))
    except (ValueError, KeyError) as e:
        print(f"adapt_recovery: {e}", file=sys.stderr)
        return 1
    st = [steady[r] for r in ranks]
    res = recovery(mv[:nw * WINDOW], st, a.tol, WINDOW)
    print(f"# {meta.get('label', a.dir)}: moving late rank, {nw} windows of {WINDOW} calls; "
          f"back = a call <= {a.tol:g} x the steady state of that window's late rank")
    hdr = "window  calls    rank  steady_ms  first  over  excess_%"
    if msel:
        hdr += f"  auto/{sel}  steady/{sel}"
    print(hdr)
    for w, (r, s, x) in enumerate(zip(ranks, st, res)):
        line = (f"{w:6d}  {w * WINDOW:3d}-{(w + 1) * WINDOW - 1:<3d}  {r:4d}  {s * 1e3:9.3f}  "
                f"{'-' if x['first'] is None else x['first']:>5}  {x['over']:4d}  {100 * x['excess']:8.1f}")
        if msel:
            ws = sum(msel[w * WINDOW:(w + 1) * WINDOW])
            wa = sum(mv[w * WINDOW:(w + 1) * WINDOW])
            line += f"  {wa / ws:10.3f}  {WINDOW * s / ws:11.3f}"
        print(line)
    later = res[1:]  # window 0 is the run's start, not a move
    back = [x for x in later if x["first"] is not None]
    firsts = sorted(x["first"] for x in back)
    tot_m = sum(mv[WINDOW:nw * WINDOW])
    tot_s = sum(WINDOW * s for s in st[1:])
    print(f"moves: {len(later)}; back within the window: {len(back)}"
          f" (first call after the move: median {statistics.median(firsts) if firsts else '-'},"
          f" max {max(firsts) if firsts else '-'}); calls above {a.tol:g}x: "
          f"{sum(x['over'] for x in later)} of {len(later) * WINDOW}; "
          f"moving / steady over windows 1..{nw - 1}: {tot_m / tot_s:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
