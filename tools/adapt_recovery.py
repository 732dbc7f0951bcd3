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

Where could an order decided by the root follow the move at all? When moving-auto.txt also holds
coll_loop -e's ENTRY / EXIT lines (every rank's entry and exit time of every call; SMPI's one
clock), each window gets `root_lead`: the calls the root had already entered when that window's
late rank left the call before the move (its delay starts there: the earliest instant anything
could know), counted from the move. The first call whose order the root can still choose is
move + root_lead, so an exchange through the root - the lateness tracker's, or an oracle that told
the root at that instant - cannot follow a move within the window where root_lead >= 10.

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
TIMES_RE = re.compile(r"^(ENTRY|EXIT) (\d+) (.*)$")
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


def parse_times(text, calls, P, what):
    """coll_loop -e's ENTRY / EXIT lines: (entry, exit), each calls lists of P floats (seconds),
    entry[c][r] = rank r's entry into call c; None when the text has no such line. Raises
    ValueError naming `what` on a line with other than P times or a call missing or repeated."""
    got = {"ENTRY": [None] * calls, "EXIT": [None] * calls}
    seen = False
    for line in text.splitlines():
        m = TIMES_RE.match(line.strip())
        if not m:
            continue
        seen = True
        kind, c, ts = m.group(1), int(m.group(2)), m.group(3).split()
        if c >= calls or got[kind][c] is not None or len(ts) != P:
            raise ValueError(f"{what}: {kind} line of call {c}: out of range 0..{calls - 1}, repeated "
                             f"or not {P} times ({len(ts)})")
        got[kind][c] = [float(t) for t in ts]
    if not seen:
        return None
    for kind, rows in got.items():
        missing = [c for c, v in enumerate(rows) if v is None]
        if missing:
            raise ValueError(f"{what}: {kind} lines of {len(missing)} calls missing (first: {missing[0]})")
    return got["ENTRY"], got["EXIT"]


def root_lead(entry, exit_, move, late, root):
    """Calls the root had entered when rank `late` left call move - 1, minus move (see the module's
    docstring); entry / exit as parse_times returns them, move >= 1."""
    t = exit_[move - 1][late]
    return sum(1 for row in entry if row[root] <= t) - move


def move_root_leads(entry, exit_, P, root):
    """root_lead of every move of coll_loop's `moving` scenario: windows 1 .. calls / WINDOW - 1."""
    return [root_lead(entry, exit_, w * WINDOW, moving_rank(w, P, root), root)
            for w in range(1, len(entry) // WINDOW)]


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
        text = read(os.path.join(a.dir, "moving-auto.txt"))
        mv = parse_calls(text, calls, "moving-auto.txt")
        times = parse_times(text, calls, P, "moving-auto.txt")
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
    leads = [None] + move_root_leads(*times, P, root) if times else None
    if leads:
        hdr += "  root_lead"
    print(hdr)
    for w, (r, s, x) in enumerate(zip(ranks, st, res)):
        line = (f"{w:6d}  {w * WINDOW:3d}-{(w + 1) * WINDOW - 1:<3d}  {r:4d}  {s * 1e3:9.3f}  "
                f"{'-' if x['first'] is None else x['first']:>5}  {x['over']:4d}  {100 * x['excess']:8.1f}")
        if msel:
            ws = sum(msel[w * WINDOW:(w + 1) * WINDOW])
            wa = sum(mv[w * WINDOW:(w + 1) * WINDOW])
            line += f"  {wa / ws:10.3f}  {WINDOW * s / ws:11.3f}"
        if leads:
            line += f"  {'-' if leads[w] is None else leads[w]:>9}"
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
    if leads:
        ls = sorted(leads[1:])
        print(f"root_lead: median {statistics.median(ls)}, min {ls[0]}, max {ls[-1]} calls; moves an order "
              f"decided by the root could follow within the window: {sum(1 for x in ls if x < WINDOW)} "
              f"of {len(ls)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
