/**
 * @file clock_sync.hpp
 * @brief Offset of every rank's MPI_Wtime clock to rank 0's, measured by
 *        ping-pong along a binomial tree (schedule and composition:
 *        clock_tree.hpp).
 */
#ifndef ARCOLL_CLOCK_SYNC_HPP
#define ARCOLL_CLOCK_SYNC_HPP

#include <mpi.h>

#include "clock_tree.hpp"

namespace arcoll::profiler {

/**
 * Collective over `comm` (must be a private duplicate of MPI_COMM_WORLD; uses
 * only PMPI point-to-point). In ceil(log2 P) rounds every parent of the
 * binomial tree of clock_tree.hpp ping-pongs each child `rounds` times (the
 * fastest round trip gives the child's offset to the parent, Cristian's
 * method) and sends the child its offset composed with the parent's own
 * offset to rank 0. Rank 0 gets {now, 0, 0}. The call starts with a
 * PMPI_Barrier on `comm`; `cost` receives the seconds this rank spent after
 * it (about ceil(log2 P) x (rounds + 1) round trips at most: the wait until
 * its parent reaches it plus the ping-pongs with its children). Returns false on
 * an MPI error (out and cost are then unspecified).
 */
bool clock_sync(MPI_Comm comm, int rounds, ClockSample &out, double &cost);

}  // namespace arcoll::profiler
#endif
