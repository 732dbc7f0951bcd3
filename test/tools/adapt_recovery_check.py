#!/usr/bin/env python3
"""Checks tools/adapt_recovery.py (no MPI): coll_loop's moving rank sequence, the per-call parser's
errors, the steady state and the per-window recovery on hand-made series, and the command's exit
status on a missing file. Exit 0 when every check holds, 1 with the failed ones listed."""
import io
import os
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from adapt_recovery import (main, moving_rank, parse_calls, parse_times, recovery,  # noqa: E402
                            root_lead, steady_state)

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def raises(f, *a):
    try:
        f(*a)
    except ValueError as e:
        return str(e)
    return None


# coll_loop.c delay_of, S_MOVING with -S 1: (w 37 + 11) mod P, the next rank if that is the root
check([moving_rank(w, 64, 0) for w in range(3)] == [11, 48, 21], "P = 64 windows 0-2: ranks 11, 48, 21")
check(moving_rank(0, 11, 0) == 1, "the root's turn goes to the next rank")
check(moving_rank(1, 64, 48) == 49, "root 48: window 1's rank 48 -> 49")

check(parse_calls("x\nCALL 1 inside_sum=2.5\nCALL 0 inside_sum=1\nRESULT ...\n", 2, "f") == [1.0, 2.5],
      "calls in any order, other lines skipped")
e = raises(parse_calls, "CALL 0 inside_sum=1\n", 2, "moving-auto.txt")
check(e is not None and "moving-auto.txt" in e and "1 of 2 calls missing" in e, f"missing call named: {e}")
check(raises(parse_calls, "CALL 0 inside_sum=1\nCALL 0 inside_sum=1\n", 1, "f") is not None, "a repeated call")
check(raises(parse_calls, "CALL 5 inside_sum=1\n", 2, "f") is not None, "a call out of range")

check(steady_state([9, 9, 9, 1, 2, 3]) == 2, "median of the second half")

# coll_loop -e: 3 calls, 2 ranks; the root (0) runs ahead, rank 1 leaves call 1 at t = 2.5
tx = "ENTRY 0 0 1\nEXIT 0 1 2\nENTRY 1 1 2\nEXIT 1 1.5 2.5\nENTRY 2 2 4\nEXIT 2 2.5 5\nCALL 0 inside_sum=1\n"
ent, ext = parse_times(tx, 3, 2, "f")
check(ent[2] == [2.0, 4.0] and ext[1] == [1.5, 2.5], f"times parsed by call and rank ({ent}, {ext})")
check(parse_times("CALL 0 inside_sum=1\n", 1, 2, "f") is None, "no ENTRY / EXIT lines: None")
e = raises(parse_times, "ENTRY 0 1 2\nEXIT 0 1 2\nENTRY 1 1\n", 2, 2, "moving-auto.txt")
check(e is not None and "moving-auto.txt" in e and "not 2 times" in e, f"short line named: {e}")
e = raises(parse_times, "ENTRY 0 1 2\nEXIT 0 1 2\n", 2, 2, "f")
check(e is not None and "missing" in e, f"a call's lines missing: {e}")
# rank 1 leaves call 1 at 2.5: the root has entered calls 0, 1, 2 by then -> 3 - move 2 = 1
check(root_lead(ent, ext, 2, 1, 0) == 1, f"root lead 1 ({root_lead(ent, ext, 2, 1, 0)})")
# rank 1 leaves call 0 at 2: the root entered calls 0, 1, 2 (2 <= 2) -> 3 - 1 = 2
check(root_lead(ent, ext, 1, 1, 0) == 2, "root lead counts a call entered at that instant")

mv = [5, 3, 1.04, 1, 1, 1, 1, 2, 1, 1] + [1, 1, 1, 1, 1, 1, 1, 1, 1, 1] + [4] * 10
r = recovery(mv, [1.0, 1.0, 1.0], 1.05, 10)
check(r[0]["first"] == 2 and r[0]["over"] == 3, f"window 0: back at call 2, 3 calls over ({r[0]})")
check(abs(r[0]["excess"] - 0.704) < 1e-9, f"window 0: 7.04 s over 10 x 1 ({r[0]['excess']})")
check(r[1] == {"first": 0, "over": 0, "excess": 0.0}, f"window 1 at its steady state ({r[1]})")
check(r[2]["first"] is None and r[2]["over"] == 10, f"window 2 never back ({r[2]})")

with tempfile.TemporaryDirectory() as d:
    calls = 20
    with open(os.path.join(d, "meta.txt"), "w") as f:
        f.write(f"P=64 root=0 calls={calls} selector=mpich label=t\n")
    with open(os.path.join(d, "moving-auto.txt"), "w") as f:
        f.write("".join(f"CALL {c} inside_sum={3 if c in (10, 11) else 1}\n" for c in range(calls)))
    with open(os.path.join(d, "moving-mpich.txt"), "w") as f:
        f.write("".join(f"CALL {c} inside_sum=2\n" for c in range(calls)))
    with open(os.path.join(d, "steady-11.txt"), "w") as f:
        f.write("".join(f"CALL {c} inside_sum=1\n" for c in range(calls)))
    err, out = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(out):
        rc = main([d])
    check(rc == 1 and "steady-48.txt" in err.getvalue(), f"missing steady file named: {rc} {err.getvalue()}")
    with open(os.path.join(d, "steady-48.txt"), "w") as f:
        f.write("".join(f"CALL {c} inside_sum=1\n" for c in range(calls)))
    out = io.StringIO()
    with redirect_stdout(out):
        rc = main([d])
    text = out.getvalue()
    check(rc == 0 and "back within the window: 1" in text and "median 2" in text
          and "calls above 1.05x: 2 of 10" in text and "moving / steady over windows 1..1: 1.400" in text
          and "root_lead" not in text, f"report: {text}")
    # with -e's times: rank 48 (window 1's) leaves call 9 at 9.5; the root entered calls 0..12 by then
    with open(os.path.join(d, "moving-auto.txt"), "a") as f:
        for c in range(calls):
            f.write(f"ENTRY {c} " + " ".join(str(c * 0.75 if r == 0 else c) for r in range(64)) + "\n")
            f.write(f"EXIT {c} " + " ".join(str(c * 0.75 + 0.1 if r == 0 else c + 0.5) for r in range(64)) + "\n")
    out = io.StringIO()
    with redirect_stdout(out):
        rc = main([d])
    text = out.getvalue()
    check(rc == 0 and "root_lead: median 3, min 3, max 3 calls" in text
          and "could follow within the window: 1 of 1" in text, f"report with times: {text}")

if failures:
    print("adapt_recovery_check: FAILED\n  " + "\n  ".join(failures))
    sys.exit(1)
print("adapt_recovery_check: all checks hold")
