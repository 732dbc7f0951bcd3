/**
 * @file callsite.hpp
 * @brief ASLR-independent names of call sites (return addresses).
 */
#ifndef ARCOLL_CALLSITE_HPP
#define ARCOLL_CALLSITE_HPP

#include <string>

namespace arcoll::profiler {

/**
 * Name of the code address `ra` (a return address into the caller of an MPI
 * function): "module+0xOFFSET" where module is the base name of the shared
 * object or executable containing `ra` and OFFSET its offset from the load
 * address (stable across runs despite ASLR), followed by " (symbol+0xOFF)"
 * when dladdr finds a dynamic symbol. "?+0xADDRESS" if dladdr fails.
 */
std::string callsite_name(const void *ra);

}  // namespace arcoll::profiler
#endif
