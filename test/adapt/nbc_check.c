/*
 * Correctness of libarcoll's nonblocking collectives (adapt/nbc.h):
 * MPI_Ibcast, Iallreduce, Ireduce, Igather, Iscatter, Iallgather, Ialltoall,
 * Ibarrier, Iallgatherv, Ialltoallv, real MPICH with LD_PRELOAD or SMPI
 * linked with libarcoll.
 *
 * Usage: nbc_check MODE   (MODE: on = ARCOLL_NONBLOCKING unset/on, the
 * schedules must run in arcoll; off = ARCOLL_NONBLOCKING=off, none may)
 *
 * One batch = the ten collectives started back to back on one
 * communicator (all outstanding at once) with one root; batches for every
 * root (P <= 13; else roots 0, P/2, P-1), counts 0, 1, 5 and 3000, MPI_INT
 * and a non-contiguous vector type (ints 0 and 3 of every 4; the gap ints
 * must stay untouched), MPI_IN_PLACE wherever MPI allows it, and the reduce /
 * allreduce also with a NON-commutative user op (2x2 matrix product mod 10007
 * on 4 contiguous ints), iallgatherv / ialltoallv with irregular counts
 * and displacements (nbc_check_v.h; count 3000 becomes 1000 above 13
 * ranks).  Each batch is completed one of four ways:
 * MPI_Waitall, an MPI_Testany loop over a shuffled array, MPI_Wait in
 * reverse order, MPI_Waitall with user point-to-point requests in between.
 * Then four iallgatherv + ialltoallv pairs (the _c forms under MPI 4)
 * outstanding together, completed by MPI_Testany.  Each iallgatherv /
 * ialltoallv must add one schedule to arcoll_nbc_schedules() in mode on
 * (P > 1) and none in mode off.  Every rank computes the expected values
 * itself (nbc_check_ref.h), never with MPI's collectives.  Prints
 * "nbc_check MODE P=N: OK" on success.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"

#ifdef ARCOLL_TEST_LINKED
long long arcoll_nbc_schedules(void);
#endif

#define CHECK_PROG "nbc_check"
static int P, me;
static long failures = 0, checked = 0;

#include "nbc_check_ref.h"
#include "nbc_check_v.h"

typedef long long (*count_fn)(void);
static count_fn g_cnt; /* arcoll_nbc_schedules (NULL: libarcoll missing) */
static int g_on;       /* mode on: schedules must run in arcoll */

enum { NCOLL = 10 };
typedef struct batch {
  int root, n, vec, w, inplace, salt; /* w: ints of data per element */
  MPI_Datatype t;
  int *bc, *ar_in, *ar_out, *mr_in, *mr_out, *ma_out, *g_in, *g_out, *s_in, *s_out, *ag_in,
      *ag_out, *a2_in, *a2_out;
  MPI_Request r[NCOLL + 2];
  int ur[2]; /* user ring messages */
  vcoll_t v; /* iallgatherv, ialltoallv */
} batch_t;

/* Start v's iallgatherv / ialltoallv (r[0], r[1]); in mode on each must
 * build one arcoll schedule (P > 1), in mode off none. */
static void vstart(vcoll_t *v, MPI_Request *r) {
  const long long c0 = g_cnt ? g_cnt() : 0;
  vcoll_start(v, r);
  if (g_cnt)
    CHECK(g_cnt() - c0 == (g_on && P > 1 ? 2 : 0), "iallgatherv + ialltoallv (large %d): %lld "
          "schedules in arcoll", v->large, g_cnt() - c0);
}

