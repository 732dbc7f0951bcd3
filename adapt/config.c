/* Environment configuration; see config.h. */
#include "config.h"
#include "lateness.h"

#define ARCOLL_STR_(x) #x
#define ARCOLL_STR(x) ARCOLL_STR_(x)

#include "coll.h"
#include "compress_decide.h"
#include "native.h"
#include "online.h"
#include "online_confirm.h"
#include "online_pacing.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Integer variable `name` in lo..hi into *out, left unchanged (the default)
 * when unset or empty.  On a bad value writes "NAME='v' is not valid; give
 * WHAT, an integer in lo..hi (NOTEdefault D)" (D = *out) into err and
 * returns -1. */
static int env_int(const char *name, long long lo, long long hi, const char *what,
                   const char *note, int *out, char *err, int errlen) {
  const char *s = getenv(name);
  long long v;
  if (!s || !*s) return 0;
  if (arcoll_parse_integer(s, lo, hi, &v)) {
    char def[32] = "default: as described"; /* *out < 0: no single default, `what` says */
    if (*out >= 0) snprintf(def, sizeof def, "default %d", *out);
    snprintf(err, (size_t)errlen, "%s='%s' is not valid; give %s, an integer in %lld..%lld (%s%s)",
             name, s, what, lo, hi, note, def);
    return -1;
  }
  *out = (int)v;
  return 0;
}

/* on|1 / off|0 variable `name` into *out (1 / 0), left unchanged when unset
 * or empty.  On a bad value writes "NAME='v' is not valid; use on (ON) or
 * off (OFF)SUFFIX" into err and returns -1. */
static int env_on_off(const char *name, const char *on, const char *off, const char *suffix,
                      int *out, char *err, int errlen) {
  const char *s = getenv(name);
  if (!s || !*s) return 0;
  if (!strcmp(s, "on") || !strcmp(s, "1")) *out = 1;
  else if (!strcmp(s, "off") || !strcmp(s, "0")) *out = 0;
  else {
    snprintf(err, (size_t)errlen, "%s='%s' is not valid; use on (%s) or off (%s)%s", name, s, on, off,
             suffix);
    return -1;
  }
  return 0;
}

/* ARCOLL_<COLL>_ALGORITHM of collective c. */
static int parse_algorithm(arcoll_config_t *cfg, arcoll_coll_t c, char *err, int errlen) {
  char var[64], upper[32];
  const char *name = arcoll_coll_name(c);
  size_t i = 0;
  for (; name[i] && i + 1 < sizeof upper; ++i) upper[i] = (char)toupper((unsigned char)name[i]);
  upper[i] = '\0';
  snprintf(var, sizeof var, "ARCOLL_%s_ALGORITHM", upper);
  cfg->mode[c] = ARCOLL_MODE_AUTO;
  cfg->forced[c] = NULL;
  const char *s = getenv(var);
  if (!s || !*s || !strcmp(s, "auto")) return 0;
  if (!strcmp(s, "pmpi")) {
    cfg->mode[c] = ARCOLL_MODE_PMPI;
    return 0;
  }
  if (c == ARCOLL_COLL_BCAST && !strcmp(s, "adaptive")) {
    cfg->mode[c] = ARCOLL_MODE_ADAPTIVE;
    return 0;
  }
  const arcoll_algo_desc_t *a = arcoll_algorithm_find(c, s);
  if (a) {
    cfg->mode[c] = ARCOLL_MODE_FORCED;
    cfg->forced[c] = a;
    return 0;
  }
  int n = 0;
  const arcoll_algo_desc_t *t = arcoll_algorithm_table(c, &n);
  int len = snprintf(err, (size_t)errlen, "%s='%s' is not valid; use one of: %s", var, s,
                     c == ARCOLL_COLL_BCAST
                         ? "adaptive (binomial tree, late ranks become leaves), auto (default, "
                           "model-selected algorithm over the adaptive order), pmpi (pass "
                           "through to the MPI library)"
                         : "auto (default, model-selected), pmpi (pass through to the MPI "
                           "library)");
  for (int j = 0; j < n && len > 0 && len < errlen; ++j)
    len += snprintf(err + len, (size_t)(errlen - len), ", %s", t[j].name);
  return -1;
}

/* ARCOLL_TUNING (read the file) and ARCOLL_TUNING_OUT (its directory must
 * be writable now, so that the run does not learn for nothing). */
