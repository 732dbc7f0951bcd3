/*
 * libarcoll: MPI_Bcast and MPI_Bcast_c (MPI >= 4).  Dispatch (dispatch.h) to
 * the bcast algorithms of collectives/ (bcast.h).  Modes `adaptive` and
 * `auto` run over a rank order in which ranks seen late become leaves
 * (seed 001_6a837e3d9ad6c429.txt technique 1, per call site = open problem 2);
 * `auto` hands that order to the model-selected algorithm (every bcast
 * algorithm honours sched.order).  Design and costs: adapt/DISPATCH.md, adapt/LATENESS.md.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arcoll.h"
#include "bcast.h"
#include "compress_decide.h"
#include "dispatch.h"
#include "late_order.h"
#include "online_pacing.h"
#include "site.h"

#define TAG ARCOLL_TAG(ARCOLL_COLL_BCAST)

ARCOLL_EXPORT int arcoll_bcast_last_order(MPI_Comm comm, int *order, int len,
                                          long long *ncalls, int *adaptive) {
  int flag = 0;
  if (comm == MPI_COMM_NULL || !arcoll_g_configured) return -1;
  if (PMPI_Comm_test_inter(comm, &flag) != MPI_SUCCESS || flag) return -1;
  int size = 0;
  if (PMPI_Comm_size(comm, &size) != MPI_SUCCESS || size <= 1) return -1;
  /* only look the state up: arcoll_state() would create it (collectively) */
  arcoll_comm_state_t *st = arcoll_state_peek(comm);
  if (!st || !st->bcast_calls_recorded) return -1;
  for (int i = 0; i < len && i < st->P; ++i)
    order[i] = st->last_order ? st->last_order[i] : (st->last_root + i) % st->P;
  if (ncalls) *ncalls = (long long)st->ncalls;
  if (adaptive) *adaptive = st->last_adaptive;
  return st->P;
}

ARCOLL_EXPORT const char *arcoll_bcast_last_codec(double *ratio, int *decided_here) {
  arcoll_compress_decision_t d;
  if (arcoll_compress_last(&d) != 0) return NULL;
  if (ratio) *ratio = d.ratio;
  if (decided_here) *decided_here = d.root;
  return arcoll_codec_name(d.codec);
}

/* ---- the broadcast ------------------------------------------------------- */

static void debug_print(const arcoll_comm_state_t *st, int root, uint64_t call, int adaptive,
                        const arcoll_cached_t *ch, int run, const int *order) {
  if (!arcoll_g_cfg.debug || st->me != root) return;
  int wrank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  char line[4096];
  char runs[32] = "";
  if (run > 1) snprintf(runs, sizeof runs, " (runs of %d)", run); /* late_chain.h */
  int n = snprintf(line, sizeof line, "arcoll: bcast call %llu root %d (world rank %d) %s/%lld%s %s order:",
                   (unsigned long long)call, root, wrank, ch->algo->name, (long long)ch->segment_bytes, runs,
                   adaptive ? "adaptive" : "binomial");
  for (int i = 0; i < st->P && n < (int)sizeof line - 16; ++i)
    n += snprintf(line + n, sizeof line - (size_t)n, " %d", order ? order[i] : (root + i) % st->P);
  fprintf(stderr, "%s\n", line);
}

/* Returns 1 if the arguments are ones arcoll handles; 0: PMPI (invalid
 * arguments: MPICH reports its own error; intercommunicators; one-rank
 * communicators; mode pmpi). */
static int handles(void *buf, MPI_Aint count, MPI_Datatype dt, int root, MPI_Comm comm,
                   int *P, int *tsize) {
  if (!arcoll_intra(ARCOLL_COLL_BCAST, comm, P)) return 0;
  if (count < 0 || root < 0 || root >= *P || !arcoll_type_ok(dt, tsize)) return 0;
  if (!arcoll_buf_ok(buf, count, *tsize, dt)) return 0; /* MPI_ERR_BUFFER from MPICH */
  return 1;
}

/* Move the bytes with the chosen algorithm: contiguous data as MPI_BYTE from
 * buf + true_lb, anything else packed at the root and unpacked elsewhere, so
 * segment boundaries agree whatever (count, datatype) each rank passed. */
static int move_bytes(const arcoll_cached_t *ch, void *buf, MPI_Aint count, MPI_Datatype dt,
                      int tsize, MPI_Aint bytes, int root, arcoll_comm_state_t *st,
                      const int *order, int k, int run) {
  const arcoll_bcast_fn fn = (arcoll_bcast_fn)ch->algo->fn;
  arcoll_sched_t s = {order, ch->segment_bytes, k > 0 ? k : ch->k, TAG};
  s.run = run;
  MPI_Aint tlb;
  int rc;
  if (buf != MPI_BOTTOM && arcoll_type_contiguous(dt, &tlb))
    return fn((char *)buf + tlb, bytes, MPI_BYTE, root, st->priv, &s);
  char *tmp = malloc((size_t)bytes);
  if (!tmp) return MPI_ERR_NO_MEM;
#if MPI_VERSION >= 4
  MPI_Count pos = 0;
#endif
  rc = MPI_SUCCESS;
  if (st->me == root) {
#if MPI_VERSION >= 4
    rc = PMPI_Pack_c(buf, count, dt, tmp, bytes, &pos, st->priv);
#else
    int ipos = 0;
    rc = PMPI_Pack(buf, (int)count, dt, tmp, (int)bytes, &ipos, st->priv);
    MPI_Aint pos = ipos;
#endif
    if (rc == MPI_SUCCESS && pos != bytes) rc = MPI_ERR_INTERN; /* heterogeneous packing */
  }
  if (rc == MPI_SUCCESS) rc = fn(tmp, bytes, MPI_BYTE, root, st->priv, &s);
  if (rc == MPI_SUCCESS && st->me != root) {
#if MPI_VERSION >= 4
    pos = 0;
    rc = PMPI_Unpack_c(tmp, bytes, &pos, buf, count, dt, st->priv);
#else
    int ipos = 0;
    rc = PMPI_Unpack(tmp, (int)bytes, &ipos, buf, (int)count, dt, st->priv);
#endif
  }
  free(tmp);
  return rc;
}

