/**
 * @file clock_sync.hpp
 * @brief Offset of every rank's MPI_Wtime clock to rank 0's, by ping-pong.
 */
#ifndef ARCOLL_CLOCK_SYNC_HPP
#define ARCOLL_CLOCK_SYNC_HPP

#include <mpi.h>

namespace arcoll::profiler {

/** Result of one measurement on the calling rank (seconds). */
struct ClockSample {
  double t_local = 0;  ///< this rank's MPI_Wtime when it answered the best ping
  double offset = 0;   ///< rank-0 clock minus this rank's clock at t_local
  double rtt = 0;      ///< round-trip time of the best round (error bound: rtt/2)
};

/**
 * Collective over `comm` (must be a private duplicate of MPI_COMM_WORLD; uses
 * only PMPI point-to-point). Rank 0 ping-pongs `rounds` times with every
 * other rank in turn; the round with the smallest round-trip time gives
 * offset = (t0_send + t0_recv)/2 - t_r (Cristian's method; the error is at
 * most rtt/2). Rank 0 gets {now, 0, 0}. Returns false on an MPI error.
 */
bool clock_sync(MPI_Comm comm, int rounds, ClockSample &out);

}  // namespace arcoll::profiler
#endif
