/*
 * libarcoll: MPI_Alltoall and MPI_Alltoall_c (MPI >= 4) dispatched to the
 * alltoall algorithms of collectives/ (alltoall.h): linear, pairwise, bruck.
 * The size used for the choice is one block's bytes.  Dispatch
 * (unrooted_blocks.c) and PMPI cases: dispatch.h, adapt/DISPATCH.md.
 */
#include <mpi.h>

#include "dispatch_blocks.h"

ARCOLL_WITH_LARGE_COUNT(ARCOLL_UNROOTED_BLOCKS_WRAPPER, Alltoall, ARCOLL_COLL_ALLTOALL)
