/*
 * A run's choices into the tuning file (tuning.h, ARCOLL_TUNING_OUT): rank 0
 * of each communicator notes its auto-mode choices when the communicator's
 * state ends (MPI_Comm_free or MPI_Finalize); at MPI_Finalize world rank 0
 * gathers every rank's notes (one MPI_Gather + MPI_Gatherv of fixed-size
 * records), adds the choices of the file read at MPI_Init (ARCOLL_TUNING)
 * that this run did not make and its late sets of sites this run did not
 * track (arcoll_tuning_merge_late), and writes the file.  First choice of a key
 * wins: world rank 0's communicators first, then by world rank.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

static arcoll_tuning_t g_learned; /* this process's notes (privatized per rank in SMPI) */

/* The late sets of history h (rank 0's copy: identical on every rank),
 * oldest fold first, so that a rerun seeds the latest last (order.h); a
 * site with nobody late is noted with n = 0, so that the file read at
 * MPI_Init does not bring its old late set back. */
static void note_late(const arcoll_comm_state_t *st, arcoll_coll_t c, const arcoll_history_t *h,
                      int tree) {
  int done[ARCOLL_MAX_ENTRIES] = {0};
  for (int k = 0; k < h->nentries; ++k) {
    int pick = -1;
    for (int i = 0; i < h->nentries; ++i)
      if (!done[i] && (pick < 0 || h->entries[i].last < h->entries[pick].last)) pick = i;
    done[pick] = 1;
    const arcoll_site_entry_t *e = &h->entries[pick];
    arcoll_tuning_late_t x; /* n == 0: tracked, nobody late (arcoll_tuning_merge_late) */
    memset(&x, 0, sizeof x);
    x.coll = (int32_t)c, x.P = st->P, x.site = e->site, x.root = e->root, x.tree = tree;
    x.t_level = (float)e->t_level, x.noise = (float)e->noise;
    while (x.n < ARCOLL_LATE_LIST) { /* latest first (ties: smaller rank), at most the list */
      int best = -1;
      for (int r = 0; r < st->P; ++r) {
        int listed = 0;
        for (int j = 0; j < x.n && !listed; ++j) listed = x.rank[j] == r;
        if (e->late[r] && !listed && (best < 0 || e->ewma[r] > e->ewma[best])) best = r;
      }
      if (best < 0) break;
      x.rank[x.n] = best, x.caused[x.n++] = (float)(e->ewma[best] > 0 ? e->ewma[best] : 0.0);
    }
    if (arcoll_tuning_add_late(&g_learned, &x) < 0) return;
  }
}

void arcoll_tuning_note_state(const arcoll_comm_state_t *st) {
  if (!arcoll_g_cfg.tuning_out[0] || st->me != 0) return;
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c) {
    if (arcoll_g_cfg.mode[c] != ARCOLL_MODE_AUTO) continue;
    for (int k = 0; k < 2; ++k) {
      const arcoll_cached_t *tab = st->cache[c][k];
      for (int i = 0; tab && i < ARCOLL_NCLASS; ++i) {
        const arcoll_cached_t *e = &tab[i];
        if (!e->valid || e->ex || !e->algo || !e->source) continue; /* unfinished, or PMPI */
        const arcoll_tuning_entry_t x = {(arcoll_coll_t)c, st->P, k, i, arcoll_class_bytes(i),
                                         e->algo, e->segment_bytes, e->k, e->source};
        if (arcoll_tuning_add(&g_learned, &x) < 0) return; /* no memory: fewer notes */
      }
    }
  }
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
    if (st->late[c]) note_late(st, (arcoll_coll_t)c, &st->late[c]->hist, st->late[c]->trials.trees);
}

int arcoll_tuning_seed_tracker(const arcoll_comm_state_t *st, arcoll_coll_t c,
                               arcoll_late_tracker_t *t) {
  const arcoll_tuning_t *tu = &arcoll_g_cfg.tuning;
  for (int i = 0; i < tu->nlate; ++i) { /* in the file's order: the last one written, the latest */
    const arcoll_tuning_late_t *x = &tu->late[i];
    if (x->coll != (int32_t)c || x->P != st->P) continue;
    arcoll_late_group_t g;
    memset(&g, 0, sizeof g);
    g.site = x->site, g.root = x->root, g.n = x->n, g.t_level = x->t_level, g.noise = x->noise;
    for (int j = 0; j < x->n; ++j) g.late[j] = (arcoll_late_entry_t){x->rank[j], x->caused[j]};
    if (arcoll_late_seed(t, &g, x->tree) != MPI_SUCCESS) return MPI_ERR_NO_MEM;
    if (arcoll_g_cfg.debug && st->me == 0)
      fprintf(stderr, "arcoll: tuning: %s P=%d root %d: %d late rank(s) from the file, first %d\n",
              arcoll_coll_name(c), st->P, x->root, x->n, x->rank[0]);
  }
  return MPI_SUCCESS;
}

