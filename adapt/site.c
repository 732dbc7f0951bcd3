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

/* The module's name as keyed: under SMPI without the suffix of SimGrid's
 * per-rank copies (site_hash.h), which would give every rank and every run
 * another key for the same call. */
static size_t module_name_length(const char *base) {
#ifdef ARCOLL_SMPI
  return arcoll_smpi_copy_name_length(base);
#else
  return strlen(base);
#endif
}

static uint64_t site_key_uncached(const void *ret) {
  Dl_info info;
  if (dladdr(ret, &info) && info.dli_fbase) {
    const uint64_t off = (uint64_t)((uintptr_t)ret - (uintptr_t)info.dli_fbase);
    const char *base = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
    base = base ? base + 1 : info.dli_fname ? info.dli_fname : "";
    return arcoll_site_hash(base, module_name_length(base), off);
  }
  return arcoll_site_hash("", 0, (uint64_t)(uintptr_t)ret);
}
