/**
 * @file site_hash.h
 * @brief The hash behind call-site keys (site.h) and the module names it
 *        hashes, apart so that code that does not link libarcoll (`arcoll
 *        tune`, tools/cli_tune.cpp; the profiler's call-site names) computes
 *        the same key from a trace's call-site name "module+0xOFFSET".
 */
#ifndef ARCOLL_ADAPT_SITE_HASH_H
#define ARCOLL_ADAPT_SITE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/** Length of a module's base name without SMPI's per-rank copy suffix:
 *  SimGrid 3.32 runs each rank's copy of a privatized module from
 *  /tmp/<name>_<pid>_<rank>.so ("app_123_4.so" -> 3, "libx.so_1_2.so" ->
 *  7); any other name: its whole length.  Callers apply it under SMPI only
 *  (site.c) or to names that can only have come from there (the profiler,
 *  source_lines.hpp strip_smpi_copy_suffix). */
static inline size_t arcoll_smpi_copy_name_length(const char *base) {
  const size_t n = strlen(base);
  if (n <= 3 || strcmp(base + n - 3, ".so") != 0) return n;
  size_t e = n - 3;
  for (int field = 0; field < 2; ++field) { /* _<rank>, then _<pid> */
    size_t d = e;
    while (d > 0 && base[d - 1] >= '0' && base[d - 1] <= '9') --d;
    if (d == e || d == 0 || base[d - 1] != '_') return n;
    e = d - 1;
  }
  return e;
}

/** FNV-1a (64 bit) of the `len` bytes of the module's base name, then of the
 *  8 bytes of `offset` (the call's return address minus the module's load
 *  address, host byte order); never 0 (0 becomes 1). */
static inline uint64_t arcoll_site_hash(const char *module, size_t len, uint64_t offset) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < len; ++i) {
    h ^= (unsigned char)module[i];
    h *= 1099511628211ull;
  }
  const unsigned char *p = (const unsigned char *)&offset;
  for (size_t i = 0; i < sizeof offset; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h ? h : 1;
}

#endif
