/*
 * Correctness of every collective libarcoll interposes (MPI_Bcast, Reduce,
 * Allreduce, Scan, Exscan, Gather, Scatter, Alltoall, Barrier and the MPI-4
 * _c forms), real MPICH with LD_PRELOAD or SMPI linked with libarcoll.
 *
 * Usage: coll_check MODE [big_bytes]
 *   auto      every ARCOLL_<COLL>_ALGORITHM unset (model-selected)
 *   forcedK   K = 0..7: ARCOLL_<COLL>_ALGORITHM = algorithm K mod n of the
 *             collective's table (set by this program before MPI_Init), so
 *             forced0..forced7 run every algorithm of every table
 *   native    ARCOLL_<COLL>_ALGORITHM=native for bcast, reduce, allreduce
 *             (the MPI library's own collective, collectives/native.h),
 *             the others auto
 *   errors    invalid arguments give the error class PMPI gives
 *             (MPI_ERRORS_RETURN); intercommunicator, MPI_COMM_SELF and
 *             MPI_COMM_NULL pass through (and give right answers):
 *             coll_check_errors.c
 *   big_bytes size of the "large" messages (default 65536)
 *
 * Data: MPI_INT, MPI_DOUBLE, a non-contiguous vector (ints 0 and 3 of every
 * 4; the gap ints must stay untouched; reduced with a user-defined
 * commutative sum: MPICH rejects predefined ops on derived types, which the
 * errors mode checks), and for reductions a 2x2 int matrix
 * (contiguous 4 ints) with a user-defined NON-commutative op (matrix product
 * mod 10007); counts 0, 1, 37 and big; every root; MPI_IN_PLACE wherever MPI
 * allows it; gather/scatter/alltoall also with vector sent / MPI_INT received.
 * Every rank's input is a function of (call id, rank, index), so each rank
 * computes the reference itself (folded in rank order), independently of MPI.
 * After each call the algorithm that ran (arcoll_last_algorithm) must be the
 * forced one (or, for a non-commutative op and a commutative-only forced
 * algorithm, an order-preserving one; "none" for count 0; "pmpi" on a
 * one-rank communicator).  Exit status 1 on any failure.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "native.h" /* the native candidate (mode native) */
#include "select.h" /* algorithm tables (collectives/), to set and check the names */

#include "check_util.h"
#include "coll_check.h"

#define CHECK_PROG "coll_check"
static int P, me;
static long failures = 0, checked = 0;
static int forced_k = -1; /* -1: auto; FORCED_NATIVE: mode native */
#define FORCED_NATIVE (-2)
static long big_bytes = 65536;
static last_fn last;

/* ---- expected algorithm ---------------------------------------------------- */

static const char *forced_name(arcoll_coll_t c) {
  int n = 0;
  const arcoll_algo_desc_t *t = arcoll_algorithm_table(c, &n);
  if (forced_k == FORCED_NATIVE) { /* collectives without a native candidate: auto */
    const arcoll_algo_desc_t *a = arcoll_native_algorithm(c);
    return a ? a->name : NULL;
  }
  return forced_k < 0 ? NULL : t[forced_k % n].name;
}

static int commutative_only(arcoll_coll_t c, const char *name) {
  const arcoll_algo_desc_t *a = arcoll_algorithm_find(c, name);
  return a && (a->flags & ARCOLL_ALGO_COMMUTATIVE_ONLY);
}

/* What ran the last call of c on a communicator of cp ranks moving bytes > 0. */
static void check_algo(arcoll_coll_t c, int cp, long bytes, int commut, const char *what) {
  const char *name = arcoll_coll_name(c);
  const char *got = last ? last(name) : NULL;
  if (!got) {
    CHECK(0, "%s %s: arcoll_last_algorithm is NULL (libarcoll not active?)", name, what);
    return;
  }
  if (cp == 1) {
    CHECK(!strcmp(got, "pmpi"), "%s %s on one rank: ran %s, expected pmpi", name, what, got);
    return;
  }
  if (bytes == 0 && c != ARCOLL_COLL_BARRIER) {
    CHECK(!strcmp(got, "none"), "%s %s count 0: ran %s, expected none", name, what, got);
    return;
  }
  const char *want = forced_name(c);
  if (want && (commut || !commutative_only(c, want))) {
    CHECK(!strcmp(got, want), "%s %s: ran %s, forced %s", name, what, got, want);
  } else {
    CHECK(arcoll_algorithm_find(c, got) != NULL, "%s %s: ran %s, expected an arcoll algorithm",
          name, what, got);
    CHECK(commut || !commutative_only(c, got),
          "%s %s: non-commutative op ran commutative-only %s", name, what, got);
  }
}

