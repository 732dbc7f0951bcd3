/* Algorithm tables of reduce, allreduce, scan and exscan (group reduce_scan);
 * declared in reduce.h, allreduce.h and scan.h. */
#include "allreduce.h"
#include "reduce.h"
#include "scan.h"

#define FN(f) ((void (*)(void))(f))
#define S000 "seed 000_32450fa7292fe18a.txt"

const arcoll_algo_desc_t arcoll_reduce_algorithms[] = {
    {"reduce", "binomial", FN(arcoll_reduce_binomial), ARCOLL_ALGO_USES_ORDER,
     S000 ": T = log P (t_s + (1/B + t_op) M)", ARCOLL_TREE_BINOMIAL},
    {"reduce", "rsag", FN(arcoll_reduce_rsag),
     ARCOLL_ALGO_COMMUTATIVE_ONLY | ARCOLL_ALGO_USES_ORDER,
     S000 " reduction of segmented message: T = 4 t_s log P + (4/B + t_op) M (P-1)/P; "
          "Rabenseifner 2004; near-first dimension order (MPICH)"},
    {"reduce", "rsag_far", FN(arcoll_reduce_rsag_far),
     ARCOLL_ALGO_COMMUTATIVE_ONLY | ARCOLL_ALGO_USES_ORDER | ARCOLL_ALGO_FAR_FIRST,
     "rsag, far-first dimension order (M/2 exchanged between positions P/2 apart)"},
    {"reduce", "chain", FN(arcoll_reduce_chain), ARCOLL_ALGO_USES_ORDER | ARCOLL_ALGO_SEGMENTED,
     S000 " pipelined chain: T = (k + P - 2)(2 T_send(M/k) + t_op M/k)", ARCOLL_TREE_CHAIN},
    {"reduce", "knomial", FN(arcoll_reduce_knomial), ARCOLL_ALGO_USES_ORDER,
     "k-nomial tree (MVAPICH2 knomial, radix k = 4): T = ceil(log_k P) (k-1) (T_send(M) + t_op M)",
     ARCOLL_TREE_KNOMIAL},
};
const int arcoll_reduce_nalgorithms =
    (int)(sizeof arcoll_reduce_algorithms / sizeof arcoll_reduce_algorithms[0]);

const arcoll_algo_desc_t arcoll_allreduce_algorithms[] = {
    {"allreduce", "recursive_doubling", FN(arcoll_allreduce_recursive_doubling),
     ARCOLL_ALGO_USES_ORDER,
     "Thakur, Rabenseifner, Gropp 2005: T = log P (t_s + M/B + t_op M)"},
    {"allreduce", "rabenseifner", FN(arcoll_allreduce_rabenseifner),
     ARCOLL_ALGO_COMMUTATIVE_ONLY | ARCOLL_ALGO_USES_ORDER,
     "Rabenseifner 2004: T = 2 log P t_s + 2 (P-1)/P M/B + (P-1)/P t_op M; near-first "
     "dimension order (MPICH, Open MPI)"},
    {"allreduce", "rabenseifner_far", FN(arcoll_allreduce_rabenseifner_far),
     ARCOLL_ALGO_COMMUTATIVE_ONLY | ARCOLL_ALGO_USES_ORDER | ARCOLL_ALGO_FAR_FIRST,
     "rabenseifner, far-first dimension order (M/2 exchanged between positions P/2 apart)"},
    {"allreduce", "ring", FN(arcoll_allreduce_ring),
     ARCOLL_ALGO_COMMUTATIVE_ONLY | ARCOLL_ALGO_USES_ORDER | ARCOLL_ALGO_SEGMENTED,
     "Thakur et al. 2005 / Patarasuk-Yuan 2009: T = 2 (P-1)(t_s + M/(P B)) + (P-1)/P t_op M"},
    {"allreduce", "reduce_bcast", FN(arcoll_allreduce_reduce_bcast), ARCOLL_ALGO_USES_ORDER,
     "Open MPI nonoverlapping: binomial reduce (" S000 ": log P (t_s + (1/B + t_op) M)) + "
     "k-nomial bcast"},
};
const int arcoll_allreduce_nalgorithms =
    (int)(sizeof arcoll_allreduce_algorithms / sizeof arcoll_allreduce_algorithms[0]);

#define SCAN_TABLE(coll)                                                                     \
  {#coll, "linear", FN(arcoll_##coll##_linear), 0,                                            \
   S000 ": T = P (2 T_send(M) + T_comp(M))"},                                                 \
  {#coll, "pipeline", FN(arcoll_##coll##_pipeline), ARCOLL_ALGO_SEGMENTED,                    \
   S000 ": T = (k + P)(2 T_send(M/k) + T_comp(M/k))"},                                        \
  {#coll, "pipelined_tree", FN(arcoll_##coll##_pipelined_tree), ARCOLL_ALGO_SEGMENTED,        \
   "in-order binary tree, up/down sweeps pipelined (Sanders, Speck, Traeff 2009 sec. 4, one "  \
   "tree): T = 2 (D - 1) T_send(M/k) + (k - 1) 3 (M/k)/B"},                                    \
  {#coll, "brent_kung", FN(arcoll_##coll##_brent_kung), 0,                                    \
   S000 ": T = (2 log P - 1)(T_send(M) + T_comp(M))"},                                        \
  {#coll, "sqrtp", FN(arcoll_##coll##_sqrtp), 0,                                              \
   S000 ": T = 2 (sqrt(2P) - 3)(T_send(M) + T_comp(M))"},                                     \
  {#coll, "recursive_doubling", FN(arcoll_##coll##_recursive_doubling), 0,                    \
   "MPICH / Thakur et al. 2005: T = log P (T_send(M) + 2 T_comp(M))"},                        \
  {#coll, "direct", FN(arcoll_##coll##_direct), 0,                                            \
   "SMPI scan__default / Open MPI basic: T = T_send(M) + (P-2) X(M) + (P-1) T_comp(M)"}

const arcoll_algo_desc_t arcoll_scan_algorithms[] = {SCAN_TABLE(scan)};
const int arcoll_scan_nalgorithms =
    (int)(sizeof arcoll_scan_algorithms / sizeof arcoll_scan_algorithms[0]);
const arcoll_algo_desc_t arcoll_exscan_algorithms[] = {SCAN_TABLE(exscan)};
const int arcoll_exscan_nalgorithms =
    (int)(sizeof arcoll_exscan_algorithms / sizeof arcoll_exscan_algorithms[0]);
