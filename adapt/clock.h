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
 * MPI_WTIME_IS_GLOBAL is true.  Otherwise rank 0 ping-pongs 3 times with
 * each rank in turn (tag `tag`, empty ping, one double back) and keeps, per
 * rank, the estimate of the round trip with the smallest time (Cristian's
 * algorithm: offset = t_remote - (t_send + t_recv) / 2, error <= RTT / 2),
 * then scatters the offsets.  Cost: 3 (P - 1) round trips at rank 0, once
 * per communicator.  Returns MPI_SUCCESS or the first MPI error.
 */
int arcoll_clock_offset(MPI_Comm comm, int tag, double *offset);

#ifdef __cplusplus
}
#endif
#endif