/* elements of a "large" message of type t */
static long big_count(int t) { return big_bytes / cc_data_bytes(t); }

/* ---- per collective ------------------------------------------------------- */

static int next_id = 0;

static void do_bcast(MPI_Comm comm, int t, long n, int root) {
  int cp, cme, id = ++next_id;
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &cme);
  void *buf = cc_alloc_blocks(t, n), *exp = cc_alloc_blocks(t, n);
  cc_fill(t, exp, n, id, root);
  if (cme == root) cc_fill(t, buf, n, id, root);
  int rc = MPI_Bcast(buf, (int)n, cc_dtype(t), root, comm);
  CHECK(rc == MPI_SUCCESS, "bcast rc %d", rc);
  long bad = cc_diff(t, buf, exp, n);
  CHECK(bad == 0, "bcast %s n=%ld root %d P=%d: %ld wrong ints", cc_tname[t], n, root, cp, bad);
  check_algo(ARCOLL_COLL_BCAST, cp, n * cc_data_bytes(t), 1, cc_tname[t]);
  free(buf);
  free(exp);
}

static void do_reduce(MPI_Comm comm, int t, long n, int root, int inplace, int large) {
  int cp, cme, id = ++next_id;
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &cme);
  void *sbuf = cc_alloc_blocks(t, n), *rbuf = cc_alloc_blocks(t, n), *exp = cc_alloc_blocks(t, n);
  cc_fill(t, sbuf, n, id, cme);
  if (cme == root) cc_ref_reduce(t, exp, n, id, 0, cp - 1);
  const int ip = inplace && cme == root;
  if (ip) memcpy(rbuf, sbuf, (size_t)(n > 0 ? n : 1) * (size_t)cc_extent_bytes(t));
  int rc;
#if MPI_VERSION >= 4
  if (large) rc = MPI_Reduce_c(ip ? MPI_IN_PLACE : sbuf, rbuf, n, cc_dtype(t), cc_rop(t), root, comm);
  else
#endif
    rc = MPI_Reduce(ip ? MPI_IN_PLACE : sbuf, rbuf, (int)n, cc_dtype(t), cc_rop(t), root, comm);
  (void)large;
  CHECK(rc == MPI_SUCCESS, "reduce rc %d", rc);
  if (cme == root) {
    long bad = cc_diff(t, rbuf, exp, n);
    CHECK(bad == 0, "reduce %s n=%ld root %d inplace %d P=%d: %ld wrong ints", cc_tname[t], n, root,
          inplace, cp, bad);
  }
  check_algo(ARCOLL_COLL_REDUCE, cp, n * cc_data_bytes(t), t != T_MAT, cc_tname[t]);
  free(sbuf);
  free(rbuf);
  free(exp);
}

/* kind 0 allreduce, 1 scan, 2 exscan */
static void do_allred(int kind, MPI_Comm comm, int t, long n, int inplace, int large) {
  int cp, cme, id = ++next_id;
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &cme);
  void *sbuf = cc_alloc_blocks(t, n), *rbuf = cc_alloc_blocks(t, n), *exp = cc_alloc_blocks(t, n);
  cc_fill(t, sbuf, n, id, cme);
  if (kind == 0) cc_ref_reduce(t, exp, n, id, 0, cp - 1);
  else if (kind == 1) cc_ref_reduce(t, exp, n, id, 0, cme);
  else if (cme > 0) cc_ref_reduce(t, exp, n, id, 0, cme - 1);
  if (inplace) memcpy(rbuf, sbuf, (size_t)(n > 0 ? n : 1) * (size_t)cc_extent_bytes(t));
  const void *sb = inplace ? MPI_IN_PLACE : sbuf;
  int rc;
  (void)large;
