#!/usr/bin/env python3
"""table_cmp.py OLD.csv NEW.csv: adapt-bench results of two libraries side by side: per row auto's
inside_sum old -> new, and auto / the better selector (in, loop) in each; rows whose ratio moved by
more than 1 % are marked *, and the worst ratios per scenario family are listed at the end."""
import csv, sys

def load(path):
    rows = {}
    for r in csv.DictReader(open(path)):
        key = (r['platform'], r['P'], r['coll'], int(r['bytes']), r['scenario'])
        rows.setdefault(key, {})[r['column']] = (float(r['inside_sum']), float(r['loop']))
    return rows

def ratio(v):
    nat = [v[c] for c in ('mpich', 'ompi') if c in v]
    if 'auto' not in v or not nat: return None
    return v['auto'][0] / min(n[0] for n in nat), v['auto'][1] / min(n[1] for n in nat)

old, new = load(sys.argv[1]), load(sys.argv[2])
worst = {}
for k in sorted(new):
    rn, ro = ratio(new[k]), ratio(old.get(k, {}))
    if rn is None: continue
    mark = '*' if ro and abs(rn[0] - ro[0]) > 0.01 * ro[0] else ' '
    a_old = old.get(k, {}).get('auto', (float('nan'),))[0]
    print('%s %-4s %3s %-9s %6d %-10s auto %10.4g -> %10.4g | in %s -> %.3f  loop %s -> %.3f' % (
        mark, k[0], k[1], k[2], k[3], k[4], a_old, new[k]['auto'][0],
        '%.3f' % ro[0] if ro else '  -  ', rn[0], '%.3f' % ro[1] if ro else '  -  ', rn[1]))
    fam = 'balanced/noise' if k[4] in ('balanced', 'noise') else k[4]
    if fam not in worst or rn[0] > worst[fam][0][0]: worst[fam] = (rn, k)
print()
for fam, (r, k) in sorted(worst.items()):
    print('worst %-15s in %.3f loop %.3f  %s' % (fam, r[0], r[1], ' '.join(map(str, k))))
