/**
 * @file smpi_coll_bench_calls.c
 * @brief The calls of bench/smpi_coll_bench.c per collective: counts of a
 *        point, one call of a table entry or of SMPI's MPI_ collective, the
 *        size libarcoll chooses for (smpi_coll_bench.h; m: bench/README.md).
 */
#include <stdlib.h>

#include "allgather.h"
#include "allgatherv.h"
#include "allreduce.h"
#include "alltoall.h"
#include "alltoallv.h"
#include "bcast.h"
#include "gather.h"
#include "gatherv.h"
#include "reduce.h"
#include "reduce_scatter.h"
#include "reduce_scatter_block.h"
#include "scan.h"
#include "select.h" /* ARCOLL_VBLOCK_NOMINAL_BYTES, ARCOLL_ALLTOALLV_CHOICE_BYTES */
#include "smpi_coll_bench.h"

const char *const bench_coll_names[C_NCOLL] = {
    "bcast", "reduce", "allreduce", "scan", "gather", "scatter", "alltoall", "allgather",
    "reduce_scatter_block", "allgatherv", "gatherv", "scatterv", "alltoallv", "reduce_scatter"};

/* element of the block collectives: 4 bytes, a type reductions take */
#define BT MPI_FLOAT
#define BT_BYTES 4

int bench_is_block(coll_t c) { return c >= C_GATHER && c < C_NCOLL; }

static int is_v(coll_t c) { return c >= C_ALLGATHERV && c < C_NCOLL; }

long long bench_effective_m(coll_t c, long long m, int P) {
  if (!bench_is_block(c)) return m;
  return m < 8LL * P ? 8LL * P : m;
}

long long bench_buffer_bytes(coll_t c, long long m, int P) {
  if (!bench_is_block(c)) return m;
  /* v-variants: at most 1.5 x the nominal blocks, + one block of slack */
  return 2 * m + 4 * (m / P) + 64;
}

int bench_call_alloc(bench_call_t *x, int P, int me) {
  x->P = P, x->me = me;
  x->scounts = malloc(sizeof(MPI_Aint) * 4 * (size_t)P);
  x->iscounts = malloc(sizeof(int) * 4 * (size_t)P);
  if (!x->scounts || !x->iscounts) return 1;
  x->sdispls = x->scounts + P, x->rcounts = x->scounts + 2 * P, x->rdispls = x->scounts + 3 * P;
  x->isdispls = x->iscounts + P, x->ircounts = x->iscounts + 2 * P,
  x->irdispls = x->iscounts + 3 * P;
  return 0;
}

void bench_call_free(bench_call_t *x) {
  free(x->scounts);
  free(x->iscounts);
  x->scounts = NULL, x->iscounts = NULL;
}

/* elements of rank r's block, nominal block c (test/apps/coll_loop_v.h) */
static MPI_Aint vcount(int r, MPI_Aint c) { return c / 2 + (MPI_Aint)(r % 3) * (c / 2); }

void bench_call_set(bench_call_t *x, coll_t c, long long m) {
  const int P = x->P;
  x->c = c;
  if (!bench_is_block(c)) x->count = m < 0 ? 1 : (MPI_Aint)(m / 8);
  else x->count = m < 0 ? 2 : (MPI_Aint)(m / P / BT_BYTES);
  if (!is_v(c)) return;
  MPI_Aint so = 0, ro = 0;
  for (int q = 0; q < P; ++q) {
    /* alltoallv: rank p sends q (and receives from q) the block of (p + q) % P */
    const MPI_Aint n = vcount(c == C_ALLTOALLV ? (x->me + q) % P : q, x->count);
    x->scounts[q] = x->rcounts[q] = n;
    x->sdispls[q] = so, x->rdispls[q] = ro;
    so += n, ro += n;
    x->iscounts[q] = x->ircounts[q] = (int)n;
    x->isdispls[q] = (int)x->sdispls[q], x->irdispls[q] = (int)x->rdispls[q];
  }
}