#if MPI_VERSION >= 4
  if (large)
    rc = kind == 0 ? MPI_Allreduce_c(sb, rbuf, n, cc_dtype(t), cc_rop(t), comm)
       : kind == 1 ? MPI_Scan_c(sb, rbuf, n, cc_dtype(t), cc_rop(t), comm)
                   : MPI_Exscan_c(sb, rbuf, n, cc_dtype(t), cc_rop(t), comm);
  else
#endif
    rc = kind == 0 ? MPI_Allreduce(sb, rbuf, (int)n, cc_dtype(t), cc_rop(t), comm)
       : kind == 1 ? MPI_Scan(sb, rbuf, (int)n, cc_dtype(t), cc_rop(t), comm)
                   : MPI_Exscan(sb, rbuf, (int)n, cc_dtype(t), cc_rop(t), comm);
  static const char *kn[3] = {"allreduce", "scan", "exscan"};
  CHECK(rc == MPI_SUCCESS, "%s rc %d", kn[kind], rc);
  if (kind < 2 || cme > 0) { /* exscan: rank 0's recvbuf is undefined */
    long bad = cc_diff(t, rbuf, exp, n);
    CHECK(bad == 0, "%s %s n=%ld inplace %d P=%d rank %d: %ld wrong ints", kn[kind], cc_tname[t], n,
          inplace, cp, cme, bad);
  }
  static const arcoll_coll_t kc[3] = {ARCOLL_COLL_ALLREDUCE, ARCOLL_COLL_SCAN, ARCOLL_COLL_EXSCAN};
  check_algo(kc[kind], cp, n * cc_data_bytes(t), t != T_MAT, cc_tname[t]);
  free(sbuf);
  free(rbuf);
  free(exp);
}

/* Type pairs for gather/scatter/alltoall: (send type, recv type, recv count
 * factor); pair 3 sends vectors and receives 2 MPI_INT per vector. */
static const int pair_st[4] = {T_INT, T_DBL, T_VEC, T_VEC};
static const int pair_rt[4] = {T_INT, T_DBL, T_VEC, T_INT};
static const int pair_f[4] = {1, 1, 1, 2};

/* expected block of `src` in the receive type (count n of send type) */
static void expect_block(int p, void *out, long n, int id, int src) {
  if (p < 3) {
    cc_fill(pair_rt[p], out, n, id, src);
    return;
  }
  for (long i = 0; i < 2 * n; ++i) ((int *)out)[i] = cc_ival(id, src, i); /* vector data, packed */
}

