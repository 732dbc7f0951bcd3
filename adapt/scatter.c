/*
 * libarcoll: MPI_Scatter and MPI_Scatter_c (MPI >= 4) dispatched to the
 * scatter algorithms of collectives/ (gather.h): linear, binomial.  The size
 * used for the choice is one block's bytes (sendcount x sendtype size at the
 * root, recvcount x recvtype size elsewhere).  Dispatch (blocks.c) and PMPI cases:
 * dispatch.h, adapt/DISPATCH.md.
 */
#include <mpi.h>

#include "dispatch_blocks.h"

ARCOLL_WITH_LARGE_COUNT(ARCOLL_ROOTED_BLOCKS_WRAPPER, Scatter, ARCOLL_COLL_SCATTER)
