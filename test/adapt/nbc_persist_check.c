/*
 * Correctness of libarcoll's persistent collectives (MPI-4: MPI_Bcast_init,
 * MPI_Allreduce_init, MPI_Reduce_init, MPI_Allgather_init,
 * MPI_Alltoall_init; adapt/nbc_persist.c), real MPICH with LD_PRELOAD.
 *
 * Usage: nbc_persist_check
 * Five persistent requests made once, then started ITER times with the
 * buffers rewritten before every start (contents depend on the iteration):
 * one at a time with MPI_Start + MPI_Wait, all with MPI_Startall +
 * MPI_Waitall, all with MPI_Startall + an MPI_Testall loop, one at a time
 * with an MPI_Test loop (allreduce checked at its flag), MPI_Waitany over
 * them and a user Irecv / Isend pair, MPI_Request_get_status loops then
 * MPI_Waitsome.  After
 * completion each request is inactive: MPI_Wait and MPI_Test on it return
 * at once (flag 1).  Bcast / allgather over the non-contiguous vector type,
 * allreduce in place, reduce with the non-commutative matrix op.
 * References computed locally (nbc_check_ref.h).  Prints
 * "nbc_persist_check P=N: OK".  Needs MPI >= 4.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"

#define CHECK_PROG "nbc_persist_check"
static int P, me;
static long failures = 0, checked = 0;

#include "nbc_check_ref.h"

#if MPI_VERSION >= 4
enum { ITER = 24, N = 6000, NREQ = 5 }; /* N: the direct bcast / allreduce schedules at 3-4 ranks */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  ref_init();
  const int broot = 1 % P, rroot = P - 1;
  int *bc = tbuf(N, 1), *ar = tbuf(N, 0), *mi = tbuf(4 * N, 0), *mo = tbuf(4 * N, 0);
  int *agi = tbuf(N, 1), *ago = tbuf(P * N, 1), *a2i = tbuf(P * N, 0), *a2o = tbuf(P * N, 0);
  MPI_Request r[NREQ];
  MPI_Bcast_init(bc, N, vec_t, broot, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
  MPI_Allreduce_init(MPI_IN_PLACE, ar, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
  MPI_Reduce_init(mi, mo, N, mat_t, mat_op, rroot, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]);
  MPI_Allgather_init(agi, N, vec_t, ago, N, vec_t, MPI_COMM_WORLD, MPI_INFO_NULL, &r[3]);
  MPI_Alltoall_init(a2i, N, MPI_INT, a2o, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[4]);
  typedef long long (*count_fn)(void);
  count_fn cnt = ARCOLL_TEST_SYMBOL(count_fn, arcoll_nbc_schedules);
  CHECK(cnt && cnt() >= NREQ, "the persistent requests are not libarcoll's");
  for (int it = 0; it < ITER; ++it) {
    const int s = 1000 + 10 * it, L = 2 * N;
    for (int i = 0; i < L; ++i) tset(bc, 1, i, me == broot ? val(s + 1, broot, i) : -1);
    for (int i = 0; i < N; ++i) ar[i] = val(s + 2, me, i);
    for (int i = 0; i < 4 * N; ++i) mi[i] = val(s + 3, me, i), mo[i] = -1;
    for (int i = 0; i < L; ++i) tset(agi, 1, i, val(s + 4, me, i));
    for (int i = 0; i < P * L; ++i) tset(ago, 1, i, -1);
    for (int i = 0; i < P * N; ++i) a2i[i] = val(s + 5, me * P + i / N, i % N), a2o[i] = -1;
    const int how = it % 6;
    if (how == 0) {
      for (int k = 0; k < NREQ; ++k) {
        MPI_Start(&r[k]);
        MPI_Wait(&r[k], MPI_STATUS_IGNORE);
      }
    } else if (how == 3) { /* MPI_Test loops: flag 1 only once the collective is done */
      for (int k = 0; k < NREQ; ++k) {
        int flag = 0;
        MPI_Start(&r[k]);
        while (!flag) MPI_Test(&r[k], &flag, MPI_STATUS_IGNORE);
        for (int i = 0; k == 1 && i < N; ++i) {
          int e = 0;
          for (int q = 0; q < P; ++q) e += val(s + 2, q, i);
          CHECK(ar[i] == e, "allreduce it %d [%d] %d != %d at MPI_Test's flag", it, i, ar[i], e);
        }
      }
    } else if (how == 4) { /* MPI_Waitany over them and a user receive from the next rank */
      MPI_Request all[NREQ + 2];
      int got = -1, sent = me, done = 0;
      MPI_Startall(NREQ, r);
      memcpy(all, r, sizeof r);
      MPI_Irecv(&got, 1, MPI_INT, (me + P - 1) % P, 77, MPI_COMM_WORLD, &all[NREQ]);
      MPI_Isend(&sent, 1, MPI_INT, (me + 1) % P, 77, MPI_COMM_WORLD, &all[NREQ + 1]);
      while (done < NREQ + 2) {
        int idx = MPI_UNDEFINED;
        MPI_Waitany(NREQ + 2, all, &idx, MPI_STATUS_IGNORE);
        CHECK(idx != MPI_UNDEFINED, "MPI_Waitany it %d: MPI_UNDEFINED with %d pending", it, NREQ + 2 - done);
        if (idx == MPI_UNDEFINED) break;
        if (idx < NREQ) all[idx] = MPI_REQUEST_NULL; /* persistent: inactive, not freed */
        ++done;
      }
      CHECK(got == (me + P - 1) % P, "user receive beside the persistent ones: %d", got);
    } else if (how == 5) { /* MPI_Request_get_status until all done, then MPI_Waitsome */
      MPI_Startall(NREQ, r);
      for (int k = 0; k < NREQ; ++k) {
        int flag = 0;
        while (!flag) MPI_Request_get_status(r[k], &flag, MPI_STATUS_IGNORE);
      }
      int outc = 0, idx[NREQ];
      MPI_Waitsome(NREQ, r, &outc, idx, MPI_STATUSES_IGNORE);
      CHECK(outc == NREQ || outc == MPI_UNDEFINED, "MPI_Waitsome after get_status: %d", outc);
    } else {
      MPI_Startall(NREQ, r);
      if (how == 1) {
        MPI_Waitall(NREQ, r, MPI_STATUSES_IGNORE);
      } else {
        int flag = 0;
        while (!flag) MPI_Testall(NREQ, r, &flag, MPI_STATUSES_IGNORE);
      }
    }
    for (int k = 0; k < NREQ; ++k) { /* inactive now: returns at once */
      int flag = 0;
      CHECK(r[k] != MPI_REQUEST_NULL, "persistent request %d became MPI_REQUEST_NULL", k);
      MPI_Wait(&r[k], MPI_STATUS_IGNORE);
      MPI_Test(&r[k], &flag, MPI_STATUS_IGNORE);
      CHECK(flag, "MPI_Test on inactive request %d: flag 0", k);
    }
    for (int i = 0; i < L; ++i)
      CHECK(tget(bc, 1, i) == val(s + 1, broot, i), "bcast it %d [%d]", it, i);
    CHECK(gaps_ok(bc, N, 1), "bcast it %d: gaps changed", it);
    for (int i = 0; i < N; ++i) {
      int e = 0;
      for (int q = 0; q < P; ++q) e += val(s + 2, q, i);
      CHECK(ar[i] == e, "allreduce it %d [%d] %d != %d", it, i, ar[i], e);
    }
    if (me == rroot)
      for (int k = 0; k < N; ++k) {
        int e[4];
        mat_expected(s + 3, k, e);
        CHECK(!memcmp(mo + 4 * k, e, sizeof e), "reduce matrix it %d [%d]", it, k);
      }
    for (int i = 0; i < P * L; ++i)
      CHECK(tget(ago, 1, i) == val(s + 4, i / L, i % L), "allgather it %d [%d]", it, i);
    CHECK(gaps_ok(ago, P * N, 1), "allgather it %d: gaps changed", it);
    for (int i = 0; i < P * N; ++i)
      CHECK(a2o[i] == val(s + 5, (i / N) * P + me, i % N), "alltoall it %d [%d]", it, i);
  }
  for (int k = 0; k < NREQ; ++k) {
    MPI_Request_free(&r[k]);
    CHECK(r[k] == MPI_REQUEST_NULL, "MPI_Request_free left request %d", k);
  }
  long f = failures, tot = 0;
  MPI_Reduce(&f, &tot, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) {
    if (tot == 0) printf("nbc_persist_check P=%d: OK (%ld checks on rank 0)\n", P, checked);
    else printf("nbc_persist_check P=%d: %ld FAILURES\n", P, tot);
  }
  free(bc), free(ar), free(mi), free(mo), free(agi), free(ago), free(a2i), free(a2o);
  ref_free();
  MPI_Finalize();
  return tot != 0 && me == 0;
}
#else
int main(void) {
  printf("nbc_persist_check: MPI %d has no persistent collectives\n", MPI_VERSION);
  return 0;
}
#endif
