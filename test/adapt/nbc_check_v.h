/*
 * The irregular nonblocking collectives of nbc_check.c: MPI_Iallgatherv and
 * MPI_Ialltoallv with counts that differ per rank and per pair, zero
 * included (all zero when the batch's n is 0), displacements out of rank
 * order with unused elements between the blocks (they must stay -1), the
 * batch's type (MPI_INT or the vector vec_t whose gap ints must stay GAP),
 * the send side of iallgatherv alternately as MPI_INT (a different type
 * than the receive side) and as the batch's type, and MPI_IN_PLACE (the
 * in-place alltoallv with symmetric counts, as MPI requires), the int or
 * the MPI-4 large-count (_c) forms.  Expected
 * values: element k of the block that rank i sends to rank j is
 * val(salt + 9, i * P + j, k) (alltoallv), of rank i's block val(salt + 8,
 * i, k) (allgatherv), computed here without MPI.  Include after
 * nbc_check_ref.h and CHECK.
 */
#ifndef ARCOLL_TEST_NBC_CHECK_V_H
#define ARCOLL_TEST_NBC_CHECK_V_H

#include <mpi.h>
#include <stdlib.h>

typedef struct vcoll {
  int n, vec, w, inplace, salt; /* w: data ints per element of t */
  MPI_Datatype t;
  int *agc, *agd, *ag_in, *ag_out, ag_len; /* ag_len: elements of ag_out */
  int *sc, *sd, *rc, *rd, *a2_in, *a2_out, a2_slen, a2_rlen;
  int large; /* 1: the MPI-4 _c forms (MPI_Count counts, MPI_Aint displacements) */
  int a2_inplace; /* alltoallv in place (vcoll_start) */
  void *wide; /* their arrays */
} vcoll_t;

#if MPI_VERSION >= 4
/* v->wide: counts of iallgatherv, of alltoallv's send and receive sides
 * (3P MPI_Count), then their displacements (3P MPI_Aint) */
static MPI_Count *v_wcount(vcoll_t *v, int k) { return (MPI_Count *)v->wide + k * P; }
static MPI_Aint *v_wdispl(vcoll_t *v, int k) {
  return (MPI_Aint *)((MPI_Count *)v->wide + 3 * P) + k * P;
}
#endif

/* MPI_Iallgatherv or MPI_Iallgatherv_c (v->large) */
static void v_iallgatherv(vcoll_t *v, const void *sbuf, int scount, MPI_Datatype stype,
                          MPI_Request *r) {
#if MPI_VERSION >= 4
  if (v->large) {
    v->wide = malloc((sizeof(MPI_Count) + sizeof(MPI_Aint)) * 3 * (size_t)P);
    MPI_Count *c = v_wcount(v, 0);
    MPI_Aint *d = v_wdispl(v, 0);
    for (int q = 0; q < P; ++q) c[q] = v->agc[q], d[q] = v->agd[q];
    MPI_Iallgatherv_c(sbuf, scount, stype, v->ag_out, c, d, v->t, MPI_COMM_WORLD, r);
    return;
  }
#endif
  MPI_Iallgatherv(sbuf, scount, stype, v->ag_out, v->agc, v->agd, v->t, MPI_COMM_WORLD, r);
}

/* MPI_Ialltoallv or MPI_Ialltoallv_c (v->large; after v_iallgatherv) */
static void v_ialltoallv(vcoll_t *v, const void *sbuf, MPI_Request *r) {
#if MPI_VERSION >= 4
  if (v->large) {
    MPI_Count *sc = v_wcount(v, 1), *rc = v_wcount(v, 2);
    MPI_Aint *sd = v_wdispl(v, 1), *rd = v_wdispl(v, 2);
    for (int q = 0; q < P; ++q)
      sc[q] = v->sc[q], sd[q] = v->sd[q], rc[q] = v->rc[q], rd[q] = v->rd[q];
    MPI_Ialltoallv_c(sbuf, sc, sd, v->t, v->a2_out, rc, rd, v->t, MPI_COMM_WORLD, r);
    return;
  }
#endif
  MPI_Ialltoallv(sbuf, v->sc, v->sd, v->t, v->a2_out, v->rc, v->rd, v->t, MPI_COMM_WORLD, r);
}

/* elements of rank r's block (allgatherv) */
static int agv_count(const vcoll_t *v, int r) {
  return v->n == 0 || (r + v->salt) % 3 == 1 ? 0 : v->n + (r * 7) % 5;
}
/* elements rank i sends to rank j (alltoallv); symmetric in place */
static int a2v_count(const vcoll_t *v, int i, int j) {
  if (v->n == 0 || (i + j + v->salt) % 4 == 1) return 0;
  return v->n + (i * j + i + j) % 3 + (v->a2_inplace ? 0 : j % 2);
}

/* Every data int of a receive buffer of len elements (w data ints each)
 * whose blocks are (cnt[j], dsp[j]) against val(salt, id, k), id = j * P +
 * me (pair) or j, and -1 outside the blocks; the gap ints of vec.  One
 * failure per buffer, with the count of wrong ints and the first. */
