/**
 * @file source_lines.hpp
 * @brief Source file:line and function of a code address of this process,
 * read from DWARF debug information with elfutils' libdw (dwfl).
 *
 * Built with libdw when CMake found it (ARCOLL_HAVE_LIBDW, Debian package
 * libdw-dev); without it every lookup fails and callers fall back to
 * module+offset names. Not thread-safe: callers serialise (the recorder calls
 * it under its mutex). Each lookup costs a DWARF search (microseconds; the
 * first one in a module also reads the module's line tables: milliseconds),
 * so callers look up each distinct address once.
 */
#ifndef ARCOLL_SOURCE_LINES_HPP
#define ARCOLL_SOURCE_LINES_HPP

#include <cstdint>
#include <string>

namespace arcoll::profiler {

/** Where a code address comes from in the source. */
struct SourceLocation {
  std::string file;      ///< base name of the source file ("app.c")
  int line = 0;          ///< 1-based line number
  std::string function;  ///< symbol of the enclosing function (demangled C++), "" if unknown
};

/**
 * Looks up the source location of code address `pc` of this process (for a
 * return address pass `ra - 1`, which lies inside the call instruction).
 * The module containing `pc` is found with dl_iterate_phdr and reported to
 * libdw on first use (only the modules that hold looked-up addresses are
 * opened, which keeps the cost independent of SMPI's per-rank module copies).
 * @return true and fills `out` when the module has line information for `pc`
 *   (debug info in the module or a separate debug file found the standard way:
 *   build-id or .gnu_debuglink); false when it has none, when libdw is not
 *   built in, or on any libdw error (never throws except std::bad_alloc).
 */
bool source_location(uintptr_t pc, SourceLocation &out);

/**
 * Removes the suffix "_<pid>_<rank>" of SMPI's per-rank module copies from a
 * base name ("app_123_4.so" -> "app", "libx.so_1_2.so" -> "libx.so"); other
 * names are left alone. Used for every build: it only matches that pattern.
 */
void strip_smpi_copy_suffix(std::string &base);

/** Whether this build resolves file:line (libdw was found at configure time). */
bool source_lines_available();

}  // namespace arcoll::profiler
#endif
