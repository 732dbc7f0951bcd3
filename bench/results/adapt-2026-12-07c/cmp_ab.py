#!/usr/bin/env python3
"""cmp_ab.py FILE: abgrid.sh lines -> new / head, in and loop, per case; <<< past 0.3 %."""
import re, sys
rows = {}
for l in open(sys.argv[1]):
    parts = l.split('|')
    lib, key = parts[0].split()[0], ' '.join(parts[0].split()[1:])
    m = re.search(r'in=(\S+) loop=(\S+)', parts[1])
    if m: rows.setdefault(key, {})[lib] = (float(m.group(1)), float(m.group(2)))
for k, v in rows.items():
    if 'head' in v and 'new' in v:
        a, b = v['head'], v['new']
        flag = '  <<<' if abs(b[0] / a[0] - 1) > 0.003 or abs(b[1] / a[1] - 1) > 0.003 else ''
        print(f"{k:44s} in {b[0] / a[0]:.4f} loop {b[1] / a[1]:.4f}{flag}")
