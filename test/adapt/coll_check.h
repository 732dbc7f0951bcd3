/*
 * coll_check's parts (coll_check.c): its data (coll_check_data.c) and its
 * errors mode (coll_check_errors.c).  Prefixed cc_: the SMPI build links
 * the program with libarcoll and SimGrid in one process.
 */
#ifndef ARCOLL_TEST_ADAPT_COLL_CHECK_H
#define ARCOLL_TEST_ADAPT_COLL_CHECK_H

#include <mpi.h>

/* ---- data (coll_check_data.c) ----
 * Element types: MPI_INT, MPI_DOUBLE, a non-contiguous vector (ints 0 and 3
 * of every 4, extent 16 bytes; the gap ints hold GAP and must stay so), a
 * 2x2 int matrix (4 contiguous ints).  Reductions: int MPI_SUM, double
 * MPI_MAX, vector a user-defined commutative sum, matrix a user-defined
 * NON-commutative product mod 10007. */
enum { T_INT, T_DBL, T_VEC, T_MAT, NT };
#define GAP (-7)
extern const char *cc_tname[NT];
MPI_Datatype cc_dtype(int t);
MPI_Op cc_rop(int t);            /* the reduction of type t */
long cc_extent_bytes(int t);     /* bytes of one element's extent */
long cc_data_bytes(int t);       /* bytes of one element's data (no gaps) */
int cc_ival(int id, int rank, long i);  /* the i-th int of rank's input to call id */
/* elements 0..n-1 of rank's input to call id, written into buf */
void cc_fill(int t, void *buf, long n, int id, int rank);
void *cc_alloc_blocks(int t, long n);  /* n elements (at least 1), every int GAP; free() it */
long cc_diff(int t, const void *got, const void *exp, long n);  /* ints that differ, gaps included */
/* reference reduction of the inputs of ranks lo..hi (inclusive, in rank order) into out */
void cc_ref_reduce(int t, void *out, long n, int id, int lo, int hi);
void cc_data_create(void);  /* the derived types and user ops (after MPI_Init) */
void cc_data_free(void);

/* Mode "errors" (coll_check_errors.c): error classes as PMPI's, pass-through
 * communicators; P, me: size of and rank in MPI_COMM_WORLD; adds its checks
 * and failures to *checked and *failures. */
void cc_mode_errors(int P, int me, long *checked, long *failures);

#endif
