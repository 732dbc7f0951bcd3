/* The calls' pattern from a lateness summary; see late_pattern.h. */
#include "late_pattern.h"

#include <math.h>
#include <stddef.h>

/* 1 if s has a group of root `root` (any site) and `test` holds for every one; 0 if not, or if
 * s is NULL or holds no group of that root (nothing known).  Every pattern below is one test. */
static int every_group(const arcoll_late_summary_t *s, int root,
                       int (*test)(const arcoll_late_group_t *)) {
  int found = 0;
  for (int g = 0; s && g < s->ngroups; ++g) {
    if (s->group[g].root != root) continue;
    if (!test(&s->group[g])) return 0;
    found = 1;
  }
  return found;
}

/* A listed rank caused a tree level's lateness, or more than the group's noise allows
 * (lateness.h arcoll_late_threshold: what makes a rank late). */
static int level_late(const arcoll_late_group_t *g) {
  return g->n > 0 && !(g->late[0].lateness < arcoll_late_threshold(g->t_level, g->noise));
}

/* ARCOLL_LATE_NEAR_STREAM_LEVELS tree levels' time (seconds). */
static double near_stream_most(const arcoll_late_group_t *g) {
  return ARCOLL_LATE_NEAR_STREAM_LEVELS * g->t_level;
}

static int quiet(const arcoll_late_group_t *g) {
  return g->n == 0 || g->late[0].lateness < ARCOLL_LATE_QUIET_FRACTION * g->t_level;
}

static int streaming(const arcoll_late_group_t *g) {
  return quiet(g) && g->gap < g->t_level && g->root_gap < g->t_level;
}

/* The other ranks nearly a stream (each back within ARCOLL_LATE_NEAR_STREAM_LEVELS tree levels,
 * none a level late), the root outside for that long (root_outside) or not. */
static int others_near_stream(const arcoll_late_group_t *g, int root_outside) {
  return g->t_level > 0 && g->gap < near_stream_most(g) &&
         (g->root_gap >= near_stream_most(g)) == root_outside && !level_late(g);
}

static int near_stream(const arcoll_late_group_t *g) { return others_near_stream(g, 0); }

static int near_stream_but_root(const arcoll_late_group_t *g) { return others_near_stream(g, 1); }

/* The root outside ARCOLL_LATE_NEAR_STREAM_LEVELS tree levels longer than any other rank, none
 * a level late. */
static int root_outside_longest(const arcoll_late_group_t *g) {
  return g->t_level > 0 && g->root_gap >= g->gap + near_stream_most(g) && !level_late(g);
}

static int synchronised(const arcoll_late_group_t *g) {
  return g->t_level > 0 && g->lead < ARCOLL_LATE_SYNC_LEAD_LEVELS * g->t_level &&
         g->spread < ARCOLL_LATE_SYNC_SPREAD;
}

static int wavefront(const arcoll_late_group_t *g) {
  return g->t_level > 0 && !isnan(g->lead) && !isnan(g->spread) && !level_late(g) &&
         !synchronised(g);
}

int arcoll_late_quiet(const arcoll_late_summary_t *s, int root) { return every_group(s, root, quiet); }

int arcoll_late_streaming(const arcoll_late_summary_t *s, int root) {
  return every_group(s, root, streaming);
}

int arcoll_late_near_stream(const arcoll_late_summary_t *s, int root) {
  return every_group(s, root, near_stream);
}

int arcoll_late_root_paced(const arcoll_late_summary_t *s, int root) {
  return every_group(s, root, near_stream_but_root) || every_group(s, root, root_outside_longest);
}

int arcoll_late_synchronised(const arcoll_late_summary_t *s, int root) {
  return every_group(s, root, synchronised);
}

int arcoll_late_wavefront(const arcoll_late_summary_t *s, int root) {
  return every_group(s, root, wavefront);
}
