/* Runs made while the online selection waits; see online_noted.h. */
#include "online_noted.h"
#include "online_slots.h"

#include <math.h>
#include <string.h>

int arcoll_explorer_note_run(arcoll_explorer_t *e, const arcoll_choice_t *c, double seconds,
                             double period, int failed) {
  if (e->finished || e->round != 0 || e->done > 0 || e->runs > 0 || e->pending || e->confirming ||
      e->check_at || e->extra_at || e->n < 2 || !c->algo)
    return 0;
  if (e->nnoted > 0 && !arcoll_choice_same(&e->noted, c)) e->nnoted = 0, e->preset = 0;
  e->noted = *c;
  const int bad = failed || !(seconds >= 0) || !(period >= 0);
  if (e->nnoted == e->trials) { /* keep the latest `trials` */
    memmove(e->noted_t, e->noted_t + 1, sizeof(double) * (size_t)(e->trials - 1));
    memmove(e->noted_p, e->noted_p + 1, sizeof(double) * (size_t)(e->trials - 1));
    --e->nnoted;
  }
  e->noted_t[e->nnoted] = bad ? INFINITY : seconds;
  e->noted_p[e->nnoted++] = bad ? INFINITY : period;
  if (e->nnoted < e->trials) return 0;
  if (!e->preset) { /* the noted algorithm's candidate to the end */
    int i = 1;
    while (i < e->n && e->cand[i].algo != c->algo) ++i;
    if (i == e->n) return 0;
    arcoll_explorer_to_last(e, i);
    arcoll_choice_t *x = &e->cand[e->n - 1];
    x->segment_bytes = c->segment_bytes;
    x->k = c->k;
    x->predicted_s = arcoll_model_predict(e->model, e->coll, x->algo, e->P, e->bytes,
                                          x->segment_bytes, x->k);
    e->preset = 1;
  }
  const int at = (e->n - 1) * e->trials;
  memcpy(&e->t[at], e->noted_t, sizeof(double) * (size_t)e->trials);
  memcpy(&e->p[at], e->noted_p, sizeof(double) * (size_t)e->trials);
  return 1;
}
