/**
 * @file model_ext.h
 * @brief Cost formulas kept outside model.c (internal to collectives/):
 *        one function per collective, called by arcoll_model_predict()
 *        (select.h) for P > 1 and bytes > 0.  Units: seconds, bytes.
 */
#ifndef ARCOLL_COLLECTIVES_MODEL_EXT_H
#define ARCOLL_COLLECTIVES_MODEL_EXT_H

#include "select.h"

/**
 * Predicted time of allgather algorithm `name` (allgather.h) for P ranks,
 * blocks of m bytes, broadcast segment `seg` (gather_bcast only); < 0 when
 * there is no formula for `name`.  Message times from the model's inter-node
 * parameters and curve (arcoll_model_p2p), as model.c.  Defined in
 * model_allgather.c.
 */
double arcoll_model_allgather(const arcoll_model_t *md, const char *name, int P, double m,
                              MPI_Aint seg);

/**
 * Predicted time of allgatherv algorithm `name` (allgatherv.h) for P ranks,
 * largest block b bytes and all blocks together M bytes (b <= M <= P b);
 * < 0 when there is no formula for `name`.  arcoll_model_predict() calls it
 * with b = its `bytes` (the dispatcher's size: the largest block) and
 * M = P b (balanced blocks, the bound).  Defined in model_allgatherv.c.
 */
double arcoll_model_allgatherv(const arcoll_model_t *md, const char *name, int P, double b,
                               double M);

/**
 * Predicted time of gatherv / scatterv algorithm `name` (gatherv.h; both
 * directions cost the same) for P ranks, largest block b bytes and all
 * blocks together M bytes (b <= M <= P b): linear max(T(b), T(0) + (P-1)
 * X(M/P)), binomial sum_{k=1,2,4..<P} T(min(k b, M)); < 0 when there is no
 * formula for `name`.  arcoll_model_predict() calls it with b = its `bytes`
 * and M = P b: the dispatcher passes one nominal block size
 * (adapt/vblocks.c), since only the root knows the counts.  Defined in
 * model_gatherv.c.
 */
double arcoll_model_gatherv(const arcoll_model_t *md, const char *name, int P, double b,
                            double M);

/**
 * Predicted time of reduce_scatter_block algorithm `name`
 * (reduce_scatter_block.h) for P ranks and blocks of m bytes; < 0 when there
 * is no formula for `name`.  arcoll_model_reduce_scatter(md, name, P, m,
 * P m).  Defined in model_reduce_scatter.c.
 */
double arcoll_model_reduce_scatter_block(const arcoll_model_t *md, const char *name, int P,
                                         double m);

/**
 * Predicted time of reduce_scatter algorithm `name` (reduce_scatter.h) for
 * P ranks, largest block b bytes and all blocks together M bytes
 * (b <= M <= P b); < 0 when there is no formula for `name`.
 * arcoll_model_predict() calls it with b = its `bytes` (the dispatcher's
 * size: the largest block) and M = P b (the bound).  Defined in
 * model_reduce_scatter.c.
 */
double arcoll_model_reduce_scatter(const arcoll_model_t *md, const char *name, int P, double b,
                                   double M);

/**
 * Predicted time of alltoallv algorithm `name` (alltoallv.h) for P ranks
 * and blocks of m bytes; < 0 when there is no formula for `name`.  linear:
 * ceil((P-1)/32) T(0) + (P-1) (T(m) - T(0)); pairwise: (P-1) T(m).
 * arcoll_model_predict() passes its `bytes` (adapt/alltoallv.c: a fixed
 * size, the counts being known only per rank).  Defined in
 * model_alltoallv.c.
 */
double arcoll_model_alltoallv(const arcoll_model_t *md, const char *name, int P, double m);

/**
 * Copies of the whole message that the busiest rank of broadcast algorithm
 * `name` sends per call (P ranks, radix / segment count kp where the
 * algorithm has one): what sets the period of back-to-back calls, when each
 * call's segments stream behind the previous call's (select.h
 * arcoll_select_stream).  chain 1, binary / twopath / ksegment / scatter_ring /
 * scatter_rdb / twotree 2, binomial and nebst ceil(log2 P), knomial
 * (r - 1) ceil(log_r P), linear P - 1; < 0 when unknown (compressed: the
 * data decide).  Defined in model_bcast.c.
 */
double arcoll_model_bcast_copies(const char *name, int P, int kp);

#endif
