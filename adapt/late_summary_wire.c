/*
 * The lateness summary's wire format (lateness.h arcoll_late_pack /
 * arcoll_late_unpack): what the coordinator of an exchange sends every rank.
 */
#include <string.h>

#include "late_trees.h"
#include "lateness.h"

/* Wire format: first_call, nsampled, ngroups, trees, unreported, seq_site[nsampled],
 * seq_root[nsampled], then per group site, root, n, t_level, noise, gap, root_gap, lead,
 * spread and its n entries (native byte order: the ranks of one job share it). */
#define PUT(x) (memcpy(p, &(x), sizeof(x)), p += sizeof(x))
#define GET(x) (memcpy(&(x), p, sizeof(x)), p += sizeof(x))

int arcoll_late_pack(const arcoll_late_summary_t *s, unsigned char *buf) {
  unsigned char *p = buf;
  PUT(s->first_call);
  PUT(s->nsampled);
  PUT(s->ngroups);
  PUT(s->trees);
  PUT(s->unreported);
  for (int j = 0; j < s->nsampled; ++j) PUT(s->seq_site[j]);
  for (int j = 0; j < s->nsampled; ++j) PUT(s->seq_root[j]);
  for (int g = 0; g < s->ngroups; ++g) {
    const arcoll_late_group_t *G = &s->group[g];
    PUT(G->site);
    PUT(G->root);
    PUT(G->n);
    PUT(G->t_level);
    PUT(G->noise);
    PUT(G->gap);
    PUT(G->root_gap);
    PUT(G->lead);
    PUT(G->spread);
    memcpy(p, G->late, sizeof(G->late[0]) * (size_t)G->n);
    p += sizeof(G->late[0]) * (size_t)G->n;
  }
  return (int)(p - buf);
}

int arcoll_late_unpack(const unsigned char *buf, int bytes, arcoll_late_summary_t *s) {
  const unsigned char *p = buf, *end = buf + bytes;
  memset(s, 0, sizeof *s);
  if (bytes < 24) return -1;
  GET(s->first_call);
  GET(s->nsampled);
  GET(s->ngroups);
  GET(s->trees);
  GET(s->unreported);
  if (s->unreported < 0 || s->trees < ARCOLL_TREES_UNDECIDED || s->trees > ARCOLL_TREES_VOID ||
      s->nsampled < 0 ||
      s->nsampled > ARCOLL_LATE_SAMPLES || s->ngroups < 0 ||
      s->ngroups > ARCOLL_LATE_SAMPLES || p + 12 * (size_t)s->nsampled > end)
    return -1;
  for (int j = 0; j < s->nsampled; ++j) GET(s->seq_site[j]);
  for (int j = 0; j < s->nsampled; ++j) GET(s->seq_root[j]);
  for (int j = s->nsampled; j < ARCOLL_LATE_SAMPLES; ++j) s->seq_root[j] = -1;
  for (int g = 0; g < s->ngroups; ++g) {
    arcoll_late_group_t *G = &s->group[g];
    if (p + 40 > end) return -1;
    GET(G->site);
    GET(G->root);
    GET(G->n);
    GET(G->t_level);
    GET(G->noise);
    GET(G->gap);
    GET(G->root_gap);
    GET(G->lead);
    GET(G->spread);
    if (G->n < 0 || G->n > ARCOLL_LATE_LIST || p + sizeof(G->late[0]) * (size_t)G->n > end) return -1;
    memcpy(G->late, p, sizeof(G->late[0]) * (size_t)G->n);
    p += sizeof(G->late[0]) * (size_t)G->n;
  }
  return p == end ? 0 : -1;
}
