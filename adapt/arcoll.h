/**
 * @file arcoll.h
 * @brief Introspection API of libarcoll.so (optional; programs do not need it).
 *
 * Programs that get libarcoll by LD_PRELOAD can look the function up with
 * dlsym(RTLD_DEFAULT, "arcoll_bcast_last_order").
 */
#ifndef ARCOLL_ADAPT_ARCOLL_H
#define ARCOLL_ADAPT_ARCOLL_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Rank order used by the last MPI_Bcast that arcoll ran on `comm`
 * (order[0] = root; binomial positions, odd positions are leaves).
 * @param order   out, at least `len` ints; receives min(len, P) entries.
 * @param len     capacity of order.
 * @param ncalls  out (may be NULL): MPI_Bcast calls arcoll ran on comm so far.
 * @param adaptive out (may be NULL): 1 if the last order came from lateness data.
 * @return communicator size P, or -1 if arcoll has not run a broadcast on comm.
 */
int arcoll_bcast_last_order(MPI_Comm comm, int *order, int len, long long *ncalls,
                            int *adaptive);

#ifdef __cplusplus
}
#endif
#endif
