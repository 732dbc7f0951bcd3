/*
 * Argument checks shared by the interposed collectives (dispatch.h): what
 * arcoll runs and what goes to PMPI (adapt/DISPATCH.md "Passed to PMPI").
 */
#include "dispatch.h"
#include "nbc.h"
#include "reduce_util.h"

/* ---- checks ---------------------------------------------------------------- */

int arcoll_intra(arcoll_coll_t c, MPI_Comm comm, int *P) {
  int flag = 0;
  if (__builtin_expect(!arcoll_g_configured, 0)) arcoll_configure();
  if (arcoll_nbc_active | arcoll_nbc_internal) arcoll_nbc_progress(); /* opportunistic progress (nbc.h) */
  if (arcoll_g_cfg.mode[c] == ARCOLL_MODE_PMPI || comm == MPI_COMM_NULL) return 0;
  const arcoll_comm_state_t *memo = arcoll_state_memo(comm);
  if (memo && memo->intra_multi) return *P = memo->P, 1;
  if (PMPI_Comm_test_inter(comm, &flag) != MPI_SUCCESS || flag) return 0;
  if (PMPI_Comm_size(comm, P) != MPI_SUCCESS || *P <= 1) return 0;
  return 1;
}

/* Per-thread memos of the last named (predefined) datatype's size and of the
 * last predefined op x named datatype pair found valid: predefined handles
 * are never freed, so no other datatype or op ever gets theirs and the memo
 * stays right (a derived datatype or a user op is looked up every call). */
static ARCOLL_TLS struct { int set; MPI_Datatype dt; int size, contiguous; MPI_Aint true_lb; } g_named;
static ARCOLL_TLS struct { int set; MPI_Op op; MPI_Datatype dt; } g_pair;

static int is_named(MPI_Datatype dt) {
  int ni, na, nd, comb;
  return PMPI_Type_get_envelope(dt, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
         comb == MPI_COMBINER_NAMED;
}

int arcoll_type_ok(MPI_Datatype dt, int *size) {
  if (dt == MPI_DATATYPE_NULL) return 0;
  if (g_named.set && dt == g_named.dt) return *size = g_named.size, 1;
  if (PMPI_Type_size(dt, size) != MPI_SUCCESS || *size < 0) return 0;
  if (is_named(dt)) { /* not memoised yet: arcoll_type_contiguous queries dt */
    g_named.contiguous = arcoll_type_contiguous(dt, &g_named.true_lb);
    g_named.dt = dt, g_named.size = *size, g_named.set = 1;
  }
  return 1;
}

int arcoll_type_contiguous(MPI_Datatype dt, MPI_Aint *true_lb) {
  if (g_named.set && dt == g_named.dt) return *true_lb = g_named.true_lb, g_named.contiguous;
  arcoll_red_typeinfo_t ti; /* the reductions' own test of contiguity */
  if (arcoll_red_typeinfo(dt, &ti) != MPI_SUCCESS) return 0;
  *true_lb = ti.true_lb;
  return ti.contiguous;
}

int arcoll_buf_ok(const void *buf, MPI_Aint count, int type_size, MPI_Datatype dt) {
  if (buf != NULL || count == 0 || type_size == 0) return 1;
  int ni, na, nd, comb;
  if (PMPI_Type_get_envelope(dt, &ni, &na, &nd, &comb) != MPI_SUCCESS) return 0;
  return comb != MPI_COMBINER_NAMED; /* MPI_BOTTOM + absolute addresses */
}

static int in_list(MPI_Datatype t, const MPI_Datatype *l, int n) {
  for (int i = 0; i < n; ++i)
    if (l[i] == t) return 1;
  return 0;
}

/* Predefined op x predefined type, the MPI standard's groups (C types only; a
 * Fortran or multi-language type goes to PMPI, which is always correct).
 * Derived types never get here: MPICH 4.0 rejects predefined ops on them even
 * in MPI_Reduce_local, which the algorithms use (MPI_ERR_OP). */
static int predefined_pair_ok(MPI_Op op, MPI_Datatype b) {
  static const MPI_Datatype cint[] = {
      MPI_INT, MPI_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG,
      MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR,
      MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T,
      MPI_UINT32_T, MPI_UINT64_T};
  static const MPI_Datatype fp[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE};
  static const MPI_Datatype cplx[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
                                      MPI_C_LONG_DOUBLE_COMPLEX};
  static const MPI_Datatype pairs[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT,
                                       MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT};
  const int ci = in_list(b, cint, (int)(sizeof cint / sizeof *cint));
  const int fl = in_list(b, fp, 3);
  if (op == MPI_MAX || op == MPI_MIN) return ci || fl;
  if (op == MPI_SUM || op == MPI_PROD) return ci || fl || in_list(b, cplx, 3);
  if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return ci || b == MPI_C_BOOL;
  if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) return ci || b == MPI_BYTE;
  if (op == MPI_MAXLOC || op == MPI_MINLOC) return in_list(b, pairs, 6);
  return 0;
}

int arcoll_op_ok(MPI_Op op, MPI_Datatype dt, int *commutative) {
  if (op == MPI_OP_NULL || op == MPI_REPLACE || op == MPI_NO_OP) return 0;
  const int predefined = op == MPI_MAX || op == MPI_MIN || op == MPI_SUM || op == MPI_PROD ||
                         op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR || op == MPI_BAND ||
                         op == MPI_BOR || op == MPI_BXOR || op == MPI_MAXLOC || op == MPI_MINLOC;
  if (predefined) {
    if (g_pair.set && op == g_pair.op && dt == g_pair.dt) return *commutative = 1, 1;
    if (!is_named(dt) || !predefined_pair_ok(op, dt)) return 0;
    g_pair.op = op, g_pair.dt = dt, g_pair.set = 1;
    *commutative = 1;
    return 1;
  }
  if (PMPI_Op_commutative(op, commutative) != MPI_SUCCESS) return 0;
  return 1;
}

