/**
 * @file clock.h
 * @brief Offsets between the ranks' MPI_Wtime clocks, so that arrival times
 *        (entry into MPI_Bcast) of different ranks can be compared.
 *
 * The adaptive broadcast needs each rank's arrival time, not its waiting
 * time: a waiting time mixes lateness with the rank's place in the tree
 * (measured: a 64-rank chain on a tree network gave bimodal waits that looked
 * like 15 late ranks).  Seed 001 (001_6a837e3d9ad6c429.txt) defines the
 * imbalance by arrival times.
 */
#ifndef ARCOLL_ADAPT_CLOCK_H
#define ARCOLL_ADAPT_CLOCK_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Collective over comm.  *offset (seconds) such that PMPI_Wtime() - *offset
 * is this rank's clock expressed in rank 0's clock.  0 on every rank when
 * MPI_WTIME_IS_GLOBAL is true.  Otherwise over a binomial tree in
 * ceil(log2 P) rounds: in round k every rank r < 2^k that knows its offset
 * ping-pongs 3 times with rank r + 2^k (tag `tag`, empty ping, one double
 * back); each round trip bounds the child's offset to [t_remote - t_recv,
 * t_remote - t_send] (Cristian); the estimate is the point of the
 * intersection of the 3 intervals nearest 0 (exactly 0 for ranks sharing a
 * clock, e.g. on one host, however slow the round trips: measured, 4 MPICH
 * ranks on 2 loaded cores, the fastest round trip's midpoint was off by up
 * to 15 ms and hid a rank late by 20 ms), or, if they do not intersect, the
 * fastest round trip's midpoint (error <= RTT / 2); rank r then sends
 * r + 2^k its offset (its own + the measured one).  Cost: 3 ceil(log2 P)
 * round trips on the longest path (was 3 (P - 1) at rank 0 with a star);
 * error <= the sum of RTT / 2 along the path.  Returns MPI_SUCCESS or the
 * first MPI error.
 */
int arcoll_clock_offset(MPI_Comm comm, int tag, double *offset);

#ifdef __cplusplus
}
#endif
#endif
