/**
 * @file scan_impl.h
 * @brief Internal pieces shared by the scan/exscan algorithms (scan.h).
 */
#ifndef ARCOLL_COLLECTIVES_SCAN_IMPL_H
#define ARCOLL_COLLECTIVES_SCAN_IMPL_H

#include <mpi.h>

#include "reduce_util.h"

/** Inclusive-scan kernel: on entry incl holds x_me, on return x_0 op ... op x_me;
 *  tmp is scratch for count elements.  Implemented by brent_kung and sqrtp. */
typedef int (*arcoll_scan_kernel)(void *incl, void *tmp, MPI_Aint count, MPI_Datatype dt,
                                  MPI_Op op, const arcoll_red_typeinfo_t *ti, int k, int tag,
                                  MPI_Comm comm);

/**
 * Chain scan 0 -> 1 -> ... -> P-1 in segments of seg_bytes (<= 0: one
 * segment): inclusive (exclusive = 0) or exclusive (exclusive = 1).  Used by
 * the linear and pipelined algorithms.
 */
int arcoll_scan_chain(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                      MPI_Op op, MPI_Aint seg_bytes, int exclusive, int tag, MPI_Comm comm);

/**
 * Run an inclusive kernel for MPI_Scan (exclusive = 0: result in recvbuf) or
 * MPI_Exscan (exclusive = 1: inclusive result in a temporary, then shifted one
 * rank up: rank i > 0 receives rank i-1's inclusive value; rank 0's recvbuf
 * is untouched).
 */
int arcoll_scan_run_kernel(arcoll_scan_kernel kernel, const void *sendbuf, void *recvbuf,
                           MPI_Aint count, MPI_Datatype dt, MPI_Op op, int k, int exclusive,
                           int tag, MPI_Comm comm);

#endif
