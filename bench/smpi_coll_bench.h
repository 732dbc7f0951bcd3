/**
 * @file smpi_coll_bench.h
 * @brief The collectives of bench/smpi_coll_bench.c: one call of a table
 *        entry or of SMPI's own MPI_ collective, with the buffers and count
 *        arrays of a benchmark point (smpi_coll_bench_calls.c).
 *
 * Message size m of a point (bytes; the definition tools/coll-bench.sh and bench/README.md use):
 *  - bcast, reduce, allreduce, scan: the vector of every rank (MPI_DOUBLE,
 *    count m / 8), as MPI_Bcast's count x type size.
 *  - the block collectives (gather, scatter, alltoall, allgather,
 *    reduce_scatter_block and the v-variants allgatherv, gatherv, scatterv,
 *    alltoallv, reduce_scatter): the P blocks of one rank's whole vector, i.e.
 *    the bytes each rank receives in all (allgather, alltoall), the root
 *    receives (gather) or sends (scatter), each rank contributes to the
 *    reduction (reduce_scatter_block: m = P x recvcount x 4); one block is
 *    b = m / P bytes of MPI_FLOAT (c = b / 4 elements).  m must be >= 8 P
 *    (blocks of at least 2 elements, so that the v-variants' 0.5 x block is
 *    not empty) and a multiple of 4 P: bench_effective_m() raises a smaller
 *    m to 8 P (tools/coll-bench.sh names the point by the raised m).
 *  - v-variants: the block of rank r holds c / 2 + (r % 3) c / 2 elements
 *    (0.5, 1, 1.5 x the nominal block: test/apps/coll_loop_v.h); alltoallv:
 *    rank p sends rank q the block size of (p + q) % P.  Their m is the
 *    nominal P x b; the actual bytes differ from it by < 3 % (exact when P
 *    is a multiple of 3).
 */
#ifndef ARCOLL_BENCH_SMPI_COLL_BENCH_H
#define ARCOLL_BENCH_SMPI_COLL_BENCH_H

#include <mpi.h>

#include "coll.h"

typedef enum {
  C_BCAST, C_REDUCE, C_ALLREDUCE, C_SCAN,
  C_GATHER, C_SCATTER, C_ALLTOALL, C_ALLGATHER, C_REDUCE_SCATTER_BLOCK,
  C_ALLGATHERV, C_GATHERV, C_SCATTERV, C_ALLTOALLV, C_REDUCE_SCATTER,
  C_NCOLL
} coll_t;

/** Names (--coll values, the CSV's first field), indexed by coll_t. */
extern const char *const bench_coll_names[C_NCOLL];

/** One point's call: buffers (SMPI-shared), counts (elements) per rank. */
typedef struct bench_call {
  coll_t c;
  int P, me;
  MPI_Aint count;     /**< bcast..scan: m / 8 doubles; block collectives: c (nominal block) */
  void *sbuf, *rbuf;
  MPI_Op op;
  /** v-variants, P each: send / receive counts and displacements (elements),
   *  as MPI_Aint for the algorithms and as int for the MPI_ calls */
  MPI_Aint *scounts, *sdispls, *rcounts, *rdispls;
  int *iscounts, *isdispls, *ircounts, *irdispls;
} bench_call_t;

/** 1 for the block collectives (m = P blocks; header). */
int bench_is_block(coll_t c);

/** The size a point of collective c at requested size m runs with (header):
 *  m itself for bcast..scan, max(m, 8 P) for the block collectives. */
long long bench_effective_m(coll_t c, long long m, int P);

/** Bytes of buffer each of sbuf / rbuf needs for collective c at size m. */
long long bench_buffer_bytes(coll_t c, long long m, int P);

/** Allocates the 8 count arrays of *x for P ranks; 0 on success. */
int bench_call_alloc(bench_call_t *x, int P, int me);
void bench_call_free(bench_call_t *x);

/** Sets the counts of *x for collective c at size m (bytes, already effective)
 *  or, with m < 0, for the smallest call of c (the warm-up). */
void bench_call_set(bench_call_t *x, coll_t c, long long m);

/** The table of collective c and its length. */
const arcoll_algo_desc_t *bench_table(coll_t c, int *n);

/** One call of table entry a with schedule s, or SMPI's MPI_ collective
 *  when a == NULL (root 0).  Returns the MPI error code. */
int bench_run_one(const bench_call_t *x, const arcoll_algo_desc_t *a, const arcoll_sched_t *s);

/** The byte size libarcoll's dispatcher chooses the algorithm of this call
 *  for (adapt/: the vector for bcast..scan, one block for the block
 *  collectives, the largest block for allgatherv / reduce_scatter,
 *  ARCOLL_VBLOCK_NOMINAL_BYTES for gatherv / scatterv,
 *  ARCOLL_ALLTOALLV_CHOICE_BYTES for alltoallv; select.h). */
MPI_Aint bench_choice_bytes(const bench_call_t *x);

#endif
