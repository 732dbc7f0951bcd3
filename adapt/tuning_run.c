/*
 * A run's choices into the tuning file (tuning.h, ARCOLL_TUNING_OUT): rank 0
 * of each communicator notes its auto-mode choices when the communicator's
 * state ends (MPI_Comm_free or MPI_Finalize); at MPI_Finalize world rank 0
 * gathers every rank's notes (one MPI_Gather + MPI_Gatherv of fixed-size
 * records), adds the choices of the file read at MPI_Init (ARCOLL_TUNING)
 * that this run did not make, and writes the file.  First choice of a key
 * wins: world rank 0's communicators first, then by world rank.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dispatch.h"

static arcoll_tuning_t g_learned; /* this process's notes (privatized per rank in SMPI) */

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
}

static void warn(const char *what) {
  fprintf(stderr, "arcoll: warning: ARCOLL_TUNING_OUT='%s' not written: %s\n",
          arcoll_g_cfg.tuning_out, what);
}

void arcoll_tuning_write_at_finalize(void) {
  if (!arcoll_g_configured || !arcoll_g_cfg.tuning_out[0]) return;
  int me = 0, P = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &me);
  PMPI_Comm_size(MPI_COMM_WORLD, &P);
  const int w = (int)sizeof(arcoll_tuning_wire_t);
  int n = g_learned.n, *counts = NULL, *displs = NULL, total = 0;
  arcoll_tuning_wire_t *mine = calloc((size_t)(n > 0 ? n : 1), sizeof *mine), *all = NULL;
  if (!mine) n = 0;
  for (int i = 0; i < n; ++i) arcoll_tuning_pack(&g_learned.e[i], &mine[i]);
  if (me == 0) {
    counts = calloc((size_t)P, sizeof *counts);
    displs = calloc((size_t)P, sizeof *displs);
  }
  int rc = PMPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (me == 0 && rc == MPI_SUCCESS && counts && displs) {
    for (int r = 0; r < P; ++r) {
      displs[r] = total * w;
      total += counts[r];
      counts[r] *= w;
    }
    all = calloc((size_t)(total > 0 ? total : 1), sizeof *all);
  }
  if (rc == MPI_SUCCESS)
    rc = PMPI_Gatherv(mine, n * w, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (me == 0) {
    arcoll_tuning_t out = {0};
    char err[768];
    if (rc != MPI_SUCCESS || !all) {
      warn(rc != MPI_SUCCESS ? "gathering the choices failed" : "no memory");
    } else {
      for (int i = 0; i < total; ++i) {
        arcoll_tuning_entry_t x;
        if (arcoll_tuning_unpack(&all[i], &x) == 0) arcoll_tuning_add(&out, &x);
      }
      const int learned = out.n;
      for (int i = 0; i < arcoll_g_cfg.tuning.n; ++i) arcoll_tuning_add(&out, &arcoll_g_cfg.tuning.e[i]);
      if (arcoll_tuning_save(arcoll_g_cfg.tuning_out, &out, err, (int)sizeof err) != 0) warn(err);
      else if (arcoll_g_cfg.debug)
        fprintf(stderr, "arcoll: tuning: wrote %d choices (%d of this run) to %s\n", out.n,
                learned, arcoll_g_cfg.tuning_out);
    }
    arcoll_tuning_free(&out);
  }
  free(all);
  free(counts);
  free(displs);
  free(mine);
  arcoll_tuning_free(&g_learned);
}