const arcoll_algo_desc_t *bench_table(coll_t c, int *n) {
  switch (c) {
  case C_BCAST: *n = arcoll_bcast_nalgorithms; return arcoll_bcast_algorithms;
  case C_REDUCE: *n = arcoll_reduce_nalgorithms; return arcoll_reduce_algorithms;
  case C_ALLREDUCE: *n = arcoll_allreduce_nalgorithms; return arcoll_allreduce_algorithms;
  case C_SCAN: *n = arcoll_scan_nalgorithms; return arcoll_scan_algorithms;
  case C_GATHER: *n = arcoll_gather_nalgorithms; return arcoll_gather_algorithms;
  case C_SCATTER: *n = arcoll_scatter_nalgorithms; return arcoll_scatter_algorithms;
  case C_ALLTOALL: *n = arcoll_alltoall_nalgorithms; return arcoll_alltoall_algorithms;
  case C_ALLGATHER: *n = arcoll_allgather_nalgorithms; return arcoll_allgather_algorithms;
  case C_REDUCE_SCATTER_BLOCK:
    *n = arcoll_reduce_scatter_block_nalgorithms;
    return arcoll_reduce_scatter_block_algorithms;
  case C_ALLGATHERV: *n = arcoll_allgatherv_nalgorithms; return arcoll_allgatherv_algorithms;
  case C_GATHERV: *n = arcoll_gatherv_nalgorithms; return arcoll_gatherv_algorithms;
  case C_SCATTERV: *n = arcoll_scatterv_nalgorithms; return arcoll_scatterv_algorithms;
  case C_ALLTOALLV: *n = arcoll_alltoallv_nalgorithms; return arcoll_alltoallv_algorithms;
  case C_REDUCE_SCATTER:
    *n = arcoll_reduce_scatter_nalgorithms;
    return arcoll_reduce_scatter_algorithms;
  case C_NCOLL: break;
  }
  *n = 0;
  return NULL;
}

/* bcast .. scan: MPI_DOUBLE vectors of x->count elements */
static int run_vector(const bench_call_t *x, const arcoll_algo_desc_t *a, const arcoll_sched_t *s) {
  MPI_Comm comm = MPI_COMM_WORLD;
  const MPI_Aint n = x->count;
  void *sb = x->sbuf, *rb = x->rbuf;
  switch (x->c) {
  case C_BCAST:
    return a ? ((arcoll_bcast_fn)a->fn)(rb, n, MPI_DOUBLE, 0, comm, s)
             : MPI_Bcast(rb, (int)n, MPI_DOUBLE, 0, comm);
  case C_REDUCE:
    return a ? ((arcoll_reduce_fn)a->fn)(sb, rb, n, MPI_DOUBLE, x->op, 0, comm, s)
             : MPI_Reduce(sb, rb, (int)n, MPI_DOUBLE, x->op, 0, comm);
  case C_ALLREDUCE:
    return a ? ((arcoll_allreduce_fn)a->fn)(sb, rb, n, MPI_DOUBLE, x->op, comm, s)
             : MPI_Allreduce(sb, rb, (int)n, MPI_DOUBLE, x->op, comm);
  case C_SCAN:
    return a ? ((arcoll_scan_fn)a->fn)(sb, rb, n, MPI_DOUBLE, x->op, comm, s)
             : MPI_Scan(sb, rb, (int)n, MPI_DOUBLE, x->op, comm);
  default: return MPI_ERR_ARG;
  }
}

