/* Algorithm tables of gatherv and scatterv (counts significant only at the
 * root); declared in gatherv.h. */
#include "gatherv.h"

#define FN(f) ((void (*)(void))(f))
#define ORD ARCOLL_ALGO_USES_ORDER
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define S000 "seed 000_32450fa7292fe18a.txt"
#define TRG "Thakur, Rabenseifner, Gropp 2005"

const arcoll_algo_desc_t arcoll_gatherv_algorithms[] = {
    {"gatherv", "linear", FN(arcoll_gatherv_linear), 0,
     S000 ": T = T(0) + (P-1) X(M/P) (every block through the root's link)", ARCOLL_TREE_LINEAR},
    {"gatherv", "binomial", FN(arcoll_gatherv_binomial), ORD,
     TRG " binomial gather, subtree streams (length in the first message): T = sum_l T(min(2^l b_max, M))",
     ARCOLL_TREE_BINOMIAL},
};
const int arcoll_gatherv_nalgorithms = NELEM(arcoll_gatherv_algorithms);

const arcoll_algo_desc_t arcoll_scatterv_algorithms[] = {
    {"scatterv", "linear", FN(arcoll_scatterv_linear), 0,
     S000 ": T = T(0) + (P-1) X(M/P) (every block through the root's link)", ARCOLL_TREE_LINEAR},
    {"scatterv", "binomial", FN(arcoll_scatterv_binomial), ORD,
     TRG " binomial scatter, per-position byte headers: T = sum_l T(min(2^l b_max, M))",
     ARCOLL_TREE_BINOMIAL},
};
const int arcoll_scatterv_nalgorithms = NELEM(arcoll_scatterv_algorithms);