static void start(batch_t *b) {
  const int n = b->n, L = n * b->w;
  const int s = b->salt, root = b->root;
  MPI_Datatype t = b->t;
  const int ip = b->inplace;
  /* bcast */
  b->bc = tbuf(n, b->vec);
  for (int i = 0; i < L; ++i) tset(b->bc, b->vec, i, me == root ? val(s + 1, root, i) : -1);
  MPI_Ibcast(b->bc, n, t, root, MPI_COMM_WORLD, &b->r[0]);
  /* allreduce: MPI_SUM on ints (n * w ints) */
  b->ar_in = tbuf(L, 0), b->ar_out = tbuf(L, 0);
  for (int i = 0; i < L; ++i) b->ar_in[i] = b->ar_out[i] = val(s + 2, me, i);
  MPI_Iallreduce(ip ? MPI_IN_PLACE : b->ar_in, b->ar_out, L, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                 &b->r[1]);
  /* reduce with the matrix op to root (ip: in place at the root) */
  b->mr_in = tbuf(4 * n, 0), b->mr_out = tbuf(4 * n, 0);
  for (int i = 0; i < 4 * n; ++i) b->mr_in[i] = b->mr_out[i] = val(s + 3, me, i) % 10007;
  MPI_Ireduce(ip && me == root ? MPI_IN_PLACE : b->mr_in, b->mr_out, n, mat_t, mat_op, root,
              MPI_COMM_WORLD, &b->r[2]);
  /* gather (ip: in place at the root) */
  b->g_in = tbuf(n, b->vec), b->g_out = tbuf(P * n, b->vec);
  for (int i = 0; i < L; ++i) tset(b->g_in, b->vec, i, val(s + 4, me, i));
  for (int i = 0; i < P * L; ++i) tset(b->g_out, b->vec, i, -1);
  if (ip && me == root)
    for (int i = 0; i < L; ++i) tset(b->g_out, b->vec, root * L + i, val(s + 4, me, i));
  MPI_Igather(ip && me == root ? MPI_IN_PLACE : b->g_in, n, t, b->g_out, n, t, root,
              MPI_COMM_WORLD, &b->r[3]);
  /* scatter (ip: in place at the root) */
  b->s_in = tbuf(P * n, b->vec), b->s_out = tbuf(n, b->vec);
  for (int i = 0; i < P * L; ++i) tset(b->s_in, b->vec, i, val(s + 5, i / (L ? L : 1), i % (L ? L : 1)));
  for (int i = 0; i < L; ++i) tset(b->s_out, b->vec, i, -1);
  MPI_Iscatter(b->s_in, n, t, ip && me == root ? MPI_IN_PLACE : b->s_out, n, t, root,
               MPI_COMM_WORLD, &b->r[4]);
  /* allgather */
  b->ag_in = tbuf(n, b->vec), b->ag_out = tbuf(P * n, b->vec);
  for (int i = 0; i < L; ++i) tset(b->ag_in, b->vec, i, val(s + 6, me, i));
  for (int i = 0; i < P * L; ++i)
    tset(b->ag_out, b->vec, i, ip && i / L == me ? val(s + 6, me, i % L) : -1);
  MPI_Iallgather(ip ? MPI_IN_PLACE : b->ag_in, n, t, b->ag_out, n, t, MPI_COMM_WORLD, &b->r[5]);
  /* alltoall: block j of rank r = val(s + 7, r * P + j, i) */
  b->a2_in = tbuf(P * n, b->vec), b->a2_out = tbuf(P * n, b->vec);
  for (int i = 0; i < P * L; ++i) {
    tset(b->a2_in, b->vec, i, val(s + 7, me * P + i / L, i % L));
    tset(b->a2_out, b->vec, i, ip ? val(s + 7, me * P + i / L, i % L) : -1);
  }
  MPI_Ialltoall(ip ? MPI_IN_PLACE : b->a2_in, n, t, b->a2_out, n, t, MPI_COMM_WORLD, &b->r[6]);
  MPI_Ibarrier(MPI_COMM_WORLD, &b->r[7]);
  b->v.n = n > 1000 && P > 13 ? 1000 : n, b->v.vec = b->vec, b->v.w = b->w, b->v.inplace = ip;
  b->v.salt = s, b->v.t = t;
  vstart(&b->v, &b->r[8]);
  /* user point-to-point around the ring, completed together with the collectives */
  b->ur[0] = val(s, me, 0), b->ur[1] = -1;
  MPI_Irecv(&b->ur[1], 1, MPI_INT, (me + P - 1) % P, 99, MPI_COMM_WORLD, &b->r[NCOLL]);
  MPI_Isend(&b->ur[0], 1, MPI_INT, (me + 1) % P, 99, MPI_COMM_WORLD, &b->r[NCOLL + 1]);
}

