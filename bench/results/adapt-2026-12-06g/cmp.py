#!/usr/bin/env python3
"""cmp.py FILE: per case, new / head of the time inside (summed over ranks) and of the loop time."""
import re, sys
rows = {}
for line in open(sys.argv[1]):
    lib, rest = line.split(' ', 1)
    case, res, dec = [x.strip() for x in rest.split('|')]
    m = re.search(r'in=(\S+) loop=(\S+)', res)
    rows.setdefault(case, {})[lib] = (float(m.group(1)), float(m.group(2)), dec) if m else None
for case, d in rows.items():
    h, n = d.get('head'), d.get('new')
    if h and n:
        print(f"{case:48s} in {h[0]:9.4f} -> {n[0]:9.4f} ({n[0]/h[0]:.3f})  loop {n[1]/h[1]:.3f}  "
              f"{'' if h[2] == n[2] else 'DECISION ' + h[2] + ' => ' + n[2]}")
    else:
        print(f"{case:48s} incomplete")
