#!/usr/bin/env python3
"""Root leads of one coll_loop -s moving -e run (no steady-state runs needed): per window, the
calls the root had entered when the window's late rank began its delay, counted from the move
(tools/adapt_recovery.py root_lead).  Usage: leads.py FILE P [ROOT] (200 calls)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "tools"))
from adapt_recovery import WINDOW, move_root_leads, parse_times  # noqa: E402

path, P = sys.argv[1], int(sys.argv[2])
root = int(sys.argv[3]) if len(sys.argv) > 3 else 0
with open(path) as f:
    ent, ext = parse_times(f.read(), 200, P, path)
leads = move_root_leads(ent, ext, P, root)
print(f"{os.path.basename(path)}: root_lead per window 1..19: {' '.join(map(str, leads))}; "
      f"< {WINDOW}: {sum(1 for x in leads if x < WINDOW)} of {len(leads)}")
