/**
 * @file native.h
 * @brief The MPI library's own collective (PMPI) as one more candidate of
 *        the online selection.
 *
 * Why: every algorithm of collectives/ is point-to-point; an MPI library
 * may have paths no point-to-point algorithm reaches (MPICH 4.0.2, 2 ranks
 * on one node, balanced back-to-back calls, median ns per call:
 * MPI_Bcast 8 B 166 - 368 against 302 - 448 through libarcoll, whose
 * fastest algorithm called directly takes 353; bench/bench_noharm.cpp,
 * bench/bench_dispatch.cpp).  Only a measurement can rank it: the model
 * (model.c) has no formula for an unknown implementation, so it is never
 * ranked by select.c and is not in the algorithm tables (nor in
 * `arcoll list-algorithms`); the online selection adds it (adapt/choice.c,
 * ARCOLL_ONLINE_NATIVE).  arcoll_algorithm_find(c, "native") returns it, so
 * ARCOLL_<COLL>_ALGORITHM=native and tuning files may name it.
 *
 * The descriptor's fn has the collective's usual signature (bcast.h,
 * reduce.h, allreduce.h) and calls PMPI_<Coll>, or PMPI_<Coll>_c for a
 * count above INT_MAX (MPI >= 4; MPI_ERR_COUNT before), on the
 * communicator it is given, with the caller's buffers, datatype and op
 * (MPI_IN_PLACE passed through); arcoll_sched_t is ignored (no rank order,
 * no segmentation; flags 0, so no late-rank order is built for it).
 * Returns the library's error code.
 */
#ifndef ARCOLL_COLLECTIVES_NATIVE_H
#define ARCOLL_COLLECTIVES_NATIVE_H

#include "select.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default of ARCOLL_ONLINE_NATIVE (bytes): the native candidate is
 *  measured for messages below it.  The size below which no late-rank order
 *  is built by default (adapt/late_order.h ARCOLL_LATE_DEFAULT_MIN_BYTES): the
 *  native collective cannot take one, so above it keeping it would switch
 *  the late-rank trees off. */
#define ARCOLL_ONLINE_NATIVE_DEFAULT_BYTES 8192

/** Name of the native candidate of every collective that has one. */
#define ARCOLL_NATIVE_NAME "native"

/** The native descriptor of collective c: bcast, reduce and allreduce;
 *  NULL for every other collective. */
const arcoll_algo_desc_t *arcoll_native_algorithm(arcoll_coll_t c);

#ifdef __cplusplus
}
#endif
#endif
