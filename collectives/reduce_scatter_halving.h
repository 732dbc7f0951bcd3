/**
 * @file reduce_scatter_halving.h
 * @brief Recursive-halving reduce-scatter over a power-of-two group, the
 *        first half of Rabenseifner's reduce and allreduce (Rabenseifner 2004;
 *        seed 000_32450fa7292fe18a.txt "reduction of segmented message").
 *
 * The `count` elements are cut in P2 blocks, block b holding
 * count/P2 (+1 for b < count % P2) elements (arcoll_rs_block).  Step i
 * (i = 0 .. log2(P2)-1) pairs member newpos with newpos ^ mask_i; each keeps
 * the half of its current block range selected by bit mask_i of newpos (lower
 * half when the bit is clear), sends the other half and combines what it
 * receives.  Two dimension orders (the volume halves at every step):
 *  - far first (ARCOLL_RS_FAR_FIRST): mask_i = P2/2, P2/4, ..., 1: the
 *    largest exchange (M/2) is between positions P2/2 apart; member newpos
 *    ends with block newpos;
 *  - near first (ARCOLL_RS_NEAR_FIRST, MPICH's and Open MPI's order):
 *    mask_i = 1, 2, ..., P2/2: the largest exchange is between neighbours,
 *    the farthest pairs exchange M/P2; member newpos ends with block
 *    bitreverse(newpos).  With ranks placed in order on a hierarchical
 *    network (blocks of consecutive ranks per node / leaf switch) only the
 *    small exchanges cross the uplinks: on the 160:1 tree of bench/README.md
 *    at P = 256 this is 8-13x faster than far first.
 * Either way, after step i the member holds the range arcoll_rs_range(i + 1),
 * contiguous; an allgather or gather undoes the steps in reverse order
 * (arcoll_rs_mask).  Cost on a flat network (both orders):
 * log2(P2) t_s + (P2-1)/P2 (M/B + t_op M) seconds.  Commutative ops only.
 */
#ifndef ARCOLL_COLLECTIVES_REDUCE_SCATTER_HALVING_H
#define ARCOLL_COLLECTIVES_REDUCE_SCATTER_HALVING_H

#include <mpi.h>

#include "reduce_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Dimension orders of the halving (see above). */
enum { ARCOLL_RS_FAR_FIRST = 0, ARCOLL_RS_NEAR_FIRST = 1 };

/** First element (disp) of block b of `count` elements cut in `nblocks`. */
MPI_Aint arcoll_rs_block(MPI_Aint count, int nblocks, int b);

/** Number of halving steps, log2 P2 (P2 a power of two). */
int arcoll_rs_steps(int P2);

/** The mask of step i (0 <= i < log2 P2) in dimension order `order`. */
int arcoll_rs_mask(int P2, int order, int i);

/**
 * Block range [*lo, *hi) held by member newpos after the first `steps` steps
 * (steps = 0: [0, P2); steps = log2 P2: the single block it ends with).
 */
void arcoll_rs_range(int P2, int order, int newpos, int steps, int *lo, int *hi);

/**
 * Run the reduce-scatter.  acc: this member's full vector (count elements,
 * updated in place: on return the block range arcoll_rs_range(log2 P2) is the
 * reduction of all members' same blocks); tmp: scratch for count elements;
 * nrank[i]: communicator rank of member i (0 <= i < P2, P2 a power of two);
 * order: ARCOLL_RS_FAR_FIRST or ARCOLL_RS_NEAR_FIRST; step_s: NULL, or
 * room for log2 P2 doubles that get the seconds (PMPI_Wtime) of each step's
 * exchange, the local reduction not counted (coll.h arcoll_sched_t step_s).
 * Returns the first failing MPI error code.
 */
int arcoll_reduce_scatter_halving(void *acc, void *tmp, MPI_Aint count, MPI_Datatype dt,
                                  MPI_Op op, const arcoll_red_typeinfo_t *ti, int newpos,
                                  int P2, const int *nrank, int order, int tag, MPI_Comm comm,
                                  double *step_s);

#ifdef __cplusplus
}
#endif
#endif
