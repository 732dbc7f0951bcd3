/**
 * @file reduce_scatter_halving.h
 * @brief Recursive-halving reduce-scatter over a power-of-two group, the
 *        first half of Rabenseifner's reduce and allreduce (Rabenseifner 2004;
 *        seed 000_32450fa7292fe18a.txt "reduction of segmented message").
 *
 * The `count` elements are cut in P2 blocks, block b holding
 * count/P2 (+1 for b < count % P2) elements (arcoll_rs_block).  At step
 * mask = P2/2, P2/4, ..., 1 a member exchanges half of its current block range
 * with newpos ^ mask and combines the half it keeps; afterwards member newpos
 * holds block newpos fully reduced (in natural order, so a binomial gather or
 * a recursive-doubling allgather can follow).  Cost: log2(P2) t_s +
 * (P2-1)/P2 (M/B + t_op M) seconds.  Commutative ops only.
 */
#ifndef ARCOLL_COLLECTIVES_REDUCE_SCATTER_HALVING_H
#define ARCOLL_COLLECTIVES_REDUCE_SCATTER_HALVING_H

#include <mpi.h>

#include "reduce_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/** First element (disp) of block b of `count` elements cut in `nblocks`. */
MPI_Aint arcoll_rs_block(MPI_Aint count, int nblocks, int b);

/**
 * Run the reduce-scatter.  acc: this member's full vector (count elements,
 * updated in place: on return block newpos is the reduction of all members'
 * block newpos); tmp: scratch for count elements; nrank[i]: communicator rank
 * of member i (0 <= i < P2, P2 a power of two).
 */
int arcoll_reduce_scatter_halving(void *acc, void *tmp, MPI_Aint count, MPI_Datatype dt,
                                  MPI_Op op, const arcoll_red_typeinfo_t *ti, int newpos,
                                  int P2, const int *nrank, int tag, MPI_Comm comm);

#ifdef __cplusplus
}
#endif
#endif