static int parse_tuning(arcoll_config_t *cfg, char *err, int errlen) {
  const char *s;
  if ((s = getenv("ARCOLL_TUNING")) && *s) {
    char terr[512];
    if (arcoll_tuning_load(s, &cfg->tuning, terr, (int)sizeof terr) != 0) {
      snprintf(err, (size_t)errlen,
               "ARCOLL_TUNING='%s' cannot be used: %s (give a file written by a run with "
               "ARCOLL_TUNING_OUT=FILE, or unset ARCOLL_TUNING)", s, terr);
      return -1;
    }
  }
  if ((s = getenv("ARCOLL_TUNING_OUT")) && *s) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", s);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    struct stat sb;
    if (strlen(s) >= sizeof cfg->tuning_out || stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) ||
        access(dir, W_OK) != 0) {
      snprintf(err, (size_t)errlen,
               "ARCOLL_TUNING_OUT='%s' cannot be written: directory '%s' %s (name a file in an "
               "existing writable directory, or unset ARCOLL_TUNING_OUT)", s, dir,
               strlen(s) >= sizeof cfg->tuning_out ? "(path too long)"
               : stat(dir, &sb) != 0              ? "does not exist"
               : !S_ISDIR(sb.st_mode)             ? "is not a directory"
                                                  : "is not writable");
      return -1;
    }
    snprintf(cfg->tuning_out, sizeof cfg->tuning_out, "%s", s);
  }
  return 0;
}

