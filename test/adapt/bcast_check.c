/*
 * Correctness tests of libarcoll's MPI_Bcast (real MPICH with LD_PRELOAD, or
 * SMPI linked with libarcoll).  Usage: bcast_check MODE
 *   correctness  sizes 0, 1, 17, ~1 MiB x MPI_INT, MPI_DOUBLE, a vector and a
 *                struct type x roots 0, P/2, P-1, on WORLD, a dup and a split;
 *                mixed datatypes (root vector, receivers MPI_INT); MPI_Bcast_c
 *   sites        ranks call MPI_Bcast from different call sites, roots cycle,
 *                one rank is delayed: data must be right, no hang
 *   leaf         rank P/2 is delayed before every call: after a few calls it
 *                must sit on a leaf (odd binomial position) of the tree
 *   inter        broadcast on an intercommunicator passes through (MPICH)
 *   errors       bad root / count / datatype / communicator: same error class
 *                as PMPI_Bcast (MPI_ERRORS_RETURN)
 * Every value is compared with an independently computed expectation.  The
 * program fails if libarcoll is not active (arcoll_bcast_last_order missing).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"

#define CHECK_PROG "bcast_check"
static int P, me;
static long failures = 0, checked = 0;

static void delay(void) {
#if defined(SMPI_SAMPLE_FLOPS)
  smpi_execute_flops(2e7); /* simulated */
#else
  usleep(20000); /* well above the scheduling noise of 4 busy-polling ranks on 2 cores */
#endif
}

/* expected value of element/field i for (test id, root) */
static int ival(int id, int root, long i) { return (int)((id * 1000003L + root * 7919L + i * 31L) % 2147483647L); }

typedef struct { int a; double b; char c; } rec_t;

enum { T_INT, T_DOUBLE, T_VECTOR, T_STRUCT, NT };
static MPI_Datatype vec_t, struct_t;
static const char *tname[NT] = {"MPI_INT", "MPI_DOUBLE", "vector", "struct"};
/* bytes of data per element / extent per element */
static const long ext[NT] = {sizeof(int), sizeof(double), 8 * sizeof(int), sizeof(rec_t)};

