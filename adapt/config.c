/* Environment configuration; see config.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_ll(const char *s, long long lo, long long hi, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end != '\0' || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

int arcoll_config_parse(arcoll_config_t *cfg, char *err, int errlen) {
  cfg->bcast_algorithm = ARCOLL_BCAST_ADAPTIVE;
  cfg->segment_bytes = 65536;
  cfg->exchange_interval = 1;
  cfg->ewma_alpha = 0.5;
  cfg->debug = 0;
  const char *s;
  long long v;
  if ((s = getenv("ARCOLL_BCAST_ALGORITHM")) && *s) {
    if (!strcmp(s, "adaptive")) cfg->bcast_algorithm = ARCOLL_BCAST_ADAPTIVE;
    else if (!strcmp(s, "binomial")) cfg->bcast_algorithm = ARCOLL_BCAST_BINOMIAL;
    else if (!strcmp(s, "pmpi")) cfg->bcast_algorithm = ARCOLL_BCAST_PMPI;
    else {
      snprintf(err, (size_t)errlen,
               "ARCOLL_BCAST_ALGORITHM='%s' is not valid; use one of: adaptive "
               "(default, late ranks become leaves), binomial (same tree, no "
               "reordering), pmpi (pass through to the MPI library)", s);
      return -1;
    }
  }
  if ((s = getenv("ARCOLL_BCAST_SEGMENT")) && *s) {
    if (parse_ll(s, 0, 1LL << 40, &v)) {
      snprintf(err, (size_t)errlen,
               "ARCOLL_BCAST_SEGMENT='%s' is not valid; give the segment size in "
               "bytes as a decimal integer >= 0 (0 = no segmentation), e.g. 65536", s);
      return -1;
    }
    cfg->segment_bytes = v;
  }
  if ((s = getenv("ARCOLL_BCAST_EXCHANGE_INTERVAL")) && *s) {
    if (parse_ll(s, 1, 64, &v)) {
      snprintf(err, (size_t)errlen,
               "ARCOLL_BCAST_EXCHANGE_INTERVAL='%s' is not valid; give the number of "
               "MPI_Bcast calls per lateness exchange, an integer in 1..64", s);
      return -1;
    }
    cfg->exchange_interval = (int)v;
  }
  if ((s = getenv("ARCOLL_BCAST_EWMA_ALPHA")) && *s) {
    char *end;
    double a = strtod(s, &end);
    if (end == s || *end != '\0' || !(a > 0.0 && a <= 1.0)) {
      snprintf(err, (size_t)errlen,
               "ARCOLL_BCAST_EWMA_ALPHA='%s' is not valid; give a number in (0, 1] "
               "(weight of the newest call in the moving average), e.g. 0.5", s);
      return -1;
    }
    cfg->ewma_alpha = a;
  }
  if ((s = getenv("ARCOLL_DEBUG")) && *s) {
    if (!strcmp(s, "0")) cfg->debug = 0;
    else if (!strcmp(s, "1")) cfg->debug = 1;
    else {
      snprintf(err, (size_t)errlen, "ARCOLL_DEBUG='%s' is not valid; use 0 or 1", s);
      return -1;
    }
  }
  return 0;
}
