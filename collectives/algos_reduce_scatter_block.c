/* Algorithm table of reduce_scatter_block (group reduce_scatter_block);
 * declared in reduce_scatter_block.h. */
#include "reduce_scatter_block.h"

#define FN(f) ((void (*)(void))(f))
#define ORD ARCOLL_ALGO_USES_ORDER
#define COMM ARCOLL_ALGO_COMMUTATIVE_ONLY
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define TRG "Thakur, Rabenseifner, Gropp 2005"

const arcoll_algo_desc_t arcoll_reduce_scatter_block_algorithms[] = {
    {"reduce_scatter_block", "recursive_halving",
     FN(arcoll_reduce_scatter_block_recursive_halving), ORD | COMM | ARCOLL_ALGO_FAR_FIRST,
     TRG " recursive halving: T = log2 P t_s + (P-1)/P M (1/B + gamma)"},
    {"reduce_scatter_block", "recursive_halving_near",
     FN(arcoll_reduce_scatter_block_recursive_halving_near), ORD | COMM,
     TRG " recursive halving, near-first order (Open MPI butterfly's): the recursive_halving formula"},
    {"reduce_scatter_block", "pairwise", FN(arcoll_reduce_scatter_block_pairwise), ORD,
     TRG " pairwise exchange, rank order kept: T = (P-1) (t_s + m/B + gamma m)"},
    {"reduce_scatter_block", "ring", FN(arcoll_reduce_scatter_block_ring), ORD | COMM,
     "Patarasuk, Yuan 2009 ring: T = (P-1) (t_s + m/B + gamma m)"},
    {"reduce_scatter_block", "reduce_scatterv", FN(arcoll_reduce_scatter_block_reduce_scatterv), ORD,
     "MPI's definition, Open MPI's default: knomial reduce of P m + binomial scatter: "
     "T = T_reduce_knomial(P m) + T_scatterv_binomial(m, P m)"},
};
const int arcoll_reduce_scatter_block_nalgorithms =
    NELEM(arcoll_reduce_scatter_block_algorithms);
