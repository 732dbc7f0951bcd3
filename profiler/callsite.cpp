// Call-site names and ids (see callsite.hpp and CALL_SITES.md "Call sites").
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "callsite.hpp"

#include <dlfcn.h>
#include <execinfo.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "source_lines.hpp"

namespace arcoll::profiler {

namespace {

/** Base name of the module of `info`, the same on every rank (SMPI copies included). */
std::string module_base(const Dl_info &info) {
  const char *base = std::strrchr(info.dli_fname, '/');
  base = base ? base + 1 : info.dli_fname;
  std::string name = *base ? base : "?";
#ifdef ARCOLL_SMPI
  // SMPI privatisation loads a per-rank copy "<module>_<pid>_<rank>.so":
  // strip the suffix so that every rank names the call site alike.
  strip_smpi_copy_suffix(name);
#endif
  return name;
}

std::string hex(unsigned long long v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "+0x%llx", v);
  return buf;
}

}  // namespace

std::string callsite_module_name(const void *ra) {
  Dl_info info;
  std::memset(&info, 0, sizeof info);
  if (!dladdr(ra, &info) || !info.dli_fname) return "?" + hex((uintptr_t)ra);
  std::string name = module_base(info) + hex((uintptr_t)ra - (uintptr_t)info.dli_fbase);
  if (info.dli_sname && info.dli_saddr)
    name += " (" + std::string(info.dli_sname) + hex((uintptr_t)ra - (uintptr_t)info.dli_saddr) + ")";
  return name;
}

std::string callsite_name(const void *ra) {
  SourceLocation loc;
  // The return address follows the call instruction; ra - 1 lies inside it.
  if (!source_location((uintptr_t)ra - 1, loc)) return callsite_module_name(ra);
  Dl_info info;
  std::memset(&info, 0, sizeof info);
  std::string mod = dladdr(ra, &info) && info.dli_fname
                        ? module_base(info) + hex((uintptr_t)ra - (uintptr_t)info.dli_fbase)
                        : "?" + hex((uintptr_t)ra);
  std::string name = loc.file + ":" + std::to_string(loc.line);
  if (!loc.function.empty()) name += " (" + loc.function + ")";
  return name + " [" + mod + "]";
}

bool in_fortran_binding(const void *addr) {
  Dl_info info;
  std::memset(&info, 0, sizeof info);
  if (!dladdr(addr, &info) || !info.dli_fname) return false;
  const char *base = std::strrchr(info.dli_fname, '/');
  base = base ? base + 1 : info.dli_fname;
  static const char *const kBindings[] = {"libmpichfort", "libmpifort", "libmpi_mpifh", "libmpi_usempi",
                                          "mpi_usempif08", "libfmpich"};
  for (const char *b : kBindings)
    if (std::strstr(base, b)) return true;
  return false;
}

uint32_t CallsiteTable::add(std::unordered_map<const void *, uint32_t> &m, const void *key,
                            std::string &new_name) {
  uint32_t id = next_++;
  m.emplace(key, id);
  new_name = callsite_name(key);
  return id;
}

// Inlined into slow(): every frame of ours costs the walk about 0.2 us.
__attribute__((always_inline)) inline uint32_t CallsiteTable::walk(const void *ra, int max_frames, bool &found, std::string &new_name) {
  void *frames[kMaxFrames];
  int n = backtrace(frames, max_frames);
  int i = 0;
  while (i < n && frames[i] != ra) i++;
  for (i++; i < n; i++) {
    auto it = ids_.find(frames[i]);
    if (it == ids_.end()) {
      if (in_fortran_binding(frames[i])) {
        ids_.emplace(frames[i], kBinding);
        continue;
      }
    } else if (it->second == kBinding) {
      continue;
    }
    // Walk only as deep as needed next time (slow() retries deeper if that fails).
    if (i + 1 > depth_) depth_ = i + 1;
    found = true;
    return it != ids_.end() ? it->second : add(ids_, frames[i], new_name);
  }
  return 0;
}

uint32_t CallsiteTable::slow(const void *ra, bool known_binding, std::string &new_name) {
  if (!known_binding) {
    // First sight of `ra`: classify its module once.
    if (!in_fortran_binding(ra)) return add(ids_, ra, new_name);
    ids_.emplace(ra, kBinding);
  }
  // Fortran: `ra` is inside the binding library; the site is further up.
  bool found = false;
  uint32_t id = walk(ra, depth_ ? depth_ : kMaxFrames, found, new_name);
  if (!found && depth_ && depth_ < kMaxFrames) id = walk(ra, kMaxFrames, found, new_name);
  if (found) return id;
  // No frame outside the binding library (no unwind information): the
  // binding's own address names the site (all Fortran calls of it merge).
  auto it = unwalked_.find(ra);
  return it != unwalked_.end() ? it->second : add(unwalked_, ra, new_name);
}

}  // namespace arcoll::profiler
