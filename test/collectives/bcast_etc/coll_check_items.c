/* Values, buffers, failure reports and schedules of the bcast_etc matrix (bcast_etc_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bcast_etc_check.h"

int val(long id, long b) { return (int)((id * 104729L + b * 7L + 3) % 1000003L); }

/* set / check basic item b (element b / nb, field b % nb) */
void set_item(const ctx_t *c, int t, char *buf, long b, int v) {
  long e = b / c->nb[t], j = b % c->nb[t];
  char *p = buf + e * c->ext[t];
  switch (t) {
  case T_INT: ((int *)p)[0] = v; break;
  case T_DOUBLE: ((double *)p)[0] = v + 0.5; break;
  case T_VEC: ((int *)p)[2 * j] = v; break;
  default: {
    rec_t *r = (rec_t *)p;
    if (j == 0) r->d = v + 0.25;
    else if (j == 1) r->i = v;
    else r->c = (char)(v % 100);
  }
  }
}

int item_ok(const ctx_t *c, int t, const char *buf, long b, int v) {
  long e = b / c->nb[t], j = b % c->nb[t];
  const char *p = buf + e * c->ext[t];
  switch (t) {
  case T_INT: return ((const int *)p)[0] == v;
  case T_DOUBLE: return ((const double *)p)[0] == v + 0.5;
  case T_VEC:
    if (j < 2 && ((const int *)p)[2 * j + 1] != SENTINEL) return 0; /* gap */
    return ((const int *)p)[2 * j] == v;
  default: {
    const rec_t *r = (const rec_t *)p;
    return j == 0 ? r->d == v + 0.25 : j == 1 ? r->i == v : r->c == (char)(v % 100);
  }
  }
}

/* buffer of n elements filled with the sentinel */
char *alloc_buf(const ctx_t *c, int t, long n) {
  size_t bytes = (size_t)(n > 0 ? n : 1) * (size_t)c->ext[t];
  int *b = malloc(bytes);
  for (size_t i = 0; i < bytes / sizeof(int); ++i) b[i] = SENTINEL;
  return (char *)b;
}

void fail(ctx_t *c, const char *what, const char *algo, int t, long count, int root,
                 int sched, long b) {
  if (c->failures++ < 10)
    fprintf(stderr, "rank %d: %s %s type %d count %ld root %d sched %d: item %ld wrong\n",
            c->me, what, algo, t, count, root, sched, b);
}

void check_rc(ctx_t *c, int rc, const char *what, const char *algo) {
  if (rc != MPI_SUCCESS && c->failures++ < 10)
    fprintf(stderr, "rank %d: %s %s returned %d\n", c->me, what, algo, rc);
}

/* schedules: 0 NULL; 1 shuffled order (root first), segments of
 * max(100, bytes/16) | 1 bytes (not a multiple of the element size), k 3;
 * 2 non-root part of the rotated order reversed, segments of
 * max(4096, bytes/64) bytes, k 0; 3 the order of 2, 16 KiB segments
 * (MPICH/UCX sends them only to a posted receive: the multi-tree bcasts
 * once hung there at P = 3, 4 MiB).  bytes = message size (keeps the number
 * of segments, hence the SMPI run time, bounded). */
const arcoll_sched_t *make_sched(const ctx_t *c, int kind, int root, int seed, int *order,
                                        arcoll_sched_t *s, long bytes) {
  if (kind == 0) return NULL;
  const int P = c->P;
  for (int i = 0; i < P; ++i) order[i] = (root + i) % P;
  if (kind == 1) { /* same LCG on every rank; keep order[0] = root */
    unsigned x = 777u + (unsigned)seed;
    for (int i = P - 1; i > 1; --i) {
      x = x * 1103515245u + 12345u;
      int j = 1 + (int)((x >> 8) % (unsigned)i);
      int tmp = order[i];
      order[i] = order[j];
      order[j] = tmp;
    }
  } else if (P > 2) { /* reverse the non-root part */
    for (int i = 1, j = P - 1; i < j; ++i, --j) {
      int tmp = order[i];
      order[i] = order[j];
      order[j] = tmp;
    }
  }
  s->order = order;
  s->segment_bytes = kind == 3 ? 16384
                   : kind == 1 ? ((bytes / 16 > 100 ? bytes / 16 : 100) | 1)
                              : (bytes / 64 > 4096 ? bytes / 64 : 4096);
  s->k = kind == 1 ? 3 : 0;
  s->tag = 40 + kind;
  return s;
}

/* host seconds (informational progress output only, never asserted) */
double host_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* gather/scatter: type pairs (send, recv, recv count factor); pair 4 = vector -> int */
void pair_types(int pi, int *st, int *rt, int *fac) {
  if (pi < NTYPES) {
    *st = *rt = pi;
    *fac = 1;
  } else {
    *st = T_VEC;
    *rt = T_INT;
    *fac = 3;
  }
}
