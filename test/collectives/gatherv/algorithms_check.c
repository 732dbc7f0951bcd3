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
#define CHECK_PROG "gatherv_scatterv_algorithms_check"
#include "../algo_check.h"

#include "gatherv.h"
#include "gatherv_data.h"

/* order of kind o (algo_check_order) with `root` moved to the front, the
 * others in their order */
static void make_order(int o, int P, int root, int *order) {
  int *base = malloc(sizeof(int) * (size_t)P), n = 1;
  algo_check_order(o, P, 54321u, base);
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
            run_one(a, scatter, comm, root, c, pat, sizes[z], ip, &s, algo_check_order_name[o]);
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
  const algo_check_t d = {ag_types_init, ag_types_free, run_all, 1};
  return algo_check_main(argc, argv, &d);
}