static void make_types(void) {
  MPI_Type_vector(2, 3, 5, MPI_INT, &vec_t); /* ints 0-2 and 5-7 of every 8 */
  MPI_Datatype tmp;
  MPI_Datatype bt[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  int bl[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(rec_t, a), offsetof(rec_t, b), offsetof(rec_t, c)};
  MPI_Type_create_struct(3, bl, disp, bt, &tmp);
  MPI_Type_create_resized(tmp, 0, sizeof(rec_t), &struct_t);
  MPI_Type_free(&tmp);
  MPI_Type_commit(&vec_t);
  MPI_Type_commit(&struct_t);
}

static MPI_Datatype dtype(int t) {
  return t == T_INT ? MPI_INT : t == T_DOUBLE ? MPI_DOUBLE : t == T_VECTOR ? vec_t : struct_t;
}

/* fill: root gets expected values, others sentinels (gaps always sentinel) */
static void fill(int t, void *buf, long n, int id, int root, int expected) {
  for (long e = 0; e < n; ++e) {
    switch (t) {
      case T_INT: ((int *)buf)[e] = expected ? ival(id, root, e) : -1; break;
      case T_DOUBLE: ((double *)buf)[e] = expected ? ival(id, root, e) + 0.5 : -1.0; break;
      case T_VECTOR:
        for (int k = 0; k < 8; ++k)
          ((int *)buf)[8 * e + k] = (expected && (k < 3 || k >= 5)) ? ival(id, root, 8 * e + k) : -7;
        break;
      case T_STRUCT: {
        rec_t *r = (rec_t *)buf + e;
        r->a = expected ? ival(id, root, 3 * e) : -1;
        r->b = expected ? ival(id, root, 3 * e + 1) * 0.25 : -1.0;
        r->c = expected ? (char)(ival(id, root, 3 * e + 2) & 0x7f) : (char)-1;
        break;
      }
    }
  }
}

static long compare(int t, const void *got, const void *exp, long n) {
  long bad = 0;
  for (long e = 0; e < n; ++e) {
    switch (t) {
      case T_INT: bad += ((const int *)got)[e] != ((const int *)exp)[e]; break;
      case T_DOUBLE: bad += ((const double *)got)[e] != ((const double *)exp)[e]; break;
      case T_VECTOR:
        for (int k = 0; k < 8; ++k) bad += ((const int *)got)[8 * e + k] != ((const int *)exp)[8 * e + k];
        break;
      case T_STRUCT: {
        const rec_t *g = (const rec_t *)got + e, *x = (const rec_t *)exp + e;
        bad += g->a != x->a || g->b != x->b || g->c != x->c;
        break;
      }
    }
  }
  return bad;
}

static void one_bcast(MPI_Comm comm, int t, long n, int root, int id) {
  int cme;
  MPI_Comm_rank(comm, &cme);
  size_t bytes = (size_t)(n > 0 ? n : 1) * (size_t)ext[t];
  void *buf = malloc(bytes), *exp = malloc(bytes);
  fill(t, exp, n, id, root, 1);
  if (cme == root) memcpy(buf, exp, bytes);
  else {
    fill(t, buf, n, id, root, 0);
    if (t == T_VECTOR) /* gaps are never written: expect the sentinel there */
      for (long e = 0; e < n; ++e) ((int *)exp)[8 * e + 3] = ((int *)exp)[8 * e + 4] = -7;
  }
  int rc = MPI_Bcast(buf, (int)n, dtype(t), root, comm);
  CHECK(rc == MPI_SUCCESS, "MPI_Bcast returned %d", rc);
  long bad = compare(t, buf, exp, n);
  CHECK(bad == 0, "type %s count %ld root %d id %d: %ld wrong elements", tname[t], n, root, id, bad);
  free(buf);
  free(exp);
}

static void mode_correctness(void) {
  const long big[NT] = {262144, 131072, 43691, 80660}; /* ~1 MiB of data each */
  int roots[3] = {0, P / 2, P - 1};
  MPI_Comm dup, half;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, P - me, &half); /* reversed order */
  MPI_Comm comms[3] = {MPI_COMM_WORLD, dup, half};
  int id = 0;
  for (int c = 0; c < 3; ++c) {
    int cp;
    MPI_Comm_size(comms[c], &cp);
    int croots[3] = {0, cp / 2, cp - 1};
    for (int t = 0; t < NT; ++t) {
      long sizes[4] = {0, 1, 17, big[t]};
      for (int s = 0; s < 4; ++s)
        for (int r = 0; r < 3; ++r) {
          if (r > 0 && croots[r] == croots[r - 1]) continue;
          if (c > 0 && s == 3 && r > 0) continue; /* keep the big ones on WORLD */
          one_bcast(comms[c], t, sizes[s], croots[r], ++id);
        }
    }
  }
  /* mixed datatypes: root sends n vectors, the others receive 6n MPI_INT */
  for (int r = 0; r < 3; ++r) {
    long n = r == 0 ? 43691 : 5;
    int root = roots[r];
    int *buf = malloc(sizeof(int) * 8 * (size_t)n);
    if (me == root) {
      fill(T_VECTOR, buf, n, 999, root, 1);
      MPI_Bcast(buf, (int)n, vec_t, root, MPI_COMM_WORLD);
    } else {
      for (long i = 0; i < 6 * n; ++i) buf[i] = -1;
      MPI_Bcast(buf, (int)(6 * n), MPI_INT, root, MPI_COMM_WORLD);
      long bad = 0;
      for (long e = 0; e < n; ++e)
        for (int k = 0; k < 6; ++k) {
          long src = 8 * e + (k < 3 ? k : k + 2);
          bad += buf[6 * e + k] != ival(999, root, src);
        }
      CHECK(bad == 0, "mixed datatypes root %d: %ld wrong ints", root, bad);
    }
    free(buf);
  }
#if MPI_VERSION >= 4
  {
    MPI_Count n = 100001;
    int *buf = malloc(sizeof(int) * (size_t)n);
    for (MPI_Count i = 0; i < n; ++i) buf[i] = me == P - 1 ? ival(4242, P - 1, (long)i) : 0;
    int rc = MPI_Bcast_c(buf, n, MPI_INT, P - 1, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "MPI_Bcast_c returned %d", rc);
    long bad = 0;
    for (MPI_Count i = 0; i < n; ++i) bad += buf[i] != ival(4242, P - 1, (long)i);
    CHECK(bad == 0, "MPI_Bcast_c: %ld wrong elements", bad);
    free(buf);
  }
#endif
  last_order_fn f = get_last_order();
  long long ncalls = 0;
  int order[1];
  CHECK(f && (P == 1 || f(MPI_COMM_WORLD, order, 1, &ncalls, NULL) == P),
        "libarcoll is not active (arcoll_bcast_last_order missing or no call recorded)");
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);
}

