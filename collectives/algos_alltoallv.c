/* Algorithm table of alltoallv (group alltoallv); declared in alltoallv.h. */
#include "alltoallv.h"

#define FN(f) ((void (*)(void))(f))
#define ORD ARCOLL_ALGO_USES_ORDER
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

const arcoll_algo_desc_t arcoll_alltoallv_algorithms[] = {
    {"alltoallv", "linear", FN(arcoll_alltoallv_linear), ORD,
     "MPICH alltoallv scattered (windows of 32 isend/irecv): T = ceil((P-1)/32) t_s + (P-1) m/B"},
    {"alltoallv", "pairwise", FN(arcoll_alltoallv_pairwise), ORD,
     "MPICH alltoallv pairwise exchange: T = (P-1) (t_s + m/B)"},
};
const int arcoll_alltoallv_nalgorithms = NELEM(arcoll_alltoallv_algorithms);
