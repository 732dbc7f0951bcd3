/*
 * libarcoll: MPI_Allgather and MPI_Allgather_c (MPI >= 4) dispatched to the
 * allgather algorithms of collectives/ (allgather.h): ring,
 * recursive_doubling, bruck, gather_bcast.  The size used for the choice is
 * one block's bytes.  Dispatch (unrooted_blocks.c) and PMPI cases:
 * dispatch.h, adapt/DISPATCH.md.
 */
#include <mpi.h>

#include "dispatch_blocks.h"

ARCOLL_WITH_LARGE_COUNT(ARCOLL_UNROOTED_BLOCKS_WRAPPER, Allgather, ARCOLL_COLL_ALLGATHER)
