#!/usr/bin/env python3
"""Checks coll_loop -e's times (test/apps/coll_loop_times.h) from a run's output, parsed with
tools/adapt_recovery.py's parse_times: every call's ENTRY and EXIT lines present with P times,
entry <= exit, each rank's calls in order (entry of call c + 1 >= exit of call c), and for a bcast
causality on SMPI's one clock: no rank leaves call c before the root entered it. Then the root_lead
of every window of the `moving` scenario is an integer >= -10 (the root is at most the window
behind). Usage: coll_loop_times_check.py FILE P CALLS ROOT COLL; exit 0 when all hold, 1 naming the
first that fails."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from adapt_recovery import WINDOW, move_root_leads, parse_times  # noqa: E402


def main(argv):
    path, P, calls, root, coll = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), argv[4]
    with open(path) as f:
        text = f.read()
    try:
        times = parse_times(text, calls, P, path)
    except ValueError as e:
        return fail(str(e))
    if times is None:
        return fail(f"{path}: no ENTRY / EXIT lines (coll_loop -e)")
    ent, ext = times
    for c in range(calls):
        for r in range(P):
            if not ent[c][r] <= ext[c][r]:
                return fail(f"call {c} rank {r}: entry {ent[c][r]} after exit {ext[c][r]}")
            if c + 1 < calls and not ext[c][r] <= ent[c + 1][r]:
                return fail(f"rank {r}: call {c + 1} entered before call {c} was left")
            if coll == "bcast" and not ext[c][r] >= ent[c][root]:
                return fail(f"bcast call {c}: rank {r} left at {ext[c][r]} before the root entered "
                            f"at {ent[c][root]}")
    leads = move_root_leads(ent, ext, P, root)
    if not leads or any(x < -WINDOW for x in leads):
        return fail(f"root leads {leads}")
    print(f"coll_loop_times_check: {calls} calls x {P} ranks consistent; root leads {leads}")
    return 0


def fail(msg):
    print(f"coll_loop_times_check: FAILED: {msg}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
