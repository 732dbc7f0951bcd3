/* Call-site keys; see site.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "site.h"
#include "site_hash.h"

#include <dlfcn.h>
#include <string.h>

/* dladdr costs a lock and a walk of the link map: keys are cached per
 * return address (a pure function of it), direct-mapped, per thread. */
#define CACHE 64
static __thread struct {
  const void *ret;
  uint64_t key;
} g_cache[CACHE];

static uint64_t site_key_uncached(const void *ret);

uint64_t arcoll_site_key(const void *ret) {
  const unsigned i = (unsigned)(((uintptr_t)ret >> 2) % CACHE);
  if (g_cache[i].ret == ret && g_cache[i].key) return g_cache[i].key;
  const uint64_t k = site_key_uncached(ret);
  g_cache[i].ret = ret;
  g_cache[i].key = k;
  return k;
}

/* Length of a module's name without SMPI's privatisation suffix: SimGrid
 * runs each rank's copy of the program from /tmp/<name>_<pid>_<rank>.so
 * (SMPI 3.32, seen with dladdr), which would give every rank and every run
 * another key for the same call; real MPI: the whole name. */
static size_t smpi_name_length(const char *base) {
  size_t n = strlen(base);
#ifdef ARCOLL_SMPI
  if (n > 3 && !strcmp(base + n - 3, ".so")) {
    size_t e = n - 3;
    for (int field = 0; field < 2; ++field) { /* _<rank>, then _<pid> */
      size_t d = e;
      while (d > 0 && base[d - 1] >= '0' && base[d - 1] <= '9') --d;
      if (d == e || d == 0 || base[d - 1] != '_') return n;
      e = d - 1;
    }
    return e;
  }
#endif
  return n;
}

static uint64_t site_key_uncached(const void *ret) {
  Dl_info info;
  if (dladdr(ret, &info) && info.dli_fbase) {
    const uint64_t off = (uint64_t)((uintptr_t)ret - (uintptr_t)info.dli_fbase);
    const char *base = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
    base = base ? base + 1 : info.dli_fname ? info.dli_fname : "";
    return arcoll_site_hash(base, smpi_name_length(base), off);
  }
  return arcoll_site_hash("", 0, (uint64_t)(uintptr_t)ret);
}
