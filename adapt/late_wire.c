/* The compact wire format of a rank's records; see late_wire.h. */
#include "late_wire.h"

#include <string.h>

#define PUT(x) (memcpy(p, &(x), sizeof(x)), p += sizeof(x))
#define GET(x) (memcpy(&(x), p, sizeof(x)), p += sizeof(x))

/* Same site, pos, root and t_level as the previous record. */
static int same_place(const arcoll_late_record_t *a, const arcoll_late_record_t *b) {
  return a->site == b->site && a->pos == b->pos && a->root == b->root && a->t_level == b->t_level;
}

int arcoll_late_msg_pack(const arcoll_late_msg_t *m, unsigned char *buf) {
  if (m->n < 0 || m->n > ARCOLL_LATE_SAMPLES) return -1;
  unsigned char *p = buf;
  const uint8_t n = (uint8_t)m->n;
  /* base: the first record that carries times (flags != 0) */
  double base = 0, prev_exit = 0;
  for (int j = 0; j < m->n; ++j)
    if (m->rec[j].flags) {
      base = prev_exit = m->rec[j].entry;
      break;
    }
  PUT(n);
  PUT(m->first_call);
  PUT(base);
  const arcoll_late_record_t *prev = NULL; /* the last record sent with times */
  for (int j = 0; j < m->n; ++j) {
    const arcoll_late_record_t *r = &m->rec[j];
    if (r->flags & ~0x3f) return -1;
    if (!r->flags) { /* a slot never filled: its flags alone */
      const uint8_t f = 0;
      PUT(f);
      continue;
    }
    const int same = prev && same_place(r, prev);
    const uint8_t f = (uint8_t)(r->flags | (same ? ARCOLL_LATE_WIRE_SAME : 0));
    const float delta = (float)(r->entry - prev_exit), dur = (float)(r->exit - r->entry),
                gap = (float)r->gap;
    PUT(f);
    PUT(delta);
    PUT(dur);
    PUT(gap);
    if (!same) {
      PUT(r->site);
      PUT(r->pos);
      PUT(r->root);
      PUT(r->t_level);
    }
    /* rebuilt as the receiver will, so the errors do not add up */
    const double entry = prev_exit + (double)delta;
    prev_exit = entry + (double)dur;
    prev = r;
  }
  return (int)(p - buf);
}

int arcoll_late_msg_unpack(const unsigned char *buf, int bytes, arcoll_late_msg_t *m) {
  const unsigned char *p = buf, *end = buf + (bytes > 0 ? bytes : 0);
  memset(m, 0, sizeof *m);
  uint8_t n;
  double base;
  if (bytes < 17) return -1;
  GET(n);
  GET(m->first_call);
  GET(base);
  if (n > ARCOLL_LATE_SAMPLES) goto bad;
  m->n = n;
  double prev_exit = base;
  const arcoll_late_record_t *prev = NULL;
  for (int j = 0; j < n; ++j) {
    arcoll_late_record_t *r = &m->rec[j];
    uint8_t f;
    if (p + 1 > end) goto bad;
    GET(f);
    if (!f) continue;
    const int same = (f & ARCOLL_LATE_WIRE_SAME) != 0;
    if ((same && !prev) || (f & 0x40) || p + 12 + (same ? 0 : 20) > end) goto bad;
    float delta, dur, gap;
    GET(delta);
    GET(dur);
    GET(gap);
    r->flags = f & 0x3f;
    r->entry = prev_exit + (double)delta;
    r->exit = r->entry + (double)dur;
    r->gap = (double)gap;
    prev_exit = r->exit;
    if (same) {
      r->site = prev->site, r->pos = prev->pos, r->root = prev->root, r->t_level = prev->t_level;
    } else {
      GET(r->site);
      GET(r->pos);
      GET(r->root);
      GET(r->t_level);
    }
    prev = r;
  }
  if (p == end) return 0;
bad:
  memset(m, 0, sizeof *m);
  return -1;
}
