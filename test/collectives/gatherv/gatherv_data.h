/*
 * Test data of the gatherv / scatterv checks (algorithms_check.c here,
 * direct calls of the algorithms; test/adapt/vblocks_check.c, through
 * libarcoll): one call's buffers and its expected result, computed by each
 * rank from (call id, rank, index) alone - no MPI collective is used as
 * the reference.  Cases, patterns of counts (zeros included) and the
 * root's layout (blocks in reverse rank order with a one-element gap after
 * each) are allgatherv's (allgatherv_data.h): the "own" side of rank r is
 * agv_sn() elements of the case's send type, the root's side the blocks of
 * agv_layout() in its receive type (gatherv: recvbuf; scatterv: sendbuf).
 */
#ifndef ARCOLL_TEST_GATHERV_DATA_H
#define ARCOLL_TEST_GATHERV_DATA_H

#include "allgatherv_data.h"

typedef struct gv_call {
  int bt, ot;       /* types (AG_*) of the root's blocks and of a rank's own block */
  long *cnt, *dsp;  /* the root's counts / displacements (elements of bt), P each */
  long len, on;     /* elements of bt in the root's buffer, of ot in the own block */
  void *all, *one;  /* the root's buffer (bt, every rank has one), the own block (ot) */
  void *exp;        /* expected: gatherv the root's buffer, scatterv the own block */
} gv_call_t;

/* Buffers of call `id` of case c, count pattern pat, size n, for rank r of
 * P; inplace: the root's own block already in place (gatherv) */
static void gv_prepare(gv_call_t *k, int scatter, int c, int pat, long n, int P, int r, int root,
                       int id, int inplace) {
  agv_types(c, &k->ot, &k->bt);
  k->cnt = malloc(sizeof(long) * 2 * (size_t)P);
  k->dsp = k->cnt + P;
  k->len = agv_layout(c, pat, n, P, k->cnt, k->dsp);
  k->on = agv_sn(pat, n, r, P);
  const long per = ag_scalars_per(k->ot);
  k->all = ag_alloc(k->bt, k->len);
  k->one = ag_alloc(k->ot, k->on);
  if (scatter) {
    for (int q = 0; q < P; ++q)
      ag_fill(k->bt, (char *)k->all + k->dsp[q] * ag_extent(k->bt), agv_sn(pat, n, q, P) * per,
              id, q);
    k->exp = ag_alloc(k->ot, k->on);
    ag_fill(k->ot, k->exp, k->on * per, id, r);
    return;
  }
  ag_fill(k->ot, k->one, k->on * per, id, r);
  if (inplace && r == root)
    ag_fill(k->bt, (char *)k->all + k->dsp[r] * ag_extent(k->bt), k->on * per, id, r);
  k->exp = ag_alloc(k->bt, k->len);
  for (int q = 0; q < P; ++q)
    ag_fill(k->bt, (char *)k->exp + k->dsp[q] * ag_extent(k->bt), agv_sn(pat, n, q, P) * per,
            id, q);
}

/* ints of the result that differ from the expected ones (gatherv: the
 * root's buffer; scatterv: the own block, except at an in-place root) */
static long gv_wrong(const gv_call_t *k, int scatter, int r, int root, int inplace) {
  if (scatter) return inplace && r == root ? 0 : ag_diff(k->ot, k->one, k->exp, k->on);
  return r == root ? ag_diff(k->bt, k->all, k->exp, k->len) : 0;
}

static void gv_free(gv_call_t *k) {
  free(k->cnt), free(k->all), free(k->one), free(k->exp);
}

#endif
