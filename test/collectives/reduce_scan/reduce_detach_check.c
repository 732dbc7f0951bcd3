/*
 * The detaching k-nomial reduce (collectives/reduce_detach.h) against
 * references computed here: 12 calls per case, one rank - the last position
 * of the tree, whose parent is not the root - late by 4 ms before every call,
 * so its parent sends it the notice and it sends to the root from then on.
 * Cases: MPI_DOUBLE x 3 with MPI_SUM, and a strided type (2 blocks of 1
 * MPI_INT, stride 3: gaps the reduce must not write) x 2 with a user
 * commutative sum; roots 0 and P-1; radix 2 (binomial) and 3; MPI_IN_PLACE at
 * the root or not.  Every element of every call compared at the root (F:
 * wrong elements and failed calls); D: the cases whose late rank detached
 * (its view, d.view[its position]) and whose root knows it (d.detached >= 1) -
 * every case under SMPI (simulated time); on real MPI with more ranks than
 * cores the waits a parent sees are the scheduler's too (the test asks for
 * one).  Exit 1 when F > 0; prints "reduce_detach_check P=N: C cases, F
 * failures, D detached: OK|FAIL".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce.h"
#include "reduce_detach.h"
#include "tree_extra.h"

#if defined(SMPI_SAMPLE_FLOPS) /* SimGrid's smpi.h: simulated time */
#include <simgrid/host.h>
static void delay(double s) { smpi_execute_flops(s * sg_host_get_speed(sg_host_self())); }
#else
static void delay(double s) {
  const double t = MPI_Wtime();
  while (MPI_Wtime() - t < s) {
  }
}
#endif

#define CALLS 16
#define LATE_S 4e-3
#define GAP (-7777)

static int P, me;
static long failures, cases, detached_cases;

static void isum(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt; /* the strided type: 2 ints per element, 3 ints apart */
  for (int e = 0; e < *len; ++e)
    for (int b = 0; b < 2; ++b) ((int *)inout)[6 * e + 3 * b] += ((int *)in)[6 * e + 3 * b];
}

static double val(int c, int r, int i) { return 13.0 * c + 7.0 * r + i; }

static void run_case(MPI_Comm comm, int strided, int root, int k, int inplace, MPI_Datatype vec,
                     MPI_Op usum) {
  const int count = strided ? 2 : 3, n = strided ? 12 : 3; /* buffer slots */
  const MPI_Datatype dt = strided ? vec : MPI_DOUBLE;
  const MPI_Op op = strided ? usum : MPI_SUM;
  const int mypos = (me - root + P) % P, latepos = P - 1;
  const int late_rank = (root + latepos) % P;
  const int parent = mypos > 0 ? (root + arcoll_knomial_parent_pos(mypos, k)) % P : -1;
  arcoll_red_detach_t d;
  if (arcoll_red_detach_init(&d, P, mypos, parent, 1e-3, 2, 91, comm) != MPI_SUCCESS) {
    ++failures;
    return;
  }
  const arcoll_sched_t s = {NULL, 0, k, 90, NULL, &d};
  double sd[3], rd[3];
  int si[12], ri[12];
  for (int c = 0; c < CALLS; ++c) {
    for (int i = 0; i < n; ++i) si[i] = ri[i] = GAP;
    for (int i = 0; i < 3; ++i) sd[i] = val(c, me, i), rd[i] = -1.0;
    for (int e = 0; e < count && strided; ++e)
      for (int b = 0; b < 2; ++b) si[6 * e + 3 * b] = (int)val(c, me, 2 * e + b);
    if (me == root && inplace) memcpy(ri, si, sizeof si), memcpy(rd, sd, sizeof sd);
    if (me == late_rank) delay(LATE_S);
    const void *sb = me == root && inplace ? MPI_IN_PLACE : strided ? (void *)si : (void *)sd;
    void *rb = strided ? (void *)ri : (void *)rd;
    const int rc = arcoll_reduce_knomial_radix(sb, rb, count, dt, op, root, comm, &s, k);
    if (rc != MPI_SUCCESS) {
      ++failures;
      continue;
    }
    if (me != root) continue;
    for (int i = 0; i < (strided ? 2 * count : 3); ++i) {
      double want = 0;
      for (int r = 0; r < P; ++r) want += val(c, r, i);
      const double got = strided ? ri[6 * (i / 2) + 3 * (i % 2)] : rd[i];
      if (got != want) {
        if (failures < 10)
          fprintf(stderr, "reduce_detach_check: root %d k %d %s call %d element %d: %g, want %g\n",
                  root, k, strided ? "strided" : "double", c, i, got, want);
        ++failures;
      }
    }
    for (int e = 0; e < count && strided; ++e) /* the gaps of the strided type */
      for (int g = 1; g < 3; ++g)
        if (ri[6 * e + g] != GAP || ri[6 * e + 3 + g] != GAP) ++failures;
  }
  int late_detached = me == late_rank && d.view[latepos], root_knows = me == root && d.detached >= 1;
  int both[2] = {late_detached, root_knows};
  MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_INT, MPI_MAX, comm);
  if (both[0] && both[1]) {
    ++detached_cases;
  } else {
    if (me == 0)
      fprintf(stderr, "reduce_detach_check: root %d k %d: late rank %d %s, root %s\n", root, k,
              late_rank, both[0] ? "detached" : "not detached", both[1] ? "knows" : "does not know");
  }
  arcoll_red_detach_free(&d);
  ++cases;
  MPI_Barrier(comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &me);
  MPI_Datatype vec;
  MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
  MPI_Datatype vec6;
  MPI_Type_create_resized(vec, 0, 6 * sizeof(int), &vec6);
  MPI_Type_commit(&vec6);
  MPI_Op usum;
  MPI_Op_create(isum, 1, &usum);
  if (P >= 3) /* the last position's parent is not the root from P = 3 (k = 2) / 4 (k = 3) */
    for (int strided = 0; strided < 2; ++strided)
      for (int root = 0; root < P; root += P - 1)
        for (int k = 2; k <= 3; ++k)
          for (int inplace = 0; inplace < 2; ++inplace)
            if (arcoll_knomial_parent_pos(P - 1, k) != 0)
              run_case(comm, strided, root, k, inplace, vec6, usum);
  long f = failures;
  MPI_Allreduce(MPI_IN_PLACE, &f, 1, MPI_LONG, MPI_SUM, comm);
  if (me == 0)
    printf("reduce_detach_check P=%d: %ld cases, %ld failures, %ld detached: %s\n", P, cases, f,
           detached_cases, f ? "FAIL" : "OK");
  MPI_Op_free(&usum);
  MPI_Type_free(&vec6);
  MPI_Type_free(&vec);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return f ? 1 : 0;
}