static void bcast_ints(int *buf, int n, int root, int id, int site) {
  for (int i = 0; i < n; ++i) buf[i] = me == root ? ival(id, root, i) : -1;
  /* three textually different call sites */
  if (site == 0) MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD);
  else if (site == 1) MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD);
  else MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += buf[i] != ival(id, root, i);
  CHECK(bad == 0, "sites test id %d root %d site %d: %ld wrong elements", id, root, site, bad);
}

static void mode_sites(void) {
  int n = 4099, *buf = malloc(sizeof(int) * (size_t)n);
  const int slow = P / 2;
  int pattern[4] = {0, P - 1, 0, P / 2};
  for (int it = 0; it < 40; ++it) {
    int root = pattern[it % 4];
    if (it >= 20) root = pattern[(it * 7) % 4]; /* break the period */
    if (me == slow) delay();
    /* the root, odd and even ranks use different call sites, and the root's
       site changes with the iteration */
    int site = me == root ? (it % 3) : (me % 2 ? 1 : 2);
    bcast_ints(buf, (it % 5 == 4) ? 1 : n, root, it, site);
  }
  free(buf);
}

static void mode_leaf(void) {
  int n = 1024, *buf = malloc(sizeof(int) * (size_t)n);
  const int slow = P / 2;
  /* exchanges start at calls 16, 32 and 48 or 64 and are applied 8 calls
   * later (late_tracker.h); the first one makes the order adaptive, the
   * later ones must keep it so (one exchange alone can be blurred by
   * descheduling when 4 busy-polling ranks share 2 cores) */
  const int calls = 72;
  for (int it = 0; it < calls; ++it) {
    if (me == slow) delay();
    bcast_ints(buf, n, 0, it, 0);
  }
  last_order_fn f = get_last_order();
  CHECK(f != NULL, "libarcoll is not active");
  if (f && P >= 2) {
    int *order = malloc(sizeof(int) * (size_t)P), adaptive = -1;
    long long ncalls = 0;
    int got = f(MPI_COMM_WORLD, order, P, &ncalls, &adaptive);
    CHECK(got == P, "arcoll_bcast_last_order returned %d", got);
    CHECK(ncalls == calls, "expected %d calls, arcoll counted %lld", calls, ncalls);
    int pos = -1;
    for (int i = 0; i < P; ++i)
      if (order[i] == slow) pos = i;
    if (P >= 3) CHECK(adaptive == 1, "the last order was not adaptive");
    /* binomial subtree size at pos: min(lowbit(pos), P - pos); 1 = leaf */
    int sub = pos <= 0 ? P : ((pos & -pos) < P - pos ? (pos & -pos) : P - pos);
    CHECK(pos > 0 && sub == 1, "late rank %d is at position %d (subtree of %d, not a leaf)",
          slow, pos, sub);
    if (me == 0) {
      printf("leaf: P=%d late rank %d at position %d, order:", P, slow, pos);
      for (int i = 0; i < P && i < 16; ++i) printf(" %d", order[i]);
      printf("%s\n", P > 16 ? " ..." : "");
    }
    free(order);
  }
  free(buf);
}

