/*
 * libarcoll: MPI_Exscan and MPI_Exscan_c (MPI >= 4) dispatched to the exscan
 * algorithms of collectives/ (scan.h): linear, pipeline, pipelined_tree, brent_kung, sqrtp,
 * recursive_doubling (all order-preserving; rank 0's recvbuf is left
 * untouched, MPI leaves it undefined).  Dispatch (reduction.c) and PMPI cases:
 * dispatch.h, adapt/DISPATCH.md.
 */
#include <mpi.h>

#include "dispatch_blocks.h"

ARCOLL_WITH_LARGE_COUNT(ARCOLL_UNROOTED_REDUCTION_WRAPPER, Exscan, ARCOLL_COLL_EXSCAN)
