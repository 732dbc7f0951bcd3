/**
 * @file site.h
 * @brief ASLR-independent call-site keys (seed 001_6a837e3d9ad6c429.txt,
 * open problem 2: adapt per call site of MPI_Bcast).
 */
#ifndef ARCOLL_ADAPT_SITE_H
#define ARCOLL_ADAPT_SITE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Key of the code address `ret` (a return address): FNV-1a hash of the
 * module's file name (basename, from dladdr) and of the offset of `ret` from
 * the module's load address, so that the same call in the same binary gives
 * the same key in every process regardless of ASLR (under SMPI, whose ranks
 * run copies named <name>_<pid>_<rank>.so, the name without that suffix).
 * Returns the hash of the
 * raw address if dladdr cannot resolve it.  Never 0.
 */
uint64_t arcoll_site_key(const void *ret);

#ifdef __cplusplus
}
#endif
#endif
