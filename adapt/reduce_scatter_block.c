/*
 * libarcoll: MPI_Reduce_scatter_block and MPI_Reduce_scatter_block_c
 * (MPI >= 4) dispatched to the algorithms of collectives/
 * (reduce_scatter_block.h): recursive_halving, ring (commutative ops),
 * pairwise (every op, rank order kept).  The size used for the choice is one
 * block's bytes (recvcount x type size).  Dispatch (reduction.c) and PMPI
 * cases: dispatch.h, adapt/DISPATCH.md.
 */
#include <mpi.h>

#include "dispatch_blocks.h"

ARCOLL_WITH_LARGE_COUNT(ARCOLL_UNROOTED_REDUCTION_WRAPPER, Reduce_scatter_block,
                        ARCOLL_COLL_REDUCE_SCATTER_BLOCK)
