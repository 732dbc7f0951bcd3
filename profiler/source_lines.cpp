// Source locations of code addresses with libdw (see source_lines.hpp).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "source_lines.hpp"

#include "site_hash.h"

#ifdef ARCOLL_HAVE_LIBDW
#include <cxxabi.h>
#include <elfutils/libdwfl.h>
#include <link.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#endif
#include <cstring>

namespace arcoll::profiler {

#ifdef ARCOLL_HAVE_LIBDW
namespace {

/** The module (executable or shared object) mapping a code address. */
struct Mapped {
  std::string path;  // file to open ("/proc/self/exe" for the executable)
  uintptr_t bias = 0;  // load bias: run-time address - link-time address
  bool found = false;
};

/** dl_iterate_phdr callback: finds the PT_LOAD segment holding `pc`. */
int find_mapping(struct dl_phdr_info *info, size_t, void *data) {
  auto *q = static_cast<std::pair<uintptr_t, Mapped> *>(data);
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    if (q->first < lo || q->first - lo >= ph.p_memsz) continue;
    const char *name = info->dlpi_name;
    q->second.path = name && *name ? name : "/proc/self/exe";
    q->second.bias = info->dlpi_addr;
    q->second.found = true;
    return 1;
  }
  return 0;
}

std::string base_name(const std::string &path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/**
 * A file with the contents of module `path` when `path` itself is gone (SMPI
 * loads per-rank copies "/tmp/<module>_<pid>_<rank>.so" and deletes them once
 * mapped): /proc/self/exe for a copy of the executable, else the mapping's
 * /proc/self/map_files entry (readable by root or with CAP_CHECKPOINT_RESTORE).
 * "" if none.
 */
std::string substitute_file(const std::string &path) {
  std::string base = base_name(path);
  strip_smpi_copy_suffix(base);
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    if (base == base_name(exe)) return "/proc/self/exe";
  }
  std::FILE *f = std::fopen("/proc/self/maps", "r");
  if (!f) return "";
  std::string found, want = path + " (deleted)";
  char line[4608];
  while (found.empty() && std::fgets(line, sizeof line, f)) {
    std::size_t len = std::strlen(line);
    if (len && line[len - 1] == '\n') line[--len] = '\0';
    if (len < want.size() || want.compare(0, std::string::npos, line + len - want.size()) != 0) continue;
    const char *sp = std::strchr(line, ' ');
    if (sp) found = "/proc/self/map_files/" + std::string(line, std::size_t(sp - line));
  }
  std::fclose(f);
  return found.empty() || access(found.c_str(), R_OK) != 0 ? "" : found;
}

/** One libdw session per process (per rank copy under SMPI), modules reported lazily. */
class Resolver {
 public:
  ~Resolver() {
    if (dwfl_) dwfl_end(dwfl_);
  }

  /** The libdw module holding `pc`, reporting its file on first use; null if unusable. */
  Dwfl_Module *module_of(uintptr_t pc) {
    if (!dwfl_ && !begin()) return nullptr;
    if (Dwfl_Module *m = dwfl_addrmodule(dwfl_, pc)) return m;
    std::pair<uintptr_t, Mapped> q{pc, Mapped{}};
    dl_iterate_phdr(find_mapping, &q);
    const Mapped &m = q.second;
    if (!m.found || m.path[0] != '/' || failed_.count(m.path)) return nullptr;
    std::string file = access(m.path.c_str(), R_OK) == 0 ? m.path : substitute_file(m.path);
    dwfl_report_begin_add(dwfl_);
    // add_p_vaddr = true: `bias` is added to the segments' p_vaddr, right for
    // PIE executables, shared objects (prelinked or not) and ET_EXEC alike.
    Dwfl_Module *mod =
        file.empty() ? nullptr : dwfl_report_elf(dwfl_, m.path.c_str(), file.c_str(), -1, m.bias, true);
    dwfl_report_end(dwfl_, nullptr, nullptr);
    if (!mod) {
      failed_.insert(m.path);
      return nullptr;
    }
    return dwfl_addrmodule(dwfl_, pc);
  }

 private:
  bool begin() {
    if (began_) return false;  // dwfl_begin failed once: do not retry per site
    began_ = true;
    callbacks_.find_elf = dwfl_build_id_find_elf;
    callbacks_.find_debuginfo = dwfl_standard_find_debuginfo;
    callbacks_.section_address = dwfl_offline_section_address;
    callbacks_.debuginfo_path = &debuginfo_path_;
    dwfl_ = dwfl_begin(&callbacks_);
    return dwfl_ != nullptr;
  }

  Dwfl *dwfl_ = nullptr;
  bool began_ = false;
  Dwfl_Callbacks callbacks_{};
  char *debuginfo_path_ = nullptr;  // null: the standard search path
  std::set<std::string> failed_;    // files libdw could not open
};

Resolver &resolver() {
  static Resolver r;
  return r;
}

std::string demangle(const char *sym) {
  if (!sym) return "";
  if (sym[0] == '_' && sym[1] == 'Z') {
    int status = 0;
    char *d = abi::__cxa_demangle(sym, nullptr, nullptr, &status);
    if (d && status == 0) {
      std::string s = d;
      std::free(d);
      return s;
    }
    std::free(d);
  }
  return sym;
}

}  // namespace

bool source_location(uintptr_t pc, SourceLocation &out) {
  Dwfl_Module *mod = resolver().module_of(pc);
  if (!mod) return false;
  Dwfl_Line *l = dwfl_module_getsrc(mod, pc);
  if (!l) return false;
  int line = 0;
  const char *file = dwfl_lineinfo(l, nullptr, &line, nullptr, nullptr, nullptr);
  if (!file || !*file || line <= 0) return false;  // line 0: compiler-generated code
  const char *base = std::strrchr(file, '/');
  out.file = base ? base + 1 : file;
  out.line = line;
  out.function = demangle(dwfl_module_addrname(mod, pc));
  return true;
}

bool source_lines_available() { return true; }

#else  // !ARCOLL_HAVE_LIBDW

bool source_location(uintptr_t, SourceLocation &) { return false; }
bool source_lines_available() { return false; }

#endif

void strip_smpi_copy_suffix(std::string &name) {
  name.resize(arcoll_smpi_copy_name_length(name.c_str()));
}

}  // namespace arcoll::profiler