static void v_check(const int *buf, int vec, int len, int w, const int *cnt, const int *dsp,
                    int salt, int pair, const char *name, const vcoll_t *v) {
  int *e = malloc(sizeof(int) * ((size_t)len * w + 1));
  long bad = 0, first = -1;
  for (int i = 0; i < len * w; ++i) e[i] = -1;
  for (int j = 0; j < P; ++j)
    for (int k = 0; k < cnt[j] * w; ++k) e[dsp[j] * w + k] = val(salt, pair ? j * P + me : j, k);
  for (int i = 0; i < len * w; ++i)
    if (tget((int *)buf, vec, i) != e[i]) first = first < 0 ? i : first, ++bad;
  CHECK(!bad, "%s %s n=%d ip %d salt %d: %ld ints wrong, first [%ld]", name, vec ? "vec" : "int",
        v->n, v->inplace, v->salt, bad, first);
  CHECK(gaps_ok(buf, len, vec), "%s %s n=%d: gap ints changed", name, vec ? "vec" : "int", v->n);
  free(e);
}

/* Start MPI_Iallgatherv (r[0]) and MPI_Ialltoallv (r[1]) of v (n, vec, w,
 * inplace, salt, t set). */
static void vcoll_start(vcoll_t *v, MPI_Request *r) {
  const int w = v->w, s = v->salt, ip = v->inplace;
  v->agc = malloc(sizeof(int) * 6 * (size_t)P);
  v->agd = v->agc + P, v->sc = v->agd + P, v->sd = v->sc + P, v->rc = v->sd + P;
  v->rd = v->rc + P;
  /* allgatherv: blocks in reverse rank order, one unused element after each */
  v->ag_len = 0;
  for (int q = P - 1; q >= 0; --q) v->agd[q] = v->ag_len, v->ag_len += agv_count(v, q) + 1;
  for (int q = 0; q < P; ++q) v->agc[q] = agv_count(v, q);
  const int mine = v->agc[me], as_int = !v->vec || (s / 11) % 2;
  v->ag_in = tbuf(as_int ? mine * w : mine, !as_int);
  for (int k = 0; k < mine * w; ++k) tset(v->ag_in, !as_int, k, val(s + 8, me, k));
  v->ag_out = tbuf(v->ag_len, v->vec);
  for (int e = 0; e < v->ag_len; ++e)
    for (int q = 0; q < w; ++q) {
      const int own = ip && e >= v->agd[me] && e < v->agd[me] + mine;
      tset(v->ag_out, v->vec, e * w + q, own ? val(s + 8, me, (e - v->agd[me]) * w + q) : -1);
    }
  v_iallgatherv(v, ip ? MPI_IN_PLACE : v->ag_in, as_int ? mine * w : mine, as_int ? MPI_INT : v->t,
                &r[0]);
  /* alltoallv: send blocks in reverse order with one unused element after
   * each, receive blocks in order with two before each.  Not in place with
   * vec_t where SMPI runs its own (one rank): SimGrid 3.32's in-place
   * MPI_Ialltoallv copies type size x (displacement + count) bytes of
   * recvbuf, not the extent the blocks span (smpi_pmpi_coll.cpp). */
#ifdef ARCOLL_TEST_LINKED
  v->a2_inplace = ip && !(P == 1 && v->vec);
#else
  v->a2_inplace = ip;
#endif
  v->a2_slen = v->a2_rlen = 0;
  for (int j = P - 1; j >= 0; --j)
    v->sc[j] = a2v_count(v, me, j), v->sd[j] = v->a2_slen, v->a2_slen += v->sc[j] + 1;
  for (int j = 0; j < P; ++j)
    v->rc[j] = a2v_count(v, j, me), v->rd[j] = v->a2_rlen + 2, v->a2_rlen += v->rc[j] + 2;
  v->a2_in = tbuf(v->a2_slen, v->vec), v->a2_out = tbuf(v->a2_rlen, v->vec);
  for (int e = 0; e < v->a2_slen * w; ++e) tset(v->a2_in, v->vec, e, -1);
  for (int e = 0; e < v->a2_rlen * w; ++e) tset(v->a2_out, v->vec, e, -1);
  int *into = v->a2_inplace ? v->a2_out : v->a2_in, *dsp = v->a2_inplace ? v->rd : v->sd;
  for (int j = 0; j < P; ++j) /* in place: rc[j] == sc[j] (symmetric counts) */
    for (int k = 0; k < v->sc[j] * w; ++k)
      tset(into, v->vec, dsp[j] * w + k, val(s + 9, me * P + j, k));
  v_ialltoallv(v, v->a2_inplace ? MPI_IN_PLACE : v->a2_in, &r[1]);
}

/* Both receive buffers against their expected values; frees v's buffers. */
static void vcoll_verify(vcoll_t *v) {
  v_check(v->ag_out, v->vec, v->ag_len, v->w, v->agc, v->agd, v->salt + 8, 0, "iallgatherv", v);
  v_check(v->a2_out, v->vec, v->a2_rlen, v->w, v->rc, v->rd, v->salt + 9, 1, "ialltoallv", v);
  free(v->agc), free(v->ag_in), free(v->ag_out), free(v->a2_in), free(v->a2_out), free(v->wide);
}

#endif
