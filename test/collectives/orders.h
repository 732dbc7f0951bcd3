/*
 * The rank orders of the direct algorithm tests (test/collectives/<coll>/
 * algorithms_check.c): kind 0 identity, 1 reversed, 2 shuffled (Fisher-Yates
 * driven by one LCG seeded with seed + P, so every rank builds the same
 * permutation).  order[pos] = communicator rank (arcoll_sched_t.order).
 */
#ifndef ARCOLL_TEST_ORDERS_H
#define ARCOLL_TEST_ORDERS_H

#define TEST_NORDERS 3

static void test_make_order(int kind, int P, unsigned seed, int *order) {
  for (int i = 0; i < P; ++i) order[i] = kind == 1 ? P - 1 - i : i;
  if (kind != 2) return;
  unsigned x = seed + (unsigned)P;
  for (int i = P - 1; i > 0; --i) {
    x = x * 1103515245u + 12345u;
    int j = (int)((x >> 8) % (unsigned)(i + 1)), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

#endif
