/*
 * Correctness of every allgatherv algorithm of collectives/ (allgatherv.h),
 * called directly, over several rank orders (identity, reversed, a shuffled
 * order the same on every rank).  Cases of allgatherv_data.h: irregular
 * counts with zeros, one contributing rank, equal counts; derived types and
 * different send / receive types; blocks in reverse rank order with gaps;
 * MPI_IN_PLACE; sizes 0, 37 and `big` elements; also on a communicator with
 * the ranks in reverse order (identity order only).  Each rank computes the
 * expected buffer itself and compares every int (gaps and sentinels
 * included).
 * Usage: allgatherv_algorithms_check [big_elements]   Exit status 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "allgatherv.h"
#include "allgatherv_data.h"

static int me;
static long failures = 0, checks = 0, big = 2000;
static int next_id = 0;

#define CHECK(cond, ...)                                                \
  do {                                                                  \
    ++checks;                                                           \
    if (!(cond) && failures++ < 12) {                                   \
      fprintf(stderr, "allgatherv_algorithms_check rank %d: ", me);     \
      fprintf(stderr, __VA_ARGS__);                                     \
      fprintf(stderr, "\n");                                            \
    }                                                                   \
  } while (0)

/* the order of kind o over P ranks: 0 identity, 1 reversed, 2 shuffled */
static void make_order(int o, int P, int *order) {
  for (int i = 0; i < P; ++i) order[i] = o == 1 ? P - 1 - i : i;
  if (o == 2) {
    unsigned x = 54321u + (unsigned)P;
    for (int i = P - 1; i > 0; --i) { /* Fisher-Yates, one LCG on every rank */
      x = x * 1103515245u + 12345u;
      int j = (int)((x >> 8) % (unsigned)(i + 1)), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }
}

static void run_one(const arcoll_algo_desc_t *a, MPI_Comm comm, int c, int pat, long n,
                    int inplace, const arcoll_sched_t *s, const char *oname) {
  int P, r, st, rt, id = ++next_id;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  agv_types(c, &st, &rt);
  long *cnt = malloc(sizeof(long) * 2 * (size_t)P), *dsp = cnt + P;
  MPI_Aint *acnt = malloc(sizeof(MPI_Aint) * 2 * (size_t)P), *adsp = acnt + P;
  const long len = agv_layout(c, pat, n, P, cnt, dsp), sn = agv_sn(pat, n, r, P);
  for (int q = 0; q < P; ++q) acnt[q] = cnt[q], adsp[q] = dsp[q];
  void *sbuf = ag_alloc(st, sn), *rbuf = ag_alloc(rt, len), *exp = ag_alloc(rt, len);
  ag_fill(st, sbuf, sn * ag_scalars_per(st), id, r);
  for (int q = 0; q < P; ++q)
    ag_fill(rt, (char *)exp + dsp[q] * ag_extent(rt),
            agv_sn(pat, n, q, P) * ag_scalars_per(st), id, q);
  if (inplace)
    ag_fill(rt, (char *)rbuf + dsp[r] * ag_extent(rt), sn * ag_scalars_per(st), id, r);
  int rc = ((arcoll_allgatherv_fn)a->fn)(inplace ? MPI_IN_PLACE : sbuf, sn, ag_mpi(st), rbuf,
                                         acnt, adsp, ag_mpi(rt), comm, s);
  CHECK(rc == MPI_SUCCESS, "%s rc %d", a->name, rc);
  long bad = ag_diff(rt, rbuf, exp, len);
  CHECK(bad == 0, "%s order %s case %d pattern %d n=%ld inplace %d P=%d rank %d: %ld wrong ints",
        a->name, oname, c, pat, n, inplace, P, r, bad);
  free(sbuf), free(rbuf), free(exp), free(cnt), free(acnt);
}

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  static const char *oname[3] = {"identity", "reversed", "shuffled"};
  const long sizes[3] = {0, 37, big};
  for (int i = 0; i < arcoll_allgatherv_nalgorithms; ++i) {
    const arcoll_algo_desc_t *a = &arcoll_allgatherv_algorithms[i];
    for (int o = 0; o < norders; ++o) {
      make_order(o, P, order);
      const arcoll_sched_t s = {o ? order : NULL, 0, 0, 42};
      for (int c = 0; c < AGV_NCASES; ++c)
        for (int pat = 0; pat < AGV_NPATTERNS; ++pat)
          for (int z = 0; z < 3; ++z)
            for (int ip = 0; ip < 2; ++ip) run_one(a, comm, c, pat, sizes[z], ip, &s, oname[o]);
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
  ag_types_init();
  run_all(MPI_COMM_WORLD, 3);
  MPI_Comm rev; /* ranks in reverse order of MPI_COMM_WORLD */
  MPI_Comm_split(MPI_COMM_WORLD, 0, P - me, &rev);
  run_all(rev, 1);
  MPI_Comm_free(&rev);
  long mine[2] = {failures, checks}, tot[2];
  MPI_Reduce(mine, tot, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD); /* the verdict only */
  if (me == 0)
    printf("allgatherv_algorithms_check P=%d: %s (%ld failures, %ld checks)\n", P,
           tot[0] ? "FAIL" : "OK", tot[0], tot[1]);
  ag_types_free();
  MPI_Finalize();
  return tot[0] && me == 0 ? 1 : 0;
}
