/* Algorithm table of allgatherv (irregular group allgather); declared in
 * allgatherv.h. */
#include "allgatherv.h"

#define FN(f) ((void (*)(void))(f))
#define ORD ARCOLL_ALGO_USES_ORDER
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define TRG "Thakur, Rabenseifner, Gropp 2005"

const arcoll_algo_desc_t arcoll_allgatherv_algorithms[] = {
    {"allgatherv", "ring", FN(arcoll_allgatherv_ring), ORD,
     TRG " ring: T = (P-1) (t_s + b_max/B)"},
    {"allgatherv", "neighbor_exchange", FN(arcoll_allgatherv_neighbor_exchange), ORD,
     "Chen, Liu, Tseng, Yeh 2005 neighbor exchange (Open MPI), P even: "
     "T = T(b_max) + (P/2 - 1) T(2 b_max); P odd: the ring"},
    {"allgatherv", "recursive_doubling", FN(arcoll_allgatherv_recursive_doubling), ORD,
     TRG " recursive doubling (+ fold when P is not 2^n): "
         "T = log2 P t_s + sum min(2^i b_max, M)/B"},
    {"allgatherv", "bruck", FN(arcoll_allgatherv_bruck), ORD,
     "Bruck, Ho, Kipnis, Upfal, Weathersby 1997: T = ceil(log2 P) t_s + sum min(k b_max, M)/B"},
    {"allgatherv", "gather_bcast", FN(arcoll_allgatherv_gather_bcast), ORD,
     "binomial gather + binomial bcast of block sets: T = gather(b_max, M) + log2 P T(M)"},
    {"allgatherv", "direct", FN(arcoll_allgatherv_direct), ORD,
     "direct (SMPI default, MPICH linear), windows of 32 steps: T = W T(0) + (P-1) X(b_max)"},
    {"allgatherv", "linear_knomial", FN(arcoll_allgatherv_linear_knomial), ORD,
     "linear gather + k-nomial bcast (Open MPI's small allgatherv: gatherv + bcast): "
     "T = T(b_max) + (P-2) g(b_max) + ceil(log_k P) (T(M) + (k-2) g(M))"},
};
const int arcoll_allgatherv_nalgorithms = NELEM(arcoll_allgatherv_algorithms);
