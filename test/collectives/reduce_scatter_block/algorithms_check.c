/*
 * Correctness of every reduce_scatter_block algorithm of collectives/
 * (reduce_scatter_block.h), called directly over identity, reversed and
 * shuffled rank orders: cases of rsb_data.h (predefined ops, a commutative
 * user op on a vector type, a non-commutative user op - run only by the
 * algorithms that accept it), MPI_IN_PLACE, counts 0, 1, 37 and `big`, also
 * on a communicator with the ranks reversed.  Every int of the result block
 * (gaps included) is compared with the rank's own reference.
 * Usage: rsb_algorithms_check [big]   Exit status 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "reduce_scatter_block.h"
#include "rsb_data.h"

static int me;
static long failures = 0, checks = 0, big = 2000;
static int next_id = 0;

#define CHECK(cond, ...)                                        \
  do {                                                          \
    ++checks;                                                   \
    if (!(cond) && failures++ < 12) {                           \
      fprintf(stderr, "rsb_algorithms_check rank %d: ", me);    \
      fprintf(stderr, __VA_ARGS__);                             \
      fprintf(stderr, "\n");                                    \
    }                                                           \
  } while (0)

static void make_order(int o, int P, int *order) { /* 0 identity, 1 reversed, 2 shuffled */
  for (int i = 0; i < P; ++i) order[i] = o == 1 ? P - 1 - i : i;
  if (o == 2) {
    unsigned x = 777u + (unsigned)P;
    for (int i = P - 1; i > 0; --i) {
      x = x * 1103515245u + 12345u;
      int j = (int)((x >> 8) % (unsigned)(i + 1)), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }
}

static void run_one(const arcoll_algo_desc_t *a, MPI_Comm comm, int c, long n, int inplace,
                    const arcoll_sched_t *s, int o) {
  int P, r, id = ++next_id;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  void *sbuf = rsb_alloc(c, n * P), *rbuf = rsb_alloc(c, inplace ? n * P : n),
       *exp = rsb_alloc(c, n);
  rsb_fill(c, inplace ? rbuf : sbuf, n * P, id, r);
  rsb_expect(c, exp, n, r, P, id);
  int rc = ((arcoll_reduce_scatter_block_fn)a->fn)(inplace ? MPI_IN_PLACE : sbuf, rbuf, n,
                                                   rsb_type(c), rsb_op(c), comm, s);
  CHECK(rc == MPI_SUCCESS, "%s rc %d", a->name, rc);
  long bad = rsb_diff(c, rbuf, exp, n);
  CHECK(bad == 0, "%s order %d case %d n=%ld inplace %d P=%d rank %d: %ld wrong ints", a->name,
        o, c, n, inplace, P, r, bad);
  free(sbuf), free(rbuf), free(exp);
}

static void run_all(MPI_Comm comm) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const long sizes[4] = {0, 1, 37, big};
  for (int i = 0; i < arcoll_reduce_scatter_block_nalgorithms; ++i) {
    const arcoll_algo_desc_t *a = &arcoll_reduce_scatter_block_algorithms[i];
    for (int o = 0; o < 3; ++o) {
      make_order(o, P, order);
      const arcoll_sched_t s = {o ? order : NULL, 0, 0, 43};
      for (int c = 0; c < RSB_NCASES; ++c) {
        if (c == 3 && (a->flags & ARCOLL_ALGO_COMMUTATIVE_ONLY)) continue;
        for (int z = 0; z < 4; ++z)
          for (int ip = 0; ip < 2; ++ip) run_one(a, comm, c, sizes[z], ip, &s, o);
      }
    }
  }
  free(order);
}

int main(int argc, char **argv) {
  int P;
  MPI_Init(&argc, &argv);
  if (argc > 1) big = atol(argv[1]);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  rsb_init();
  run_all(MPI_COMM_WORLD);
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 0, P - me, &rev);
  run_all(rev);
  MPI_Comm_free(&rev);
  long mine[2] = {failures, checks}, tot[2];
  MPI_Reduce(mine, tot, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD); /* the verdict only */
  if (me == 0)
    printf("rsb_algorithms_check P=%d: %s (%ld failures, %ld checks)\n", P,
           tot[0] ? "FAIL" : "OK", tot[0], tot[1]);
  rsb_free();
  MPI_Finalize();
  return tot[0] && me == 0 ? 1 : 0;
}