/* the regular block collectives: blocks of x->count MPI_FLOATs */
static int run_blocks(const bench_call_t *x, const arcoll_algo_desc_t *a, const arcoll_sched_t *s) {
  MPI_Comm comm = MPI_COMM_WORLD;
  const MPI_Aint n = x->count;
  const int in = (int)n;
  void *sb = x->sbuf, *rb = x->rbuf;
  switch (x->c) {
  case C_GATHER:
    return a ? ((arcoll_gather_fn)a->fn)(sb, n, BT, rb, n, BT, 0, comm, s)
             : MPI_Gather(sb, in, BT, rb, in, BT, 0, comm);
  case C_SCATTER:
    return a ? ((arcoll_scatter_fn)a->fn)(sb, n, BT, rb, n, BT, 0, comm, s)
             : MPI_Scatter(sb, in, BT, rb, in, BT, 0, comm);
  case C_ALLTOALL:
    return a ? ((arcoll_alltoall_fn)a->fn)(sb, n, BT, rb, n, BT, comm, s)
             : MPI_Alltoall(sb, in, BT, rb, in, BT, comm);
  case C_ALLGATHER:
    return a ? ((arcoll_allgather_fn)a->fn)(sb, n, BT, rb, n, BT, comm, s)
             : MPI_Allgather(sb, in, BT, rb, in, BT, comm);
  case C_REDUCE_SCATTER_BLOCK:
    return a ? ((arcoll_reduce_scatter_block_fn)a->fn)(sb, rb, n, BT, x->op, comm, s)
             : MPI_Reduce_scatter_block(sb, rb, in, BT, x->op, comm);
  default: return MPI_ERR_ARG;
  }
}

/* the v-variants: the count arrays of bench_call_set */
static int run_v(const bench_call_t *x, const arcoll_algo_desc_t *a, const arcoll_sched_t *s) {
  MPI_Comm comm = MPI_COMM_WORLD;
  const MPI_Aint mine = x->rcounts[x->me];
  void *sb = x->sbuf, *rb = x->rbuf;
  switch (x->c) {
  case C_ALLGATHERV:
    return a ? ((arcoll_allgatherv_fn)a->fn)(sb, mine, BT, rb, x->rcounts, x->rdispls, BT, comm, s)
             : MPI_Allgatherv(sb, (int)mine, BT, rb, x->ircounts, x->irdispls, BT, comm);
  case C_GATHERV:
    return a ? ((arcoll_gatherv_fn)a->fn)(sb, mine, BT, rb, x->rcounts, x->rdispls, BT, 0, comm, s)
             : MPI_Gatherv(sb, (int)mine, BT, rb, x->ircounts, x->irdispls, BT, 0, comm);
  case C_SCATTERV:
    return a ? ((arcoll_scatterv_fn)a->fn)(sb, x->scounts, x->sdispls, BT, rb, mine, BT, 0, comm, s)
             : MPI_Scatterv(sb, x->iscounts, x->isdispls, BT, rb, (int)mine, BT, 0, comm);
  case C_ALLTOALLV:
    return a ? ((arcoll_alltoallv_fn)a->fn)(sb, x->scounts, x->sdispls, BT, rb, x->rcounts,
                                            x->rdispls, BT, comm, s)
             : MPI_Alltoallv(sb, x->iscounts, x->isdispls, BT, rb, x->ircounts, x->irdispls, BT,
                             comm);
  case C_REDUCE_SCATTER:
    return a ? ((arcoll_reduce_scatter_fn)a->fn)(sb, rb, x->rcounts, BT, x->op, comm, s)
             : MPI_Reduce_scatter(sb, rb, x->ircounts, BT, x->op, comm);
  default: return MPI_ERR_ARG;
  }
}

int bench_run_one(const bench_call_t *x, const arcoll_algo_desc_t *a, const arcoll_sched_t *s) {
  if (!bench_is_block(x->c)) return run_vector(x, a, s);
  return is_v(x->c) ? run_v(x, a, s) : run_blocks(x, a, s);
}

MPI_Aint bench_choice_bytes(const bench_call_t *x) {
  switch (x->c) {
  case C_BCAST: case C_REDUCE: case C_ALLREDUCE: case C_SCAN: return x->count * 8;
  case C_ALLGATHERV:
  case C_REDUCE_SCATTER: /* the largest block (adapt/allgatherv.c, reduce_scatter.c) */
    return (x->P >= 3 ? vcount(2, x->count) : vcount(x->P - 1, x->count)) * BT_BYTES;
  case C_GATHERV: case C_SCATTERV: return ARCOLL_VBLOCK_NOMINAL_BYTES;
  case C_ALLTOALLV: return ARCOLL_ALLTOALLV_CHOICE_BYTES;
  default: return x->count * BT_BYTES; /* one block */
  }
}
