#!/usr/bin/env python3
"""Checks tools/placement_tables.py's spearman() and rank_ceiling() (no MPI): hand values, ties, and the
ceiling against a search over rankings - no ranking of random pairs of orderings beats it, and the
bisecting ranking comes close. Exit 0 when every check holds, 1 with the failed ones listed."""
import itertools
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from placement_tables import rank_ceiling, spearman  # noqa: E402

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


check(spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0, "monotone -> 1")
check(spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0, "reversed -> -1")
check(abs(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]) - 0.8) < 1e-12, "two swaps of five -> 0.8 (1 - 6*4/120)")
check(abs(spearman([1, 1, 2], [1, 2, 3]) - math.sqrt(3) / 2) < 1e-12, "a tie gets the average rank")
check(math.isnan(spearman([1, 1, 1], [1, 2, 3])), "a constant side -> NaN")
nan = float("nan")
check(math.isnan(spearman([nan, nan, nan, nan], [1, 2, 3, 4])), "a model that does not apply (NaN) -> NaN")
check(math.isnan(spearman([1, 2, nan, 4], [1, 2, 3, 4])), "one NaN value -> NaN")
check(rank_ceiling(1.0) == 1.0 and abs(rank_ceiling(0.62) - 0.9) < 1e-3 and rank_ceiling(-1.0) == 0.0,
      "rank_ceiling(1, 0.62, -1) = 1, 0.9, 0")
check(math.isnan(rank_ceiling(float("nan"))), "rank_ceiling(NaN) -> NaN")

# Every permutation M of 7 items against random pairs (A, B): min(rho(M, A), rho(M, B)) never exceeds the
# ceiling, and where A and B agree (rho >= 0.6) the best M reaches within 0.1 of it (discrete rankings of
# 7 items cannot bisect every angle exactly).
rng = random.Random(7)
perms = list(itertools.permutations(range(7)))
for trial in range(40):
    a = rng.choice(perms)
    if trial % 2:  # close orderings: a few swaps of A
        b = list(a)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(6)
            b[i], b[i + 1] = b[i + 1], b[i]
    else:
        b = rng.choice(perms)
    rho_ab = spearman(a, b)
    ceiling = rank_ceiling(rho_ab)
    best = max(min(spearman(m, a), spearman(m, b)) for m in perms)
    check(best <= ceiling + 1e-12, f"trial {trial}: a ranking beat the ceiling ({best} > {ceiling})")
    check(rho_ab < 0.6 or best >= ceiling - 0.1,
          f"trial {trial}: the best ranking {best} far below the ceiling {ceiling}")

for f in failures:
    print("FAILED:", f)
print(f"placement_tables_check: {'OK' if not failures else f'{len(failures)} failed'}")
sys.exit(1 if failures else 0)
