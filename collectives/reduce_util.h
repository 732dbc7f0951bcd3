/**
 * @file reduce_util.h
 * @brief Buffers, local copies, local reductions and position maps shared by
 *        the reduce / allreduce / scan / exscan algorithms (group reduce_scan).
 *
 * Temporary buffers follow MPICH's rule: a buffer for `count` elements of a
 * datatype with true lower bound `true_lb` and true extent `true_extent`
 * (MPI_Type_get_true_extent) and extent `extent` needs
 * true_extent + (count - 1) * extent bytes, and the address handed to MPI is
 * the allocation minus true_lb.  All sizes are in bytes.
 *
 * Operand order: MPI_Reduce_local(in, inout) computes inout = in op inout.
 * arcoll_red_local() below keeps exactly that convention.
 */
#ifndef ARCOLL_COLLECTIVES_REDUCE_UTIL_H
#define ARCOLL_COLLECTIVES_REDUCE_UTIL_H

#include <mpi.h>

#include "coll.h"
#include "tree.h" /* arcoll_floor_pow2 */

#ifdef __cplusplus
extern "C" {
#endif

/** Layout facts of a datatype (bytes). */
typedef struct arcoll_red_typeinfo {
  int size;              /**< MPI_Type_size */
  MPI_Aint lb, extent;   /**< MPI_Type_get_extent */
  MPI_Aint true_lb, true_extent; /**< MPI_Type_get_true_extent */
  int contiguous;        /**< 1 if count elements are size*count contiguous bytes at buf + true_lb */
} arcoll_red_typeinfo_t;

/** A temporary buffer: `buf` is the address to use with MPI (already shifted by -true_lb). */
typedef struct arcoll_red_tmpbuf {
  void *buf;
  void *raw; /**< what to free */
} arcoll_red_tmpbuf_t;

/** Fill `ti`; returns the first error of the MPI_Type_* queries. */
int arcoll_red_typeinfo(MPI_Datatype dt, arcoll_red_typeinfo_t *ti);

/** Address of element `i` of `buf` (i * extent bytes further). */
#define ARCOLL_RED_ELEM(buf, i, ti) ((char *)(buf) + (MPI_Aint)(i) * (ti)->extent)

/** Allocate room for `count` (>= 0) elements of ti's type, laid out from t->buf as
 *  ARCOLL_RED_ELEM places them (negative extents too). MPI_SUCCESS or MPI_ERR_NO_MEM. */
int arcoll_red_tmpbuf_alloc(const arcoll_red_typeinfo_t *ti, MPI_Aint count, arcoll_red_tmpbuf_t *t);
/** Free a buffer from arcoll_red_tmpbuf_alloc (safe on a zeroed one). */
void arcoll_red_tmpbuf_free(arcoll_red_tmpbuf_t *t);

/** dst[0..count) = src[0..count) element-wise for any datatype (memcpy when
 *  contiguous, else MPI_Pack/MPI_Unpack in bounded chunks).  src == dst is a no-op. */
int arcoll_red_copy(const void *src, void *dst, MPI_Aint count, MPI_Datatype dt,
                      const arcoll_red_typeinfo_t *ti);

/** inout = in op inout over `count` elements (MPI_Reduce_local in INT_MAX chunks). */
int arcoll_red_local(const void *in, void *inout, MPI_Aint count, MPI_Datatype dt,
                        MPI_Op op, const arcoll_red_typeinfo_t *ti);

/** 1 if `op` is commutative (MPI_Op_commutative), 0 otherwise (also on error). */
int arcoll_red_op_commutative(MPI_Op op);

/**
 * Position -> rank map for order-honouring (commutative) algorithms:
 * map[pos] = s->order[pos] when s and s->order are set (a permutation with
 * order[0] == root for rooted collectives), else (root + pos) % P (root = 0
 * for unrooted collectives).  *mypos receives the caller's position.
 * @return MPI_SUCCESS, MPI_ERR_NO_MEM, or MPI_ERR_ARG if the order is not a
 *         permutation of 0..P-1 or order[0] != root (pass root < 0 to skip
 *         that check).  Free *map with free().
 */
int arcoll_red_pos_map(const int *order, int P, int root, int me, int **map, int *mypos);

/** Send/receive `count` elements which may exceed INT_MAX (split in INT_MAX pieces). */
int arcoll_red_sendrecv(const void *sbuf, MPI_Aint scount, int dst, void *rbuf,
                        MPI_Aint rcount, int src, MPI_Datatype dt, const arcoll_red_typeinfo_t *ti,
                        int tag, MPI_Comm comm);
int arcoll_red_send(const void *buf, MPI_Aint count, int dst, MPI_Datatype dt,
                    const arcoll_red_typeinfo_t *ti, int tag, MPI_Comm comm);
int arcoll_red_recv(void *buf, MPI_Aint count, int src, MPI_Datatype dt,
                    const arcoll_red_typeinfo_t *ti, int tag, MPI_Comm comm);

/** What every reduce / allreduce algorithm reads before it communicates. */
typedef struct arcoll_red_call {
  int P, me;              /**< communicator size and rank */
  int tag;                /**< s->tag (0 when s is NULL) */
  arcoll_red_typeinfo_t ti;
} arcoll_red_call_t;

/**
 * What every reduction algorithm (reduce, allreduce, scan, exscan) reads
 * first: fills *c (P, me, the type's info, tag).  *done = 1 (and
 * MPI_SUCCESS) when there is nothing to do: count <= 0 or a zero-size type.
 * Returns the first error of an MPI call, else MPI_SUCCESS.
 */
int arcoll_red_call_init(MPI_Aint count, MPI_Datatype dt, MPI_Comm comm, int tag,
                         arcoll_red_call_t *c, int *done);

/**
 * Common start of the reduce (`allreduce` = 0) and allreduce (`allreduce` =
 * 1) algorithms: fills *c.  Allreduce: the input is copied into recvbuf
 * unless sendbuf is MPI_IN_PLACE.  Sets *done = 1 (and returns MPI_SUCCESS)
 * when no communication is needed: count <= 0 or a zero-size type (nothing
 * to do), or P == 1 (recvbuf then holds the input; for reduce it is copied
 * there).  Returns the first error of an MPI call otherwise MPI_SUCCESS.
 */
int arcoll_red_begin(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                     MPI_Comm comm, const arcoll_sched_t *s, int allreduce,
                     arcoll_red_call_t *c, int *done);

/**
 * Links of position mypos (0..P-1) in the k-nomial reduce tree (k >= 2; k = 2 is binomial):
 * position p has children p + j u (j = 1 .. k-1) at every level u = 1, k, k^2, ... with
 * p mod (u k) == 0, nearest first; its parent is p - p mod (u k) at the first other u.
 * Detached positions (det[p] != 0; det NULL: none) send to position 0, which takes them after
 * its tree children, in ascending position; their tree parent does not list them.  Writes the
 * children into child[] (room for P; NULL: only counted), *parent (-1 at position 0, 0 when
 * det[mypos]); returns the number of children.  Used by the k-nomial reduce (reduce_knomial.c)
 * and its detaching body (reduce_knomial_detach.c).
 */
int arcoll_red_knomial_links(int mypos, int P, int k, const unsigned char *det, int *child,
                             int *parent);

/** What the rooted reduce algorithms over a tree or chain of positions
 *  (binomial, chain) read first, after arcoll_red_begin(). */
typedef struct arcoll_red_tree_call {
  arcoll_red_call_t c;
  const void *in;  /**< the input: sendbuf, or recvbuf when sendbuf is MPI_IN_PLACE */
  int commut;      /**< 1 if the op is commutative */
  int *map;        /**< commutative op: position -> rank (arcoll_red_pos_map, root at position
                        0; free()); else NULL: positions are ranks, rank 0 at the top */
  int mypos;       /**< the caller's position */
  int top_is_root; /**< 1 if position 0 is the root (commutative op, or root == 0); else
                        rank 0 sends the result to the root at the end */
} arcoll_red_tree_call_t;

/**
 * arcoll_red_begin() (reduce) and then the fields above.  *done as
 * arcoll_red_begin.  Returns its error, or arcoll_red_pos_map's
 * (MPI_ERR_NO_MEM, MPI_ERR_ARG for a bad s->order), else MPI_SUCCESS.
 */
int arcoll_red_tree_begin(const void *sendbuf, void *recvbuf, MPI_Aint count, MPI_Datatype dt,
                          MPI_Op op, int root, MPI_Comm comm, const arcoll_sched_t *s,
                          arcoll_red_tree_call_t *t, int *done);

#ifdef __cplusplus
}
#endif
#endif
