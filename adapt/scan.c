/*
 * libarcoll: MPI_Scan and MPI_Scan_c (MPI >= 4) dispatched to the scan
 * algorithms of collectives/ (scan.h): linear, pipeline, pipelined_tree, brent_kung, sqrtp,
 * recursive_doubling (all order-preserving).  Dispatch (reduction.c) and PMPI cases:
 * dispatch.h, adapt/DISPATCH.md.
 */
#include <mpi.h>

#include "dispatch_blocks.h"

ARCOLL_WITH_LARGE_COUNT(ARCOLL_UNROOTED_REDUCTION_WRAPPER, Scan, ARCOLL_COLL_SCAN)
