#!/usr/bin/env python3
"""ratio.py FILE...: rot.sh lines -> auto / min(mpich, ompi), in and loop, per (coll, bytes, scenario, extra)."""
import re, sys
rows = {}
for f in sys.argv[1:]:
    for line in open(f):
        m = re.match(r'(\S+) (\S+) (\d+) (.*?) \| RESULT coll=(\S+) scenario=(\S+) ranks=\d+ bytes=(\d+) calls=\d+ inside_sum=(\S+) loop=(\S+)', line)
        if not m: continue
        col, plat, P, extra, c, s, b, i, l = m.groups()
        rows.setdefault((plat, P, c, int(b), s, extra.strip()), {})[col] = (float(i), float(l))
for k, v in rows.items():
    nat = [v[x] for x in ('mpich', 'ompi') if x in v]
    if not nat or 'auto' not in v: continue
    ni, nl = min(n[0] for n in nat), min(n[1] for n in nat)
    a = v['auto']
    print('%-5s %4s %-8s %8d %-9s %-4s | mpich %10.4g ompi %10.4g auto %10.4g | in %.3f loop %.3f' % (
        k[0], k[1], k[2], k[3], k[4], k[5], v.get('mpich', (float('nan'),))[0], v.get('ompi', (float('nan'),))[0], a[0], a[0] / ni, a[1] / nl))
