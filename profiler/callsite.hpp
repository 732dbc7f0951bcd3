/**
 * @file callsite.hpp
 * @brief Call sites of MPI collectives: ASLR-independent names (file:line
 * where debug information allows) and the recorder's table of call-site ids,
 * including the Fortran case where the MPI binding library sits between the
 * program and the C entry point. Format and costs: profiler/CALL_SITES.md,
 * section "Call sites".
 */
#ifndef ARCOLL_CALLSITE_HPP
#define ARCOLL_CALLSITE_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

namespace arcoll::profiler {

/**
 * Name of the code address `ra` (a return address into the caller of an MPI
 * function). With line information for `ra - 1` (libdw, program built with
 * -g): "file.c:LINE (function) [module+0xOFFSET]"; without it:
 * "module+0xOFFSET (symbol+0xOFF)" (the symbol part only when dladdr finds a
 * dynamic symbol). module is the base name of the executable or shared object
 * containing `ra`, OFFSET the offset of `ra` from its load address: both are
 * the same in every run and on every rank despite ASLR. "?+0xADDRESS" if dladdr
 * fails. Cost: a DWARF lookup (microseconds to milliseconds): call once per address.
 */
std::string callsite_name(const void *ra);

/** callsite_name without the source lookup: "module+0xOFFSET (symbol+0xOFF)". */
std::string callsite_module_name(const void *ra);

/**
 * Whether `addr` lies in a Fortran MPI binding library (MPICH libmpichfort /
 * libmpifort, Open MPI libmpi_mpifh / libmpi_usempi* / *mpi_usempif08*),
 * judged by the module's file name (dladdr). Costs a dladdr call.
 */
bool in_fortran_binding(const void *addr);

/**
 * Ids of call sites, assigned 0, 1, 2... in order of first use. The key of a
 * site is the return address into the caller of the MPI function, except when
 * that address lies in a Fortran binding library (the same address for every
 * Fortran call of that function): then the stack is walked (glibc backtrace)
 * to the first frame outside the binding library, whose return address is the
 * key and names the site. Not thread-safe (the recorder holds its mutex).
 */
class CallsiteTable {
 public:
  /** Pre-sizes the hash table for `n` distinct addresses. */
  void reserve(std::size_t n) { ids_.reserve(n); }

  /**
   * The id of the call site of return address `ra`. When the site is new,
   * sets `new_name` to its name (callsite_name) so that the caller writes its
   * definition; leaves `new_name` untouched otherwise. Cost per call: one
   * compare in a 64-entry direct-mapped cache of recent C/C++ sites, else
   * one hash lookup; for Fortran call sites also one stack
   * walk of a few frames (microseconds, see CALL_SITES.md) and a second lookup.
   * Must be called from inside the MPI function's wrapper (it walks the
   * current stack to find `ra`).
   */
  uint32_t id(const void *ra, std::string &new_name) {
    const std::size_t h = (reinterpret_cast<std::uintptr_t>(ra) >> 2) & (kCache - 1);
    if (ra && cache_ra_[h] == ra) return cache_id_[h];
    auto it = ids_.find(ra);
    if (it != ids_.end() && it->second != kBinding) {
      cache_ra_[h] = ra, cache_id_[h] = it->second;
      return it->second;
    }
    return slow(ra, it != ids_.end(), new_name);
  }

  /** Number of sites defined so far. */
  uint32_t size() const { return next_; }

 private:
  static constexpr uint32_t kBinding = 0xFFFFFFFFu;  // value: address in a binding library
  static constexpr int kMaxFrames = 64;
  static constexpr std::size_t kCache = 64;  // power of two

  uint32_t slow(const void *ra, bool known_binding, std::string &new_name);
  uint32_t walk(const void *ra, int max_frames, bool &found, std::string &new_name);
  uint32_t add(std::unordered_map<const void *, uint32_t> &m, const void *key, std::string &new_name);

  std::unordered_map<const void *, uint32_t> ids_;       // address -> id or kBinding
  std::unordered_map<const void *, uint32_t> unwalked_;  // binding addresses whose walk failed
  uint32_t next_ = 0;
  int depth_ = 0;  // frames the Fortran walks needed so far (0: none yet)
  const void *cache_ra_[kCache] = {};  // direct-mapped: C/C++ return address -> id
  uint32_t cache_id_[kCache] = {};
};

}  // namespace arcoll::profiler
#endif