static void warn(const char *what) {
  fprintf(stderr, "arcoll: warning: ARCOLL_TUNING_OUT='%s' not written: %s\n",
          arcoll_g_cfg.tuning_out, what);
}

/* Gather n records of `size` bytes from every rank of MPI_COMM_WORLD on
 * rank 0 (one MPI_Gather of the counts + one MPI_Gatherv): rank 0 gets
 * the concatenation (by rank) and *total, or NULL on failure (*rc);
 * others NULL.  Collective. */
static void *gather_on_0(const void *mine, int n, int size, int me, int P, int *total, int *rc) {
  int *counts = NULL, *displs = NULL;
  char *all = NULL;
  *total = 0;
  if (me == 0) {
    counts = calloc((size_t)P, sizeof *counts);
    displs = calloc((size_t)P, sizeof *displs);
  }
  *rc = PMPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (me == 0 && *rc == MPI_SUCCESS && counts && displs) {
    for (int r = 0; r < P; ++r) {
      displs[r] = *total * size;
      *total += counts[r];
      counts[r] *= size;
    }
    all = calloc((size_t)(*total > 0 ? *total : 1), (size_t)size);
  }
  if (*rc == MPI_SUCCESS)
    *rc = PMPI_Gatherv(mine, n * size, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
  free(counts);
  free(displs);
  if (*rc != MPI_SUCCESS) free(all), all = NULL;
  return all;
}

void arcoll_tuning_write_at_finalize(void) {
  if (!arcoll_g_configured || !arcoll_g_cfg.tuning_out[0]) return;
  int me = 0, P = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &me);
  PMPI_Comm_size(MPI_COMM_WORLD, &P);
  int n = g_learned.n, total = 0, nlate = g_learned.nlate, total_late = 0, rc, rc_late;
  arcoll_tuning_wire_t *mine = calloc((size_t)(n > 0 ? n : 1), sizeof *mine);
  if (!mine) n = 0;
  for (int i = 0; i < n; ++i) arcoll_tuning_pack(&g_learned.e[i], &mine[i]);
  arcoll_tuning_wire_t *all = gather_on_0(mine, n, (int)sizeof *mine, me, P, &total, &rc);
  /* late sets: their struct is their wire form (fixed-size fields) */
  arcoll_tuning_late_t *late = gather_on_0(g_learned.late, nlate, (int)sizeof *late, me, P,
                                           &total_late, &rc_late);
  if (me == 0) {
    arcoll_tuning_t out = {0};
    char err[768];
    if (!all || !late) {
      warn(rc != MPI_SUCCESS || rc_late != MPI_SUCCESS ? "gathering the choices failed" : "no memory");
    } else {
      for (int i = 0; i < total; ++i) {
        arcoll_tuning_entry_t x;
        if (arcoll_tuning_unpack(&all[i], &x) == 0) arcoll_tuning_add(&out, &x);
      }
      const int learned = out.n;
      for (int i = 0; i < arcoll_g_cfg.tuning.n; ++i) arcoll_tuning_add(&out, &arcoll_g_cfg.tuning.e[i]);
      if (arcoll_tuning_merge_late(&out, late, total_late, &arcoll_g_cfg.tuning) != 0)
        warn("no memory for the late sets");
      else if (arcoll_tuning_save(arcoll_g_cfg.tuning_out, &out, err, (int)sizeof err) != 0) warn(err);
      else if (arcoll_g_cfg.debug)
        fprintf(stderr, "arcoll: tuning: wrote %d choices (%d of this run) and %d late sets to %s\n",
                out.n, learned, out.nlate, arcoll_g_cfg.tuning_out);
    }
    arcoll_tuning_free(&out);
  }
  free(all);
  free(late);
  free(mine);
  arcoll_tuning_free(&g_learned);
}
