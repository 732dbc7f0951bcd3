/*
 * Block sizes of the reduce_scatter checks (algorithms_check.c here, direct
 * calls; test/adapt/reduce_scatter_check.c, through libarcoll); the data and
 * the expected results are rsb_data.h's (reduce_scatter_block), indexed by
 * the global element index over all P blocks.
 * Patterns of recvcounts[r] for a size n:
 *   0  irregular: ((7 r + 3) mod 5) n / 4 (zero for r = 1, 6, 11, ...)
 *   1  one rank only: n for rank P-1, 0 elsewhere
 *   2  equal: n for every rank
 */
#ifndef ARCOLL_TEST_RSC_COUNTS_H
#define ARCOLL_TEST_RSC_COUNTS_H

#define RSC_NPATTERNS 3

static long rsc_count(int pattern, long n, int r, int P) {
  if (pattern == 0) return ((7L * r + 3) % 5) * n / 4;
  if (pattern == 1) return r == P - 1 ? n : 0;
  return n;
}

/* counts[0..P) of pattern and n; *first = the first element of rank r's
 * block; returns the total */
static long rsc_counts(int pattern, long n, int P, int r, long *counts, long *first) {
  long total = 0;
  for (int q = 0; q < P; ++q) {
    counts[q] = rsc_count(pattern, n, q, P);
    if (q == r) *first = total;
    total += counts[q];
  }
  return total;
}

#endif