static void complete(batch_t *b, int how) {
  MPI_Request *r = b->r;
  if (how == 0) {
    MPI_Waitall(NCOLL + 2, r, MPI_STATUSES_IGNORE);
  } else if (how == 1) { /* Testany over a shuffled array */
    MPI_Request sh[NCOLL + 2];
    int perm[NCOLL + 2], left = 0;
    for (int i = 0; i < NCOLL + 2; ++i) perm[i] = i;
    for (int i = NCOLL + 1; i > 0; --i) {
      int j = (b->salt * 7 + i * 13) % (i + 1), x = perm[i];
      perm[i] = perm[j], perm[j] = x;
    }
    for (int i = 0; i < NCOLL + 2; ++i) sh[i] = r[perm[i]], left += sh[i] != MPI_REQUEST_NULL;
    while (left > 0) { /* (SMPI's own calls at P = 1 may return MPI_REQUEST_NULL) */
      int idx, flag;
      MPI_Testany(NCOLL + 2, sh, &idx, &flag, MPI_STATUS_IGNORE);
      if (flag && idx != MPI_UNDEFINED) --left;
      CHECK(!flag || idx != MPI_UNDEFINED || left == 0, "Testany: all inactive with %d left", left);
      if (flag && idx == MPI_UNDEFINED) break;
    }
    for (int i = 0; i < NCOLL + 2; ++i) r[perm[i]] = sh[i];
  } else if (how == 2) {
    for (int i = NCOLL + 1; i >= 0; --i) MPI_Wait(&r[i], MPI_STATUS_IGNORE);
  } else { /* Waitsome until done */
    int done = 0, idx[NCOLL + 2], out, live = 0;
    for (int i = 0; i < NCOLL + 2; ++i) live += r[i] != MPI_REQUEST_NULL;
    while (done < live) {
      MPI_Waitsome(NCOLL + 2, r, &out, idx, MPI_STATUSES_IGNORE);
      if (out == MPI_UNDEFINED) break;
      done += out;
    }
    CHECK(done == live, "Waitsome completed %d of %d", done, live);
  }
  for (int i = 0; i < NCOLL + 2; ++i)
    CHECK(r[i] == MPI_REQUEST_NULL, "request %d not freed (how %d)", i, how);
}

