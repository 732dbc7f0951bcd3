/* Algorithm table of allgather (group allgather); declared in allgather.h. */
#include "allgather.h"

#define FN(f) ((void (*)(void))(f))
#define ORD ARCOLL_ALGO_USES_ORDER
#define SEG ARCOLL_ALGO_SEGMENTED
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define TRG "Thakur, Rabenseifner, Gropp 2005"

const arcoll_algo_desc_t arcoll_allgather_algorithms[] = {
    {"allgather", "ring", FN(arcoll_allgather_ring), ORD, TRG " ring: T = (P-1) (t_s + m/B)"},
    {"allgather", "neighbor_exchange", FN(arcoll_allgather_neighbor_exchange), ORD,
     "Chen, Liu, Tseng, Yeh 2005 neighbor exchange (Open MPI), P even: "
     "T = T(m) + (P/2 - 1) T(2m); P odd: the ring"},
    {"allgather", "recursive_doubling", FN(arcoll_allgather_recursive_doubling), ORD,
     TRG " recursive doubling (+ fold when P is not 2^n): "
         "T = log2 P t_s + (P-1) m/B"},
    {"allgather", "bruck", FN(arcoll_allgather_bruck), ORD,
     "Bruck, Ho, Kipnis, Upfal, Weathersby 1997: T = ceil(log2 P) t_s + (P-1) m/B"},
    {"allgather", "gather_bcast", FN(arcoll_allgather_gather_bcast), ORD | SEG,
     "binomial gather + binomial bcast: T = gather(m) + bcast(P m)"},
    {"allgather", "compressed", FN(arcoll_allgather_compressed), ORD,
     "seed 004_045dc3534e1f0a8b.txt (ZipMPI) compressed ring: T = C + (P-1) T(m/r) + D, "
     "each block compressed once by its owner"},
    {"allgather", "direct", FN(arcoll_allgather_direct), ORD,
     "direct (SMPI default, MPICH linear), windows of 32 steps: T = W T(0) + (P-1) X(m)"},
};
const int arcoll_allgather_nalgorithms = NELEM(arcoll_allgather_algorithms);
