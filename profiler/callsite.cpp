#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "callsite.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace arcoll::profiler {

std::string callsite_name(const void *ra) {
  Dl_info info;
  char buf[64];
  std::memset(&info, 0, sizeof info);
  if (!dladdr(ra, &info) || !info.dli_fname) {
    std::snprintf(buf, sizeof buf, "?+0x%llx", (unsigned long long)(uintptr_t)ra);
    return buf;
  }
  const char *base = std::strrchr(info.dli_fname, '/');
  base = base ? base + 1 : info.dli_fname;
  std::string name = *base ? base : "?";
#ifdef ARCOLL_SMPI
  // SMPI privatisation loads a per-rank copy "<module>_<pid>_<rank>.so":
  // strip the suffix so that every rank names the call site alike.
  {
    std::size_t n = name.size();
    if (n > 3 && name.compare(n - 3, 3, ".so") == 0) {
      std::size_t i = n - 3, digits = 0;
      int groups = 0;
      while (i > 0 && groups < 2) {
        char c = name[i - 1];
        if (c >= '0' && c <= '9') {
          digits++;
          i--;
        } else if (c == '_' && digits > 0) {
          groups++;
          digits = 0;
          i--;
        } else {
          break;
        }
      }
      if (groups == 2) name.resize(i);
    }
  }
#endif
  std::snprintf(buf, sizeof buf, "+0x%llx",
                (unsigned long long)((uintptr_t)ra - (uintptr_t)info.dli_fbase));
  name += buf;
  if (info.dli_sname && info.dli_saddr) {
    std::snprintf(buf, sizeof buf, "+0x%llx", (unsigned long long)((uintptr_t)ra - (uintptr_t)info.dli_saddr));
    name += " (";
    name += info.dli_sname;
    name += buf;
    name += ")";
  }
  return name;
}

}  // namespace arcoll::profiler
