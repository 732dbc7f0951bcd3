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
#define CHECK_PROG "rsb_algorithms_check"
#include "../algo_check.h"

#include "reduce_scatter_block.h"
#include "rsb_data.h"

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

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const long sizes[4] = {0, 1, 37, big};
  for (int i = 0; i < arcoll_reduce_scatter_block_nalgorithms; ++i) {
    const arcoll_algo_desc_t *a = &arcoll_reduce_scatter_block_algorithms[i];
    for (int o = 0; o < norders; ++o) {
      algo_check_order(o, P, 777u, order);
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
  const algo_check_t d = {rsb_init, rsb_free, run_all, ALGO_CHECK_NORDERS};
  return algo_check_main(argc, argv, &d);
}