static void verify(batch_t *b) {
  const int n = b->n, L = n * b->w, s = b->salt, root = b->root;
  const char *what = b->vec ? "vec" : "int";
  for (int i = 0; i < L; ++i)
    CHECK(tget(b->bc, b->vec, i) == val(s + 1, root, i), "ibcast %s n=%d root %d [%d]", what,
          n, root, i);
  CHECK(gaps_ok(b->bc, n, b->vec), "ibcast %s n=%d: gap ints changed", what, n);
  for (int i = 0; i < L; ++i) {
    int e = 0;
    for (int r = 0; r < P; ++r) e += val(s + 2, r, i);
    CHECK(b->ar_out[i] == e, "iallreduce n=%d [%d] %d != %d", L, i, b->ar_out[i], e);
  }
  if (me == root)
    for (int k = 0; k < n; ++k) {
      int e[4];
      mat_expected(s + 3, k, e);
      CHECK(!memcmp(b->mr_out + 4 * k, e, sizeof e), "ireduce matrix n=%d root %d [%d]", n,
            root, k);
    }
  if (me == root)
    for (int i = 0; i < P * L; ++i)
      CHECK(tget(b->g_out, b->vec, i) == val(s + 4, i / L, i % L), "igather %s n=%d root %d [%d]",
            what, n, root, i);
  if (me == root) CHECK(gaps_ok(b->g_out, P * n, b->vec), "igather %s: gaps changed", what);
  if (!(b->inplace && me == root))
    for (int i = 0; i < L; ++i)
      CHECK(tget(b->s_out, b->vec, i) == val(s + 5, me, i), "iscatter %s n=%d root %d [%d]",
            what, n, root, i);
  CHECK(gaps_ok(b->s_out, n, b->vec), "iscatter %s: gaps changed", what);
  for (int i = 0; i < P * L; ++i)
    CHECK(tget(b->ag_out, b->vec, i) == val(s + 6, i / L, i % L), "iallgather %s n=%d [%d]",
          what, n, i);
  CHECK(gaps_ok(b->ag_out, P * n, b->vec), "iallgather %s: gaps changed", what);
  for (int i = 0; i < P * L; ++i)
    CHECK(tget(b->a2_out, b->vec, i) == val(s + 7, (i / L) * P + me, i % L),
          "ialltoall %s n=%d ip %d [%d]", what, n, b->inplace, i);
  CHECK(gaps_ok(b->a2_out, P * n, b->vec), "ialltoall %s: gaps changed", what);
  CHECK(b->ur[1] == val(s, (me + P - 1) % P, 0), "user ring message");
  vcoll_verify(&b->v);
  free(b->bc), free(b->ar_in), free(b->ar_out), free(b->mr_in), free(b->mr_out);
  free(b->g_in), free(b->g_out), free(b->s_in), free(b->s_out), free(b->ag_in), free(b->ag_out);
  free(b->a2_in), free(b->a2_out);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "on";
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  ref_init();
  g_cnt = ARCOLL_TEST_SYMBOL(count_fn, arcoll_nbc_schedules);
  g_on = strcmp(mode, "off") != 0;
  const int counts[] = {0, 1, 5, 3000};
  int salt = 0, how = 0;
  for (int root = 0; root < P; ++root) {
    if (P > 13 && root != 0 && root != P / 2 && root != P - 1) continue;
    for (int ci = 0; ci < 4; ++ci) {
      if (counts[ci] == 3000 && root != P - 1) continue; /* large: one root */
      for (int v = 0; v < 2; ++v)
        for (int ip = 0; ip < 2; ++ip) {
          /* several batches outstanding at once: start two, complete both */
          batch_t b[2];
          for (int k = 0; k < 2; ++k) {
            memset(&b[k], 0, sizeof b[k]);
            b[k].root = (root + k) % P, b[k].n = counts[ci], b[k].vec = v, b[k].inplace = ip;
            b[k].t = v ? vec_t : MPI_INT, b[k].w = v ? 2 : 1, b[k].salt = salt += 11;
            start(&b[k]);
          }
          complete(&b[1], how++ % 4);
          complete(&b[0], how++ % 4);
          verify(&b[0]), verify(&b[1]);
        }
    }
  }
  /* large: ibcast (scatter + allgather at P = 2^k > 2) and iallreduce
   * (Rabenseifner at P = 2^k), odd counts, both outstanding */
  for (int k = 0; k < 4; ++k) {
    const int n = k < 2 ? 40000 : 40011, root = k % 2 ? P - 1 : 0, vec = k == 3;
    int *bc = tbuf(n, vec), *ar = tbuf(n, 0), *ai = tbuf(n, 0);
    for (int i = 0; i < n * (vec ? 2 : 1); ++i) tset(bc, vec, i, me == root ? val(300 + k, root, i) : -1);
    for (int i = 0; i < n; ++i) ai[i] = ar[i] = val(310 + k, me, i);
    MPI_Request r[2];
    MPI_Ibcast(bc, n, vec ? vec_t : MPI_INT, root, MPI_COMM_WORLD, &r[0]);
    MPI_Iallreduce(k % 2 ? MPI_IN_PLACE : ai, ar, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    int bad = 0, badr = 0;
    for (int i = 0; i < n * (vec ? 2 : 1); ++i) bad += tget(bc, vec, i) != val(300 + k, root, i);
    for (int i = 0; i < n; ++i) {
      int e = 0;
      for (int q = 0; q < P; ++q) e += val(310 + k, q, i);
      badr += ar[i] != e;
    }
    CHECK(!bad && gaps_ok(bc, n, vec), "large ibcast n=%d root %d vec %d: %d wrong", n, root, vec, bad);
    CHECK(!badr, "large iallreduce n=%d in place %d: %d wrong", n, k % 2, badr);
    free(bc), free(ar), free(ai);
  }
  /* four iallgatherv + ialltoallv pairs outstanding, the _c forms among
   * them, completed in a shuffled order by MPI_Testany */
  {
    vcoll_t v[4];
    MPI_Request r[8];
    for (int k = 0; k < 4; ++k) {
      memset(&v[k], 0, sizeof v[k]);
      v[k].n = 1 + 13 * k, v[k].vec = k % 2, v[k].w = k % 2 ? 2 : 1;
      v[k].t = k % 2 ? vec_t : MPI_INT;
      v[k].inplace = k >= 2, v[k].salt = 700 + 11 * k, v[k].large = k % 2;
      vstart(&v[k], &r[2 * k]);
    }
    MPI_Request sh[8];
    for (int i = 0; i < 8; ++i) sh[i] = r[(i * 5 + 3) % 8];
    for (int left = 8; left > 0;) {
      int idx, flag;
      MPI_Testany(8, sh, &idx, &flag, MPI_STATUS_IGNORE);
      if (flag && idx == MPI_UNDEFINED) break; /* (SMPI at P = 1: already null) */
      left -= flag;
    }
    for (int k = 0; k < 4; ++k) vcoll_verify(&v[k]);
  }
  /* non-commutative op through iallreduce too: small (tree), large (64 KB:
   * the direct schedule up to P = 16), large in place */
  for (int k = 0; k < 3; ++k) {
    const int n = k ? 4000 : 7, ip = k == 2;
    int *in = tbuf(4 * n, 0), *out = tbuf(4 * n, 0);
    for (int i = 0; i < 4 * n; ++i) in[i] = out[i] = val(500, me, i) % 10007;
    MPI_Request r;
    MPI_Iallreduce(ip ? MPI_IN_PLACE : in, out, n, mat_t, mat_op, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    int bad = 0;
    for (int j = 0; j < n; ++j) {
      int e[4];
      mat_expected(500, j, e);
      bad += memcmp(out + 4 * j, e, sizeof e) != 0;
    }
    CHECK(!bad, "iallreduce matrix n=%d in place %d: %d wrong", n, ip, bad);
    free(in), free(out);
  }
  const count_fn cnt = g_cnt;
  const long long ran = cnt ? cnt() : 0;
  /* two new communicators, their first collectives nonblocking and started
   * in opposite orders on even and odd ranks (legal MPI): nothing may block
   * (libarcoll passes them to MPI until a blocking collective made its state),
   * values right; after a blocking barrier on A, A's ibcast is arcoll's */
  {
    MPI_Comm A, B;
    MPI_Comm_dup(MPI_COMM_WORLD, &A);
    MPI_Comm_dup(MPI_COMM_WORLD, &B);
    int a[3] = {me == 0 ? 71 : -1, 72, 73}, b[3] = {me == 0 ? 81 : -1, 82, 83};
    MPI_Request r[2];
    for (int k = 0; k < 2; ++k) {
      const int first_a = (me % 2 == 0) == (k == 0);
      if (first_a) MPI_Ibcast(a, 3, MPI_INT, 0, A, &r[k]);
      else MPI_Ibcast(b, 3, MPI_INT, 0, B, &r[k]);
    }
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    CHECK(a[0] == 71 && b[0] == 81, "crossed ibcasts on new communicators: %d %d", a[0], b[0]);
    CHECK(!cnt || cnt() == ran, "a nonblocking collective created a communicator's state");
    MPI_Barrier(A);
    int x = me == 0 ? 91 : -1;
    MPI_Ibcast(&x, 1, MPI_INT, 0, A, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    CHECK(x == 91, "ibcast on A after a barrier: %d", x);
    if (strcmp(mode, "off") != 0)
      CHECK(P == 1 || !cnt || cnt() == ran + 1, "ibcast after A's barrier ran in arcoll: %lld -> %lld",
            ran, cnt ? cnt() : 0);
    MPI_Comm_free(&A);
    MPI_Comm_free(&B);
  }
  if (!strcmp(mode, "off")) CHECK(ran == 0, "ARCOLL_NONBLOCKING=off but %lld schedules", ran);
  else CHECK(P == 1 || ran > 0, "no schedule ran in arcoll (libarcoll %s)", cnt ? "found" : "missing");
  long f = failures, tot = 0;
  MPI_Reduce(&f, &tot, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0) {
    if (tot == 0) printf("nbc_check %s P=%d: OK (%ld checks on rank 0)\n", mode, P, checked);
    else printf("nbc_check %s P=%d: %ld FAILURES\n", mode, P, tot);
  }
  ref_free();
  MPI_Finalize();
  return tot != 0 && me == 0;
}
