/* The calls' pattern from a lateness summary; see late_pattern.h. */
#include "late_pattern.h"

#include <math.h>
#include <stddef.h>

int arcoll_late_quiet(const arcoll_late_summary_t *s, int root) {
  int found = 0;
  for (int g = 0; s && g < s->ngroups; ++g) {
    const arcoll_late_group_t *gr = &s->group[g];
    if (gr->root != root) continue;
    if (gr->n > 0 && !(gr->late[0].lateness < ARCOLL_LATE_QUIET_FRACTION * gr->t_level)) return 0;
    found = 1;
  }
  return found;
}

/* Every group of root `root` in s (at least one): the other ranks nearly a
 * stream (each back within ARCOLL_LATE_NEAR_STREAM_LEVELS tree levels, none
 * a level late) and the root outside for that long (root_outside) or not. */
static int others_near_stream(const arcoll_late_summary_t *s, int root, int root_outside) {
  int found = 0;
  for (int g = 0; s && g < s->ngroups; ++g) {
    const arcoll_late_group_t *gr = &s->group[g];
    if (gr->root != root) continue;
    const double most = ARCOLL_LATE_NEAR_STREAM_LEVELS * gr->t_level;
    if (!(gr->t_level > 0) || !(gr->gap < most) || (gr->root_gap >= most) != root_outside) return 0;
    if (gr->n > 0 && !(gr->late[0].lateness < gr->t_level)) return 0;
    found = 1;
  }
  return found;
}

int arcoll_late_near_stream(const arcoll_late_summary_t *s, int root) {
  return others_near_stream(s, root, 0);
}

/* Every group of root `root` in s (at least one): none a level late, and the root outside
 * ARCOLL_LATE_NEAR_STREAM_LEVELS tree levels longer than any other rank. */
static int root_outside_longest(const arcoll_late_summary_t *s, int root) {
  int found = 0;
  for (int g = 0; s && g < s->ngroups; ++g) {
    const arcoll_late_group_t *gr = &s->group[g];
    if (gr->root != root) continue;
    const double most = ARCOLL_LATE_NEAR_STREAM_LEVELS * gr->t_level;
    if (!(gr->t_level > 0) || !(gr->root_gap >= gr->gap + most)) return 0;
    if (gr->n > 0 && !(gr->late[0].lateness < gr->t_level)) return 0;
    found = 1;
  }
  return found;
}

int arcoll_late_root_paced(const arcoll_late_summary_t *s, int root) {
  return others_near_stream(s, root, 1) || root_outside_longest(s, root);
}

int arcoll_late_synchronised(const arcoll_late_summary_t *s, int root) {
  int found = 0;
  for (int g = 0; s && g < s->ngroups; ++g) {
    const arcoll_late_group_t *gr = &s->group[g];
    if (gr->root != root) continue;
    if (!(gr->t_level > 0) || !(gr->lead < ARCOLL_LATE_SYNC_LEAD_LEVELS * gr->t_level) ||
        !(gr->spread < ARCOLL_LATE_SYNC_SPREAD))
      return 0;
    found = 1;
  }
  return found;
}

int arcoll_late_wavefront(const arcoll_late_summary_t *s, int root) {
  int found = 0;
  for (int g = 0; s && g < s->ngroups; ++g) {
    const arcoll_late_group_t *gr = &s->group[g];
    if (gr->root != root) continue;
    if (!(gr->t_level > 0) || isnan(gr->lead) || isnan(gr->spread)) return 0;
    if (gr->n > 0 && !(gr->late[0].lateness < gr->t_level)) return 0;
    if (gr->lead < ARCOLL_LATE_SYNC_LEAD_LEVELS * gr->t_level && gr->spread < ARCOLL_LATE_SYNC_SPREAD)
      return 0; /* synchronised */
    found = 1;
  }
  return found;
}

int arcoll_late_streaming(const arcoll_late_summary_t *s, int root) {
  if (!arcoll_late_quiet(s, root)) return 0;
  for (int g = 0; g < s->ngroups; ++g)
    if (s->group[g].root == root &&
        !(s->group[g].gap < s->group[g].t_level && s->group[g].root_gap < s->group[g].t_level))
      return 0;
  return 1;
}