int arcoll_config_parse(arcoll_config_t *cfg, char *err, int errlen) {
  memset(cfg, 0, sizeof *cfg);
  cfg->segment_bytes = 65536;
  cfg->segment_set = 0;
  cfg->exchange_interval = ARCOLL_LATE_MIN_INTERVAL;
  cfg->late_order = -1;
  cfg->reduce_detach = -1;
  cfg->late_chain = ARCOLL_LATE_CHAIN_RUNS;
  cfg->ewma_alpha = 0.5;
  cfg->debug = 0;
  cfg->nonblocking = 1;
  cfg->online_candidates = ARCOLL_ONLINE_DEFAULT_CANDIDATES;
  cfg->online_trials = 2;
  cfg->online_warmup = -1; /* per collective: arcoll_explorer_default_warmup() */
  cfg->online_refine = ARCOLL_ONLINE_DEFAULT_REFINE;
  cfg->online_skew = (int)ARCOLL_ONLINE_IMBALANCE;
  cfg->online_confirm = ARCOLL_ONLINE_CONFIRM_BLOCK;
  cfg->online_lag = -1;
  cfg->online_native = ARCOLL_ONLINE_NATIVE_DEFAULT_BYTES;
  const char *s;
  long long v;
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
    if (parse_algorithm(cfg, (arcoll_coll_t)c, err, errlen)) return -1;
  if ((s = getenv("ARCOLL_MODEL")) && *s) {
    char merr[512];
    if (arcoll_model_load(s, &cfg->model, merr, (int)sizeof merr) != 0) {
      snprintf(err, (size_t)errlen,
               "ARCOLL_MODEL='%s' cannot be used: %s (fix the file, e.g. write it with "
               "`arcoll calibrate`, or unset ARCOLL_MODEL for the built-in model)", s, merr);
      return -1;
    }
  } else {
    arcoll_model_default(&cfg->model);
  }
  if ((s = getenv("ARCOLL_BCAST_SEGMENT")) && *s) {
    if (arcoll_parse_integer(s, 0, 1LL << 40, &v)) {
      snprintf(err, (size_t)errlen,
               "ARCOLL_BCAST_SEGMENT='%s' is not valid; give the segment size in "
               "bytes as a decimal integer >= 0 (0 = no segmentation), e.g. 65536", s);
      return -1;
    }
    cfg->segment_bytes = v;
    cfg->segment_set = 1;
  }
  if (env_int("ARCOLL_BCAST_EXCHANGE_INTERVAL", ARCOLL_LATE_MIN_INTERVAL, ARCOLL_LATE_MAX_INTERVAL,
              "the smallest number of calls between two lateness exchanges (the interval "
              "doubles up to " ARCOLL_STR(ARCOLL_LATE_MAX_INTERVAL) " while the late ranks stay the same)",
              "", &cfg->exchange_interval, err, errlen))
    return -1;
  if (env_on_off("ARCOLL_LATE_ORDER", "late ranks become leaves of rooted collectives",
                 "plain order, no lateness tracking",
                 "; unset: bcast of 8 KiB and more, and ARCOLL_BCAST_ALGORITHM=adaptive",
                 &cfg->late_order, err, errlen))
    return -1;
  if (env_on_off("ARCOLL_LATE_DETACH", "the latest ranks of a reduce's late set send to the root directly",
                 "late ranks keep their tree parent", "; the default is off (adapt/LATENESS.md \"Lateness\")",
                 &cfg->late_detach, err, errlen))
    return -1;
  const char *lc = getenv("ARCOLL_LATE_CHAIN");
  if (lc && !strcmp(lc, "runs")) {
    cfg->late_chain = ARCOLL_LATE_CHAIN_RUNS;
  } else if (env_on_off("ARCOLL_LATE_CHAIN",
                        "a streaming bcast runs the chain with late leaves once its late set held",
                        "the tolerant tree",
                        " or runs (default: the chain of runs where the tolerant tree trial chose "
                        "binomial; adapt/LATENESS.md \"Lateness\")",
                        &cfg->late_chain, err, errlen)) {
    return -1;
  }
  if (env_on_off("ARCOLL_REDUCE_DETACH",
                 "a small reduce's late ranks are detached by their tree parent",
                 "the plain tree", "; the default is on (adapt/LATENESS.md \"Lateness\")",
                 &cfg->reduce_detach, err, errlen))
    return -1;
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
  if (env_int("ARCOLL_ONLINE_CANDIDATES", 1, ARCOLL_ONLINE_MAX_CANDIDATES,
              "how many of the model's best algorithms are measured on the first calls of "
              "each message size", "1 = trust the model alone; ", &cfg->online_candidates, err,
              errlen) ||
      env_int("ARCOLL_ONLINE_TRIALS", 1, ARCOLL_ONLINE_MAX_TRIALS,
              "how many times each candidate is run before the choice", "",
              &cfg->online_trials, err, errlen) ||
      env_int("ARCOLL_ONLINE_WARMUP", 0, 8,
              "how many calls of the model's best run unmeasured before the candidates are "
              "measured (first calls pay connection set-up; collectives/online_pacing.h; unset: 1, "
              "3 for gather from 8 KiB)", "0 = none; ",
              &cfg->online_warmup, err, errlen) ||
      env_int("ARCOLL_ONLINE_NATIVE", 0, INT_MAX,
              "the message size in bytes below which the MPI library's own bcast, reduce and "
              "allreduce are measured beside arcoll's algorithms (collectives/native.h)",
              "0 = never; ", &cfg->online_native, err, errlen) ||
      env_int("ARCOLL_ONLINE_REFINE", 0, ARCOLL_ONLINE_MAX_REFINE,
              "how many segment-refinement rounds follow the candidates (the kept algorithm "
              "at half / double its segment size)", "0 = none; ", &cfg->online_refine, err,
              errlen) ||
      env_int("ARCOLL_ONLINE_SKEW", 0, 1000,
              "the factor over binomial's model time beyond which arrival skew ends a reduce "
              "exploration below 8 KiB with binomial (collectives/online.h)", "0 = never; ",
              &cfg->online_skew, err, errlen) ||
      env_int("ARCOLL_ONLINE_CONFIRM", 0, ARCOLL_ONLINE_MAX_CONFIRM_BLOCK,
              "the length in calls of the two blocks that confirm the online choice in the "
              "steady state against the other algorithm with the shortest period (collectives/"
              "online_confirm.h; not for bcast and reduce)", "0 or 1 = no confirmation; ",
              &cfg->online_confirm, err, errlen) ||
      env_int("ARCOLL_ONLINE_LAG", 0, 64,
              "the number of calls after a measured round at which its decision applies, its "
              "exchange running meanwhile (adapt/decision.h; unset: 2 ceil(log2 P), 2..16, for small messages, else 0)",
              "0 = decide inside the round's last call; ", &cfg->online_lag, err, errlen))
    return -1;
  if (parse_tuning(cfg, err, errlen)) return -1;
  arcoll_compress_mode_t cm = ARCOLL_COMPRESS_AUTO;
  if (arcoll_compress_parse(getenv("ARCOLL_COMPRESS"), &cm) != 0) {
    snprintf(err, (size_t)errlen,
             "ARCOLL_COMPRESS='%s' is not valid; use one of: auto (default: the root of each "
             "broadcast of 64 KiB or more decides from a sample of the data and the model), "
             "off (never compress), lz4 (always compress with LZ4), zstd (always compress with "
             "zstd level 1)", getenv("ARCOLL_COMPRESS"));
    return -1;
  }
  cfg->compress = (int)cm;
  if (env_on_off("ARCOLL_NONBLOCKING",
                 "default: nonblocking and persistent collectives run as arcoll schedules",
                 "pass them to the MPI library", "", &cfg->nonblocking, err, errlen))
    return -1;
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
