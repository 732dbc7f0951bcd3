/**
 * @file site_hash.h
 * @brief The hash behind call-site keys (site.h), apart so that tools that
 *        do not link MPI (`arcoll tune`, tools/cli_tune.cpp) compute the
 *        same key from a trace's call-site name "module+0xOFFSET".
 */
#ifndef ARCOLL_ADAPT_SITE_HASH_H
#define ARCOLL_ADAPT_SITE_HASH_H

#include <stddef.h>
#include <stdint.h>

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
