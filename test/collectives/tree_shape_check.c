/*
 * MPI test of the tree shapes in the algorithm tables (collectives/tree.h
 * arcoll_tree_shape_t): every algorithm of bcast, reduce, gather, scatter,
 * gatherv and scatterv whose table entry names a tree is run over a shuffled
 * rank order (root at position 0, 16 KiB, 1 KiB segments), and the messages
 * it sends - recorded by the MPI_Send / MPI_Isend / MPI_Sendrecv wrappers
 * below, which call PMPI - must be exactly the edges of that tree: from each
 * position's parent (arcoll_tree_parent_pos) to it for bcast, scatter(v),
 * from it to its parent for reduce, gather(v).  Every rank's set of
 * destinations is gathered on rank 0, which prints each mismatch.  Exit
 * status 1 on any.  Built for MPICH (the wrappers take the place of the
 * library's MPI_* symbols, its PMPI_* do the sends); the tree builders'
 * parents at every P: test_tree_shape.cpp.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast.h"
#include "gather.h"
#include "gatherv.h"
#include "reduce.h"
#include "tree_extra.h"

#define COUNT 4096 /* MPI_INT elements per rank */
static int P, me, recording;
static unsigned char *sent; /* sent[dest] = 1: this rank sent to dest while recording */
static long failures;

static void note(int dest, MPI_Comm comm) {
  int n = 0;
  if (recording && dest >= 0 && MPI_Comm_size(comm, &n) == MPI_SUCCESS && dest < n) sent[dest] = 1;
}
int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) {
  note(dest, comm);
  return PMPI_Send(buf, count, dt, dest, tag, comm);
}
int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
              MPI_Request *req) {
  note(dest, comm);
  return PMPI_Isend(buf, count, dt, dest, tag, comm, req);
}
int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status *status) {
  note(dest, comm);
  return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                       status);
}

enum { DOWN, UP };

/* Runs algorithm a of its collective once with this schedule. */
static int run(const arcoll_algo_desc_t *a, const arcoll_sched_t *s, int root, int *in, int *out,
               const MPI_Aint *counts, const MPI_Aint *displs) {
  const char *c = a->collective;
  if (!strcmp(c, "bcast"))
    return ((arcoll_bcast_fn)a->fn)(in, COUNT, MPI_INT, root, MPI_COMM_WORLD, s);
  if (!strcmp(c, "reduce"))
    return ((arcoll_reduce_fn)a->fn)(in, out, COUNT, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, s);
  if (!strcmp(c, "gather"))
    return ((arcoll_gather_fn)a->fn)(in, COUNT, MPI_INT, out, COUNT, MPI_INT, root, MPI_COMM_WORLD, s);
  if (!strcmp(c, "scatter"))
    return ((arcoll_scatter_fn)a->fn)(out, COUNT, MPI_INT, in, COUNT, MPI_INT, root, MPI_COMM_WORLD, s);
  if (!strcmp(c, "gatherv"))
    return ((arcoll_gatherv_fn)a->fn)(in, COUNT, MPI_INT, out, counts, displs, MPI_INT, root,
                                      MPI_COMM_WORLD, s);
  if (!strcmp(c, "scatterv"))
    return ((arcoll_scatterv_fn)a->fn)(out, counts, displs, MPI_INT, in, COUNT, MPI_INT, root,
                                       MPI_COMM_WORLD, s);
  return MPI_ERR_OTHER;
}

static void check(const arcoll_algo_desc_t *a, int dir, const int *order, int *in, int *out,
                  const MPI_Aint *counts, const MPI_Aint *displs, unsigned char *all) {
  const arcoll_sched_t s = {order, 1024, 0, 77, NULL, NULL};
  memset(sent, 0, (size_t)P);
  recording = 1;
  const int rc = run(a, &s, order[0], in, out, counts, displs);
  recording = 0;
  PMPI_Allgather(sent, P, MPI_UNSIGNED_CHAR, all, P, MPI_UNSIGNED_CHAR, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) {
    ++failures;
    fprintf(stderr, "rank %d: %s %s returned %d\n", me, a->collective, a->name, rc);
  }
  if (me != 0) return;
  unsigned char *want = calloc((size_t)P * P, 1);
  for (int q = 1; q < P; ++q) {
    const int p = arcoll_tree_parent_pos(a->tree, q, P, 0);
    if (p < 0) continue;
    if (dir == DOWN) want[order[p] * P + order[q]] = 1;
    else want[order[q] * P + order[p]] = 1;
  }
  for (int x = 0; x < P; ++x)
    for (int y = 0; y < P; ++y)
      if (want[x * P + y] != all[x * P + y]) {
        ++failures;
        fprintf(stderr, "%s %s (P=%d, root %d): rank %d %s to rank %d\n", a->collective, a->name, P,
                order[0], x, all[x * P + y] ? "sent" : "sent nothing", y);
      }
  free(want);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  enum { MAX_P = 64 };
  if (P > MAX_P) {
    if (me == 0) fprintf(stderr, "tree_shape_check: at most %d ranks (got %d)\n", MAX_P, P);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  sent = malloc((size_t)P);
  unsigned char *all = malloc((size_t)P * P);
  int *in = malloc(sizeof(int) * COUNT * P), *out = malloc(sizeof(int) * COUNT * P);
  MPI_Aint *counts = malloc(sizeof(MPI_Aint) * P), *displs = malloc(sizeof(MPI_Aint) * P);
  for (int i = 0; i < COUNT * P; ++i) in[i] = i % 1000, out[i] = 0;
  for (int i = 0; i < P; ++i) counts[i] = COUNT, displs[i] = (MPI_Aint)i * COUNT;
  struct { const arcoll_algo_desc_t *t; const int *n; int dir; } tables[] = {
      {arcoll_bcast_algorithms, &arcoll_bcast_nalgorithms, DOWN},
      {arcoll_scatter_algorithms, &arcoll_scatter_nalgorithms, DOWN},
      {arcoll_scatterv_algorithms, &arcoll_scatterv_nalgorithms, DOWN},
      {arcoll_reduce_algorithms, &arcoll_reduce_nalgorithms, UP},
      {arcoll_gather_algorithms, &arcoll_gather_nalgorithms, UP},
      {arcoll_gatherv_algorithms, &arcoll_gatherv_nalgorithms, UP},
  };
  int order[MAX_P], checked = 0;
  for (int shift = 0; shift < 2; ++shift) {
    /* the same shuffled order on every rank, root order[0] = shift % P */
    for (int i = 0; i < P; ++i) order[i] = (i + shift) % P;
    for (int i = P - 1; i > 1; --i) {
      const int j = 1 + (i * 7 + 3) % i, t = order[i];
      order[i] = order[j], order[j] = t;
    }
    for (size_t g = 0; g < sizeof tables / sizeof tables[0]; ++g)
      for (int i = 0; i < *tables[g].n; ++i) {
        const arcoll_algo_desc_t *a = &tables[g].t[i];
        if (a->tree == ARCOLL_TREE_NONE) continue;
        check(a, tables[g].dir, order, in, out, counts, displs, all);
        ++checked;
      }
  }
  long total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) printf("tree_shape_check: P=%d, %d algorithm runs, %ld mismatches\n", P, checked, total);
  free(sent), free(all), free(in), free(out), free(counts), free(displs);
  MPI_Finalize();
  return total ? 1 : 0;
}
