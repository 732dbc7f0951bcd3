/**
 * @file arcoll.h
 * @brief Introspection API of libarcoll.so (optional; programs do not need it).
 *
 * Programs that get libarcoll by LD_PRELOAD can look the function up with
 * dlsym(RTLD_DEFAULT, "arcoll_bcast_last_order") (or "arcoll_last_algorithm").
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

/**
 * Name of the algorithm that ran the calling thread's last call of a
 * collective through libarcoll: a name of the collective's table
 * (collectives/select.h, e.g. "binomial", "rsag") or "pmpi" when the call
 * was passed to the MPI library (mode pmpi, intercommunicator, one rank,
 * invalid arguments, no eligible algorithm).
 * @param collective "bcast", "reduce", "allreduce", "scan", "exscan",
 *                   "gather", "scatter", "alltoall", "barrier", "allgather",
 *                   "reduce_scatter_block", "allgatherv", "gatherv",
 *                   "scatterv", "reduce_scatter" or "alltoallv".
 * @return a static string, or NULL for an unknown collective or one that
 *         has not been called yet on this thread.
 */
const char *arcoll_last_algorithm(const char *collective);

/**
 * Introspection of the compressed broadcast (collectives/compress_decide.h,
 * seed 004_045dc3534e1f0a8b.txt): the codec of the calling process's last
 * `compressed` bcast, "raw" (the root decided not to compress), "lz4" or
 * "zstd".  At the root it is the root's own decision; elsewhere what the
 * first segment's header said.  The other compressed collectives (allgather,
 * gather, alltoall) record each sending rank's decision for its own
 * block(s) in the same place, so after one of them this is the calling
 * rank's own decision (a gather's root, which sends nothing, keeps its
 * previous value).
 * @param ratio        out (may be NULL): at the root, the best sampled ratio
 *                     (input / output bytes; 1 when nothing was sampled);
 *                     1 elsewhere.
 * @param decided_here out (may be NULL): 1 at the root, 0 elsewhere.
 * @return a static string, or NULL when no compressed bcast ran yet.
 */
const char *arcoll_bcast_last_codec(double *ratio, int *decided_here);

/**
 * Number of nonblocking and persistent collective schedules libarcoll has
 * built in this process (MPI_I<coll> calls and MPI_<Coll>_init calls it ran
 * instead of the MPI library; adapt/NONBLOCKING.md "Nonblocking and persistent
 * collectives").  0 with ARCOLL_NONBLOCKING=off.
 */
long long arcoll_nbc_schedules(void);

/**
 * Rounds of the last nonblocking or persistent collective schedule this
 * rank built (each round: messages posted at once, then local steps;
 * adapt/NONBLOCKING.md; 0 before the first).  E.g. the two-level direct
 * iallreduce has 4 (5 with MPI_IN_PLACE), Rabenseifner's 2 log2 P.
 */
int arcoll_nbc_last_rounds(void);

#ifdef __cplusplus
}
#endif
#endif
