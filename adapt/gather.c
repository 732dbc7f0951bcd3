/*
 * libarcoll: MPI_Gather and MPI_Gather_c (MPI >= 4) dispatched to the gather
 * algorithms of collectives/ (gather.h): linear, binomial.  The size used
 * for the choice is one block's bytes (the same on every rank: recvcount x
 * recvtype size at the root, sendcount x sendtype size elsewhere, equal by
 * MPI's type-signature rule).  Dispatch (blocks.c) and PMPI cases: dispatch.h,
 * adapt/DISPATCH.md.
 */
#include <mpi.h>

#include "dispatch_blocks.h"

ARCOLL_WITH_LARGE_COUNT(ARCOLL_ROOTED_BLOCKS_WRAPPER, Gather, ARCOLL_COLL_GATHER)