static int pmpi_bcast(void *buf, MPI_Aint count, MPI_Datatype dt, int root, MPI_Comm comm) {
  arcoll_note(ARCOLL_COLL_BCAST, NULL);
#if MPI_VERSION >= 4
  return PMPI_Bcast_c(buf, (MPI_Count)count, dt, root, comm);
#else
  return PMPI_Bcast(buf, (int)count, dt, root, comm); /* only reached from MPI_Bcast */
#endif
}

static int bcast_impl(void *buf, MPI_Aint count, MPI_Datatype dt, int root, MPI_Comm comm,
                      int P, int tsize, const void *ret_addr) {
  const MPI_Aint bytes = count * (MPI_Aint)tsize; /* identical on all ranks */
  int rc;
  if (bytes == 0) { /* nothing moves anywhere; not counted as a call */
    arcoll_note(ARCOLL_COLL_BCAST, &arcoll_none_desc);
    return MPI_SUCCESS;
  }
  arcoll_comm_state_t *st = arcoll_state(comm, &rc);
  if (!st) return arcoll_finish(comm, rc);
  const arcoll_cached_t *ch = arcoll_choose(st, ARCOLL_COLL_BCAST, bytes, 1);
  /* bytes > INT_MAX: only the binomial tree is known to move them (bcast_tree.h) */
  if (!ch || !ch->algo || (bytes > INT_MAX && strcmp(ch->algo->name, "binomial") != 0))
    return pmpi_bcast(buf, count, dt, root, comm);
  arcoll_note(ARCOLL_COLL_BCAST, ch->algo);
  const uint64_t ncall = st->ncalls++;
  st->bcast_calls_recorded = 1;
  st->last_root = root;
  /* late ranks become leaves (late_order.c); otherwise the classic order */
  arcoll_late_call_t lc;
  if ((rc = arcoll_late_begin(st, ARCOLL_COLL_BCAST, ch, root, 1, bytes, &lc)) != MPI_SUCCESS)
    return arcoll_finish(comm, rc);
  const arcoll_cached_t *chosen = ch;
  if (chosen->ex) arcoll_explorer_note_root(chosen->ex, root); /* a moving root: online_pacing.h */
  ch = arcoll_late_algorithm(st, ARCOLL_COLL_BCAST, bytes, ch, &lc);
  st->last_order = lc.order;
  st->last_adaptive = lc.order != NULL;
  debug_print(st, root, ncall, lc.order != NULL, ch, lc.run, lc.order);
  const double t0 = arcoll_online_t0(chosen);
  rc = move_bytes(ch, buf, count, dt, tsize, bytes, root, st, lc.order, lc.k, lc.run);
  rc = arcoll_late_done(st, chosen, ch, t0, rc);
  if (arcoll_g_cfg.debug && st->me == root && !strcmp(ch->algo->name, "compressed")) {
    arcoll_compress_decision_t d;
    if (arcoll_compress_last(&d) == 0)
      fprintf(stderr, "arcoll: bcast compressed %lld B: %s, segments of %lld B (sampled ratio "
              "%.2f, predicted raw %.3g s, compressed %.3g s)\n", (long long)d.bytes,
              arcoll_codec_name(d.codec), (long long)d.seg, d.ratio, d.t_raw_s, d.t_codec_s);
  }
  if (rc == MPI_SUCCESS) rc = arcoll_late_end(st, ch, root, ret_addr, &lc);
  if (rc == MPI_SUCCESS) arcoll_late_fit_exploration(st, chosen, &lc);
  return arcoll_finish(comm, rc);
}

ARCOLL_EXPORT int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm) {
  int P, tsize;
  if (!handles(buf, count, dt, root, comm, &P, &tsize)) {
    arcoll_note(ARCOLL_COLL_BCAST, NULL);
    return PMPI_Bcast(buf, count, dt, root, comm);
  }
  return bcast_impl(buf, count, dt, root, comm, P, tsize, __builtin_return_address(0));
}

#if MPI_VERSION >= 4
ARCOLL_EXPORT int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root,
                              MPI_Comm comm) {
  int P, tsize;
  if (!handles(buf, (MPI_Aint)count, dt, root, comm, &P, &tsize)) {
    arcoll_note(ARCOLL_COLL_BCAST, NULL);
    return PMPI_Bcast_c(buf, count, dt, root, comm);
  }
  return bcast_impl(buf, (MPI_Aint)count, dt, root, comm, P, tsize, __builtin_return_address(0));
}
#endif
