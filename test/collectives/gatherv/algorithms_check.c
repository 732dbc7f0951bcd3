/*
 * Correctness of every gatherv and scatterv algorithm of collectives/
 * (gatherv.h), called directly: identity order at every root, reversed and
 * shuffled orders (rotated so that the root comes first) at roots P-1 and
 * P/2; cases of allgatherv_data.h (irregular counts with zeros, one
 * contributing rank, equal counts; derived types, different send / receive
 * types; blocks in reverse rank order with gaps); MPI_IN_PLACE at the root;
 * sizes 0, 37 and `big` elements; streams in one chunk and, up to 37
 * elements, in 8-byte chunks (many messages, some streams exact multiples);
 * the count arrays are NULL off the root; also on a communicator with the
 * ranks reversed (identity order, root 0).  Each rank computes the
 * expected buffer itself and compares every int (gaps, sentinels).
 * Usage: gatherv_scatterv_algorithms_check [big_elements]   Exit 1 on failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gatherv.h"
#include "gatherv_data.h"

static int me;
static long failures = 0, checks = 0, big = 2000;
static int next_id = 0;

#define CHECK(cond, ...)                                                      \
  do {                                                                        \
    ++checks;                                                                 \
    if (!(cond) && failures++ < 12) {                                         \
      fprintf(stderr, "gatherv_scatterv_algorithms_check rank %d: ", me);     \
      fprintf(stderr, __VA_ARGS__);                                           \
      fprintf(stderr, "\n");                                                  \
    }                                                                         \
  } while (0)

/* order of kind o (0 identity, 1 reversed, 2 shuffled, the same on every
 * rank) with `root` moved to the front, the others in their order */
static void make_order(int o, int P, int root, int *order) {
  int *base = malloc(sizeof(int) * (size_t)P), n = 1;
  for (int i = 0; i < P; ++i) base[i] = o == 1 ? P - 1 - i : i;
  unsigned x = 54321u + (unsigned)P;
  for (int i = P - 1; o == 2 && i > 0; --i) { /* Fisher-Yates, one LCG on every rank */
    x = x * 1103515245u + 12345u;
    int j = (int)((x >> 8) % (unsigned)(i + 1)), t = base[i];
    base[i] = base[j], base[j] = t;
  }
  order[0] = root;
  for (int i = 0; i < P; ++i)
    if (base[i] != root) order[n++] = base[i];
  free(base);
}

static void run_one(const arcoll_algo_desc_t *a, int scatter, MPI_Comm comm, int root, int c,
                    int pat, long n, int inplace, const arcoll_sched_t *s, const char *oname) {
  int P, r, rc;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  gv_call_t k;
  gv_prepare(&k, scatter, c, pat, n, P, r, root, ++next_id, inplace);
  MPI_Aint *cnt = NULL, *dsp = NULL; /* significant at the root only */
  if (r == root) {
    cnt = malloc(sizeof(MPI_Aint) * 2 * (size_t)P), dsp = cnt + P;
    for (int q = 0; q < P; ++q) cnt[q] = k.cnt[q], dsp[q] = k.dsp[q];
  }
  const int ip = inplace && r == root;
  if (scatter)
    rc = ((arcoll_scatterv_fn)a->fn)(k.all, cnt, dsp, ag_mpi(k.bt), ip ? MPI_IN_PLACE : k.one,
                                     k.on, ag_mpi(k.ot), root, comm, s);
  else
    rc = ((arcoll_gatherv_fn)a->fn)(ip ? MPI_IN_PLACE : k.one, k.on, ag_mpi(k.ot), k.all, cnt,
                                    dsp, ag_mpi(k.bt), root, comm, s);
  CHECK(rc == MPI_SUCCESS, "%s %s rc %d", a->collective, a->name, rc);
  long bad = gv_wrong(&k, scatter, r, root, inplace);
  CHECK(bad == 0,
        "%s %s order %s root %d chunk %ld case %d pattern %d n=%ld inplace %d P=%d rank %d: "
        "%ld wrong ints",
        a->collective, a->name, oname, root, (long)s->segment_bytes, c, pat, n, inplace, P, r,
        bad);
  free(cnt);
  gv_free(&k);
}

static void run_root(const arcoll_algo_desc_t *a, int scatter, MPI_Comm comm, int o, int root,
                     int *order) {
  static const char *oname[3] = {"identity", "reversed", "shuffled"};
  const long sizes[3] = {0, 37, big};
  int P;
  MPI_Comm_size(comm, &P);
  make_order(o, P, root, order);
  for (int chunk = 0; chunk <= 8; chunk += 8) {
    const arcoll_sched_t s = {o ? order : NULL, chunk, 0, 42};
    for (int c = 0; c < AGV_NCASES; ++c)
      for (int pat = 0; pat < AGV_NPATTERNS; ++pat)
        for (int z = 0; z < (chunk ? 2 : 3); ++z)
          for (int ip = 0; ip < 2; ++ip)
            run_one(a, scatter, comm, root, c, pat, sizes[z], ip, &s, oname[o]);
  }
}

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  for (int scatter = 0; scatter < 2; ++scatter) {
    const arcoll_algo_desc_t *t = scatter ? arcoll_scatterv_algorithms : arcoll_gatherv_algorithms;
    const int nt = scatter ? arcoll_scatterv_nalgorithms : arcoll_gatherv_nalgorithms;
    for (int i = 0; i < nt; ++i)
      for (int o = 0; o < norders; ++o) {
        if (o == 0)
          for (int root = 0; root < (norders > 1 ? P : 1); ++root)
            run_root(&t[i], scatter, comm, o, root, order);
        else
          for (int j = 0; j < 2; ++j) run_root(&t[i], scatter, comm, o, j ? P / 2 : P - 1, order);
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
    printf("gatherv_scatterv_algorithms_check P=%d: %s (%ld failures, %ld checks)\n", P,
           tot[0] ? "FAIL" : "OK", tot[0], tot[1]);
  ag_types_free();
  MPI_Finalize();
  return tot[0] && me == 0 ? 1 : 0;
}