static void mode_inter(void) {
  if (P < 2) return;
  MPI_Comm local, inter;
  int color = me < P / 2 ? 0 : 1;
  MPI_Comm_split(MPI_COMM_WORLD, color, me, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? P / 2 : 0, 77, &inter);
  int lrank;
  MPI_Comm_rank(local, &lrank);
  int n = 513, *buf = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) buf[i] = color == 0 && lrank == 0 ? ival(55, 0, i) : -1;
  int root = color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  int rc = MPI_Bcast(buf, n, MPI_INT, root, inter);
  CHECK(rc == MPI_SUCCESS, "intercomm MPI_Bcast returned %d", rc);
  long bad = 0;
  for (int i = 0; i < n; ++i)
    bad += buf[i] != (color == 1 || lrank == 0 ? ival(55, 0, i) : -1);
  CHECK(bad == 0, "intercomm bcast: %ld wrong elements", bad);
  last_order_fn f = get_last_order();
  int o[1];
  CHECK(f && f(inter, o, 1, NULL, NULL) == -1, "arcoll handled an intercommunicator");
  free(buf);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
}

static void mode_errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int buf[4] = {0};
  struct { const char *what; int count; MPI_Datatype dt; int root; MPI_Comm comm; } cases[] = {
      {"root = P", 4, MPI_INT, P, MPI_COMM_WORLD},
      {"root = -5", 4, MPI_INT, -5, MPI_COMM_WORLD},
      {"count = -1", -1, MPI_INT, 0, MPI_COMM_WORLD},
      {"MPI_DATATYPE_NULL", 4, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD},
      {"MPI_COMM_NULL", 4, MPI_INT, 0, MPI_COMM_NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    int a = MPI_Bcast(buf, cases[i].count, cases[i].dt, cases[i].root, cases[i].comm);
    int b = PMPI_Bcast(buf, cases[i].count, cases[i].dt, cases[i].root, cases[i].comm);
    CHECK(a != MPI_SUCCESS, "%s: MPI_Bcast succeeded", cases[i].what);
    CHECK(err_class(a) == err_class(b), "%s: error class %d, PMPI_Bcast gives %d",
          cases[i].what, err_class(a), err_class(b));
  }
  /* still working afterwards */
  int x[3];
  for (int i = 0; i < 3; ++i) x[i] = me == 0 ? ival(1, 0, i) : 0;
  CHECK(MPI_Bcast(x, 3, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "valid call failed");
  for (int i = 0; i < 3; ++i) CHECK(x[i] == ival(1, 0, i), "valid call after errors: wrong data");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  make_types();
  const char *mode = argc > 1 ? argv[1] : "correctness";
  if (!strcmp(mode, "correctness")) mode_correctness();
  else if (!strcmp(mode, "sites")) mode_sites();
  else if (!strcmp(mode, "leaf")) mode_leaf();
  else if (!strcmp(mode, "inter")) mode_inter();
  else if (!strcmp(mode, "errors")) mode_errors();
  else {
    if (me == 0) fprintf(stderr, "bcast_check: unknown mode '%s' (correctness, sites, leaf, inter, errors)\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) printf("bcast_check %s P=%d: %s (%ld failures)\n", mode, P, total ? "FAIL" : "OK", total);
  MPI_Type_free(&vec_t);
  MPI_Type_free(&struct_t);
  MPI_Finalize();
  return total ? 1 : 0;
}
