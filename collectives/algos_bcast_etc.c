/* Algorithm tables of bcast, gather, scatter, alltoall and barrier (group
 * bcast_etc); declared in bcast.h, gather.h and alltoall.h. */
#include "alltoall.h"
#include "bcast.h"
#include "gather.h"

#define FN(f) ((void (*)(void))(f))
#define S000 "seed 000_32450fa7292fe18a.txt"
#define S003 "seed 003_e288917cd7e80de5.txt"
#define ORD ARCOLL_ALGO_USES_ORDER
#define SEG ARCOLL_ALGO_SEGMENTED
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

const arcoll_algo_desc_t arcoll_bcast_algorithms[] = {
    {"bcast", "binomial", FN(arcoll_bcast_binomial), ORD | SEG,
     S000 ": T = (t_s + M/B) log P", ARCOLL_TREE_BINOMIAL},
    {"bcast", "chain", FN(arcoll_bcast_chain), ORD | SEG,
     S000 " pipelined chain: T = (k + P - 2) 2 T_send(M/k), k_opt = sqrt((P-2) M / (B t_s))",
     ARCOLL_TREE_CHAIN},
    {"bcast", "twopath", FN(arcoll_bcast_twopath), ORD | SEG,
     S000 " 2-path pipeline: T = (k + P/2 - 2) 2 T_send(M/k)"},
    {"bcast", "ksegment", FN(arcoll_bcast_ksegment), ORD,
     S000 " k-segment: T = (3k + P/k - 4) T_send(M/k), k = P/2"},
    {"bcast", "nebst", FN(arcoll_bcast_nebst), ORD | SEG,
     S000 " nEBST: T = 3 log P (t_s + M/(B log P))"},
    {"bcast", "scatter_ring", FN(arcoll_bcast_scatter_ring), ORD,
     "van de Geijn; Thakur, Rabenseifner, Gropp 2005: "
     "T = log P t_s + (P-1)/P M/B + (P-1)(t_s + M/(P B))"},
    {"bcast", "scatter_rdb", FN(arcoll_bcast_scatter_rdb), ORD,
     "van de Geijn; Thakur, Rabenseifner, Gropp 2005 (MPICH scatter + recursive doubling "
     "allgather): T = 2 log P t_s + 2 (P-1)/P M/B; P not a power of two: scatter_ring"},
    {"bcast", "twotree", FN(arcoll_bcast_twotree), ORD | SEG,
     "Sanders, Speck, Traff 2009 (simplified two-tree): T ~ 2 (k/2 + 2 log P) T_send(M/k)"},
    {"bcast", "linear", FN(arcoll_bcast_linear), ORD | SEG,
     "flat tree (MPICH / Open MPI basic linear): T = T_send(M) + (P-2) X(M)", ARCOLL_TREE_LINEAR},
    {"bcast", "knomial", FN(arcoll_bcast_knomial), ORD | SEG,
     "k-nomial tree (MPICH / MVAPICH2 knomial, radix k = 4): "
     "T = sum_i [T_send(M) + ((k-1)(D-i) - 1) X(M)], D = ceil(log_k P)", ARCOLL_TREE_KNOMIAL},
    {"bcast", "compressed", FN(arcoll_bcast_compressed), ORD | SEG,
     "seed 004_045dc3534e1f0a8b.txt (ZipMPI) compressed chain: T = C + (P-1) T_send(s/r) + "
     "(k-1) max(C, T_send(s/r), D) + D, C = s/Vc, D = s/Vd, s = M/k", ARCOLL_TREE_CHAIN},
    {"bcast", "binary", FN(arcoll_bcast_binary), ORD | SEG,
     "pipelined binary tree (MPICH / Open MPI segmented binary tree): "
     "T = (k + 2 floor(log2 P) - 1) T_send(M/k) approx.", ARCOLL_TREE_BINARY},
};
const int arcoll_bcast_nalgorithms = NELEM(arcoll_bcast_algorithms);

const arcoll_algo_desc_t arcoll_gather_algorithms[] = {
    {"gather", "linear", FN(arcoll_gather_linear), 0, S000 ": T = (P-1) T_send(m)",
     ARCOLL_TREE_LINEAR},
    {"gather", "binomial", FN(arcoll_gather_binomial), ORD,
     "Thakur, Rabenseifner, Gropp 2005: T = log P t_s + (P-1) m/B", ARCOLL_TREE_BINOMIAL},
    {"gather", "compressed", FN(arcoll_gather_compressed), 0,
     "seed 004_045dc3534e1f0a8b.txt (ZipMPI) compressed linear gather: T = C + T(m/r) + "
     "(P-2) max(X(m/r), D) + D, each block compressed by its sender"},
};
const int arcoll_gather_nalgorithms = NELEM(arcoll_gather_algorithms);

const arcoll_algo_desc_t arcoll_scatter_algorithms[] = {
    {"scatter", "linear", FN(arcoll_scatter_linear), 0, S000 ": T = (P-1) T_send(m)",
     ARCOLL_TREE_LINEAR},
    {"scatter", "binomial", FN(arcoll_scatter_binomial), ORD,
     "Thakur, Rabenseifner, Gropp 2005: T = log P t_s + (P-1) m/B", ARCOLL_TREE_BINOMIAL},
};
const int arcoll_scatter_nalgorithms = NELEM(arcoll_scatter_algorithms);

const arcoll_algo_desc_t arcoll_alltoall_algorithms[] = {
    {"alltoall", "linear", FN(arcoll_alltoall_linear), ORD, S003 " linear: N steps"},
    {"alltoall", "pairwise", FN(arcoll_alltoall_pairwise), ORD,
     S003 " pairwise (partner = me ^ i): T = (P-1) T_send(m)"},
    {"alltoall", "bruck", FN(arcoll_alltoall_bruck), ORD,
     S003 " shuffle-exchange; Bruck et al. 1997: T = log P (t_s + (P/2) m/B)"},
    {"alltoall", "compressed", FN(arcoll_alltoall_compressed), ORD,
     "seed 004_045dc3534e1f0a8b.txt (ZipMPI) compressed linear alltoall: T = C + T(m/r) + "
     "(P-2) max(C, X(m/r), D) + D, each block compressed by its sender"},
};
const int arcoll_alltoall_nalgorithms = NELEM(arcoll_alltoall_algorithms);

const arcoll_algo_desc_t arcoll_barrier_algorithms[] = {
    {"barrier", "dissemination", FN(arcoll_barrier_dissemination), ORD,
     "Hensgen, Finkel, Manber 1988: T = ceil(log2 P) 2 t_s"},
};
const int arcoll_barrier_nalgorithms = NELEM(arcoll_barrier_algorithms);