/* kind 0 gather, 1 scatter */
static void do_gs(int kind, MPI_Comm comm, int p, long n, int root, int inplace) {
  int cp, cme, id = ++next_id;
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &cme);
  const int st = pair_st[p], rt = pair_rt[p], f = pair_f[p];
  const long rn = n * f; /* receive count per block */
  const long sblk = n * cc_extent_bytes(st), rblk = rn * cc_extent_bytes(rt);
  int rc;
  if (kind == 0) {
    if (inplace && p == 3) inplace = 0; /* in place: the root's data is in recvbuf's types */
    void *sbuf = cc_alloc_blocks(st, n), *rbuf = cc_alloc_blocks(rt, rn * cp), *exp = cc_alloc_blocks(rt, rn * cp);
    cc_fill(st, sbuf, n, id, cme);
    for (int r = 0; r < cp; ++r) expect_block(p, (char *)exp + r * rblk, n, id, r);
    const int ip = inplace && cme == root;
    if (ip) expect_block(p, (char *)rbuf + cme * rblk, n, id, cme);
    rc = MPI_Gather(ip ? MPI_IN_PLACE : sbuf, (int)n, cc_dtype(st), rbuf, (int)rn, cc_dtype(rt), root, comm);
    CHECK(rc == MPI_SUCCESS, "gather rc %d", rc);
    if (cme == root) {
      long bad = cc_diff(rt, rbuf, exp, rn * cp);
      CHECK(bad == 0, "gather pair %d n=%ld root %d inplace %d P=%d: %ld wrong ints", p, n, root,
            inplace, cp, bad);
    }
    free(sbuf), free(rbuf), free(exp);
  } else {
    if (inplace && p == 3) inplace = 0;
    void *sbuf = cc_alloc_blocks(st, n * cp), *rbuf = cc_alloc_blocks(rt, rn), *exp = cc_alloc_blocks(rt, rn);
    if (cme == root) /* block r of the root's sendbuf: data "of rank r" */
      for (int r = 0; r < cp; ++r) cc_fill(st, (char *)sbuf + r * sblk, n, id, r);
    expect_block(p, exp, n, id, cme);
    const int ip = inplace && cme == root;
    if (ip) memcpy(exp, (char *)sbuf + cme * sblk, (size_t)(n > 0 ? sblk : 4)), free(rbuf),
        rbuf = NULL;
    rc = MPI_Scatter(sbuf, (int)n, cc_dtype(st), ip ? MPI_IN_PLACE : rbuf, (int)rn, cc_dtype(rt), root, comm);
    CHECK(rc == MPI_SUCCESS, "scatter rc %d", rc);
    long bad = ip ? cc_diff(st, (char *)sbuf + cme * sblk, exp, n) : cc_diff(rt, rbuf, exp, rn);
    CHECK(bad == 0, "scatter pair %d n=%ld root %d inplace %d P=%d rank %d: %ld wrong ints", p, n,
          root, inplace, cp, cme, bad);
    free(sbuf), free(rbuf), free(exp);
  }
  check_algo(kind ? ARCOLL_COLL_SCATTER : ARCOLL_COLL_GATHER, cp, n * cc_data_bytes(st), 1, "");
}

static void do_alltoall(MPI_Comm comm, int p, long n, int inplace) {
  int cp, cme, id = ++next_id;
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &cme);
  if (inplace && p == 3) inplace = 0;
  const int st = pair_st[p], rt = pair_rt[p], f = pair_f[p];
  const long rn = n * f, sblk = n * cc_extent_bytes(st), rblk = rn * cc_extent_bytes(rt);
  void *sbuf = cc_alloc_blocks(st, n * cp), *rbuf = cc_alloc_blocks(rt, rn * cp), *exp = cc_alloc_blocks(rt, rn * cp);
  /* block d of rank s: data id' = id * 64 + d, "rank" s */
  for (int d = 0; d < cp; ++d) {
    cc_fill(st, (char *)sbuf + d * sblk, n, id * 64 + d, cme);
    expect_block(p, (char *)exp + d * rblk, n, id * 64 + cme, d);
  }
  if (inplace) memcpy(rbuf, sbuf, (size_t)(n > 0 ? sblk * cp : 4));
  int rc = MPI_Alltoall(inplace ? MPI_IN_PLACE : sbuf, (int)n, cc_dtype(st), rbuf, (int)rn, cc_dtype(rt), comm);
  CHECK(rc == MPI_SUCCESS, "alltoall rc %d", rc);
  long bad = cc_diff(rt, rbuf, exp, rn * cp);
  CHECK(bad == 0, "alltoall pair %d n=%ld inplace %d P=%d rank %d: %ld wrong ints", p, n, inplace,
        cp, cme, bad);
  check_algo(ARCOLL_COLL_ALLTOALL, cp, n * cc_data_bytes(st), 1, "");
  free(sbuf), free(rbuf), free(exp);
}

/* Barrier semantics: no rank leaves before the late rank entered (MPI_Wtime
 * is one clock on one node / in the simulation). */
