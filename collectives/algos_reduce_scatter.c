/* Algorithm table of reduce_scatter (group reduce_scatter); declared in
 * reduce_scatter.h. */
#include "reduce_scatter.h"

#define FN(f) ((void (*)(void))(f))
#define ORD ARCOLL_ALGO_USES_ORDER
#define COMM ARCOLL_ALGO_COMMUTATIVE_ONLY
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define TRG "Thakur, Rabenseifner, Gropp 2005"

const arcoll_algo_desc_t arcoll_reduce_scatter_algorithms[] = {
    {"reduce_scatter", "recursive_halving", FN(arcoll_reduce_scatter_recursive_halving),
     ORD | COMM | ARCOLL_ALGO_FAR_FIRST,
     TRG " recursive halving: T = log2 P t_s + sum min(M, P b / 2^i) (1/B + gamma)"},
    {"reduce_scatter", "recursive_halving_near", FN(arcoll_reduce_scatter_recursive_halving_near),
     ORD | COMM,
     TRG " recursive halving, near-first order (Open MPI butterfly's): the recursive_halving formula"},
    {"reduce_scatter", "pairwise", FN(arcoll_reduce_scatter_pairwise), ORD,
     TRG " pairwise exchange, rank order kept: T = (P-1) (t_s + b/B + gamma b)"},
    {"reduce_scatter", "ring", FN(arcoll_reduce_scatter_ring), ORD | COMM,
     "Patarasuk, Yuan 2009 ring: T = (P-1) (t_s + b/B + gamma b)"},
    {"reduce_scatter", "reduce_scatterv", FN(arcoll_reduce_scatter_reduce_scatterv), ORD,
     "MPI's definition, Open MPI's default: knomial reduce of M + binomial scatterv: "
     "T = T_reduce_knomial(M) + T_scatterv_binomial(b, M)"},
};
const int arcoll_reduce_scatter_nalgorithms = NELEM(arcoll_reduce_scatter_algorithms);