static void do_barrier(MPI_Comm comm) {
  int cp, cme;
  MPI_Comm_size(comm, &cp);
  MPI_Comm_rank(comm, &cme);
  for (int late = 0; late < cp; ++late) {
    double t_enter = 0;
    if (cme == late) {
      usleep(20000);
      t_enter = MPI_Wtime();
    }
    int rc = MPI_Barrier(comm);
    double t_exit = MPI_Wtime();
    CHECK(rc == MPI_SUCCESS, "barrier rc %d", rc);
    check_algo(ARCOLL_COLL_BARRIER, cp, 0, 1, "");
    PMPI_Bcast(&t_enter, 1, MPI_DOUBLE, late, comm); /* reference exchange, not interposed */
    CHECK(t_exit >= t_enter, "barrier: rank %d left at %.6f before late rank %d entered at %.6f",
          cme, t_exit, late, t_enter);
  }
}

static void run_all(MPI_Comm comm) {
  int cp;
  MPI_Comm_size(comm, &cp);
  for (int t = 0; t < NT; ++t) {
    long sizes[4] = {0, 1, 37, big_count(t)};
    for (int s = 0; s < 4; ++s) {
      const long n = sizes[s];
      for (int root = 0; root < cp; ++root) {
        if (t != T_MAT) do_bcast(comm, t, n, root);
        for (int ip = 0; ip < 2; ++ip) do_reduce(comm, t, n, root, ip, s == 3);
      }
      for (int kind = 0; kind < 3; ++kind)
        for (int ip = 0; ip < 2; ++ip) do_allred(kind, comm, t, n, ip, s == 3);
    }
  }
  for (int p = 0; p < 4; ++p) {
    long sizes[4] = {0, 1, 37, big_bytes / cc_data_bytes(pair_st[p]) / (cp > 2 ? 2 : 1)};
    for (int s = 0; s < 4; ++s) {
      for (int root = 0; root < cp; ++root)
        for (int ip = 0; ip < 2; ++ip) {
          do_gs(0, comm, p, sizes[s], root, ip);
          do_gs(1, comm, p, sizes[s], root, ip);
        }
      for (int ip = 0; ip < 2; ++ip) do_alltoall(comm, p, sizes[s], ip);
    }
  }
  do_barrier(comm);
}

/* ---- main ------------------------------------------------------------------ */

static void set_forced_env(void) {
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c) {
    char var[64], up[32];
    const char *n = arcoll_coll_name((arcoll_coll_t)c);
    size_t i = 0;
    for (; n[i]; ++i) up[i] = (char)toupper((unsigned char)n[i]);
    up[i] = 0;
    snprintf(var, sizeof var, "ARCOLL_%s_ALGORITHM", up);
    const char *name = forced_name((arcoll_coll_t)c);
    if (name) setenv(var, name, 1);
    else unsetenv(var);
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "auto";
  if (argc > 2) big_bytes = atol(argv[2]);
  if (!strncmp(mode, "forced", 6)) forced_k = atoi(mode + 6);
  if (!strcmp(mode, "native")) forced_k = FORCED_NATIVE;
  int valid = !strcmp(mode, "auto") || !strcmp(mode, "errors") || forced_k == FORCED_NATIVE ||
              (!strncmp(mode, "forced", 6) && forced_k >= 0 && forced_k < 8);
  if (strcmp(mode, "errors")) set_forced_env(); /* errors: keep the caller's env */
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (!valid) {
    if (me == 0) fprintf(stderr, "coll_check: unknown mode '%s' (auto, forced0..forced7, native, errors)\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  last = get_last();
  CHECK(last != NULL, "libarcoll is not active (arcoll_last_algorithm missing)");
  cc_data_create();
  if (!strcmp(mode, "errors")) {
    cc_mode_errors(P, me, &checked, &failures);
  } else {
    run_all(MPI_COMM_WORLD);
    MPI_Comm half; /* reversed rank order; sizes 1 and 2 at P = 3 */
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, P - me, &half);
    run_all(half);
    MPI_Comm_free(&half);
  }
  long tot[2] = {0, 0}, mine[2] = {failures, checked};
  PMPI_Allreduce(mine, tot, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD); /* the verdict: not interposed */
  if (me == 0)
    printf("coll_check %s P=%d: %s (%ld failures, %ld checks)\n", mode, P, tot[0] ? "FAIL" : "OK",
           tot[0], tot[1]);
  cc_data_free();
  MPI_Finalize();
  return tot[0] ? 1 : 0;
}
