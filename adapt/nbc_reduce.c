/*
 * Schedules of MPI_Ireduce / MPI_Reduce_init and MPI_Iallreduce /
 * MPI_Allreduce_init (nbc.h).  Binomial tree over positions, as the
 * blocking binomial reduce (collectives/reduce_binomial.c): a commutative op
 * uses positions relative to the root; any other op positions = ranks (rank
 * 0 on top, results combined in rank order: the subtree of child position
 * p + 2^k holds ranks [p + 2^k, p + 2^(k+1)), so acc = acc op child for
 * increasing k) and rank 0 sends the result to the root.  Rounds: receive
 * from every child at once into its own temporary, then combine; send to
 * the parent.  Allreduce: with blocks of ARCOLL_NBC_DIRECT_BLOCK bytes or
 * more (P > 2, any op) the direct schedule of nbc_direct.c (2 rounds), above
 * ARCOLL_NBC_DIRECT_MAX_P ranks its two-level form on an a x P/a grid when P
 * has a divisor 2 <= a <= sqrt(P) (nbc_grid.c, 4 rounds); else
 * with a commutative op, P a power of two, count >= P and more than
 * ARCOLL_NBC_ALLREDUCE_RD_BYTES, Rabenseifner's (2004) recursive-halving
 * reduce-scatter then recursive-doubling allgather in recvbuf (2 log2 P
 * rounds; 2 (P-1)/P M/B + (P-1)/P gamma M + 2 log2 P t_s); else with P a
 * power of two recursive doubling (any op, log2 P rounds); otherwise reduce
 * to rank 0 + binomial
 * bcast of (count, dt) from rank 0 (every op; 2 ceil(log2 P) (t_s + M/B +
 * gamma M)).
 */
#include "nbc.h"

/** Largest allreduce (bytes) run by recursive doubling when P = 2^k and the
 *  op is commutative (above: Rabenseifner; non-commutative ops: always). */
#define ARCOLL_NBC_ALLREDUCE_RD_BYTES 8192

/* Reduce of `in` to `root`; the result lands in `out` at the root (out is
 * ignored elsewhere).  ranks_order = 1 forces positions = ranks. */
static void reduce_tree(nbc_sched_t *s, const void *in, void *out, MPI_Aint count,
                        MPI_Datatype dt, MPI_Op op, int root, int P, int ranks_order) {
  int commut = 0;
  PMPI_Op_commutative(op, &commut);
  const int rel = commut && !ranks_order;
  const int top = rel ? root : 0;
  const int me = s->me, mypos = rel ? (me - root + P) % P : me;
#define RANK(p) (rel ? ((p) + root) % P : (p))
  int child[32], nchild = 0;
  for (int mask = 1; mask < P && !(mypos & mask); mask <<= 1)
    if ((mypos | mask) < P) child[nchild++] = mypos | mask;
  const void *cur = in;
  if (nchild) {
    void *tmp[32];
    for (int j = 0; j < nchild; ++j) {
      if (!(tmp[j] = nbc_alloc_elems(s, count, dt))) return;
      nbc_recv(s, tmp[j], count, dt, RANK(child[j]));
    }
    void *acc = (me == top && me == root) ? out : nbc_alloc_elems(s, count, dt);
    if (!acc) return;
    nbc_copy(s, in, acc, count, dt);
    cur = acc;
    for (int j = 0; j < nchild; ++j) {
      if (commut) {
        nbc_reduce(s, tmp[j], acc, count, dt, op); /* acc = child op acc */
      } else {
        nbc_reduce(s, cur, tmp[j], count, dt, op); /* child = acc op child */
        cur = tmp[j];
      }
    }
    nbc_round(s);
  }
  if (mypos != 0) nbc_send(s, cur, count, dt, RANK(mypos & (mypos - 1)));
  else if (me == root) nbc_copy(s, cur, out, count, dt);
  else nbc_send(s, cur, count, dt, root); /* rank 0, non-commutative op */
  if (me == root && me != top) nbc_recv(s, out, count, dt, top);
  nbc_round(s);
#undef RANK
}

void nbc_build_reduce(nbc_sched_t *s, const void *sendbuf, void *recvbuf, MPI_Aint count,
                      MPI_Datatype dt, MPI_Op op, int root, int P) {
  if (count == 0) return;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  reduce_tree(s, in, recvbuf, count, dt, op, root, P, 0);
}

/* first element of block b of P blocks over count elements */
static MPI_Aint disp(int b, MPI_Aint count, int P) {
  return (MPI_Aint)b * (count / P) + (b < count % P ? b : count % P);
}

static void rabenseifner(nbc_sched_t *s, const void *in, void *rbuf, MPI_Aint count,
                         MPI_Datatype dt, MPI_Op op, int P) {
  const int me = s->me;
  const MPI_Aint ext = nbc_extent(dt);
#define AT(b) ((char *)rbuf + disp(b, count, P) * ext)
#define LEN(b0, b1) (disp(b1, count, P) - disp(b0, count, P))
  nbc_copy(s, in, rbuf, count, dt);
  nbc_round(s);
  int lo = 0, hi = P; /* my blocks */
  for (int mask = P >> 1; mask >= 1; mask >>= 1) {
    const int mid = lo + (hi - lo) / 2, peer = me ^ mask;
    const int klo = (me & mask) ? mid : lo, khi = (me & mask) ? hi : mid; /* kept */
    const int slo = (me & mask) ? lo : mid, shi = (me & mask) ? mid : hi; /* sent */
    void *tmp = nbc_alloc_elems(s, LEN(klo, khi), dt);
    if (!tmp) return;
    nbc_send(s, AT(slo), LEN(slo, shi), dt, peer);
    nbc_recv(s, tmp, LEN(klo, khi), dt, peer);
    nbc_reduce(s, tmp, AT(klo), LEN(klo, khi), dt, op); /* commutative: order free */
    nbc_round(s);
    lo = klo, hi = khi;
  }
  for (int mask = 1; mask < P; mask <<= 1) { /* I hold [lo, lo + mask) */
    const int peer = me ^ mask, plo = lo ^ mask;
    nbc_send(s, AT(lo), LEN(lo, lo + mask), dt, peer);
    nbc_recv(s, AT(plo), LEN(plo, plo + mask), dt, peer);
    nbc_round(s);
    if (plo < lo) lo = plo;
  }
#undef AT
#undef LEN
}

/* Recursive doubling, P = 2^k: log2 P rounds of one exchange of the whole
 * vector (Thakur et al. 2005: log2 P (t_s + M/B + gamma M)), half the rounds
 * of reduce + bcast.  After the step of `mask` recvbuf holds the reduction
 * over my aligned group of 2 mask ranks in rank order: the lower group's
 * value is the left operand (non-commutative ops stay correct). */
static void recursive_doubling(nbc_sched_t *s, const void *in, void *rbuf, MPI_Aint count,
                               MPI_Datatype dt, MPI_Op op, int commut, int P) {
  const int me = s->me;
  void *tmp = nbc_alloc_elems(s, count, dt);
  if (!tmp) return;
  nbc_copy(s, in, rbuf, count, dt);
  nbc_round(s); /* local only: runs at the start */
  for (int mask = 1; mask < P; mask <<= 1) {
    const int peer = me ^ mask;
    nbc_send(s, rbuf, count, dt, peer);
    nbc_recv(s, tmp, count, dt, peer);
    if (commut || peer < me) {
      nbc_reduce(s, tmp, rbuf, count, dt, op); /* rbuf = theirs op mine */
    } else {
      nbc_reduce(s, rbuf, tmp, count, dt, op); /* tmp = mine op theirs */
      nbc_copy(s, tmp, rbuf, count, dt);
    }
    nbc_round(s);
  }
}

void nbc_build_allreduce(nbc_sched_t *s, const void *sendbuf, void *recvbuf, MPI_Aint count,
                         MPI_Datatype dt, MPI_Op op, int P) {
  if (count == 0) return;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  int commut = 0, tsize = 0;
  PMPI_Op_commutative(op, &commut);
  PMPI_Type_size(dt, &tsize);
  if (P > 2 && count >= P && nbc_direct_fits(count * tsize, P)) {
    nbc_build_allreduce_direct(s, in, recvbuf, count, dt, op, P);
    return;
  }
  const int grid = count >= P ? nbc_grid_rows(count * tsize, P, P) : 0;
  if (grid) {
    nbc_build_allreduce_grid(s, in, recvbuf, count, dt, op, P, grid);
    return;
  }
  const int pow2 = !(P & (P - 1));
  if (pow2 && commut && count >= P && count * tsize > ARCOLL_NBC_ALLREDUCE_RD_BYTES) {
    rabenseifner(s, in, recvbuf, count, dt, op, P);
    return;
  }
  if (pow2) {
    recursive_doubling(s, in, recvbuf, count, dt, op, commut, P);
    return;
  }
  /* in == recvbuf (MPI_IN_PLACE) is safe: the reduce's last send from it
   * completes before the bcast's receive into it is posted (later round) */
  reduce_tree(s, in, recvbuf, count, dt, op, 0, P, 1);
  /* binomial bcast from rank 0 over positions = ranks */
  const int me = s->me;
  if (me != 0) {
    nbc_recv(s, recvbuf, count, dt, me & (me - 1));
    nbc_round(s);
  }
  int low = 1;
  while (low < P && !(me & low)) low <<= 1; /* children: me + 2^k, 2^k < lowbit(me) */
  for (int mask = low >> 1; mask >= 1; mask >>= 1)
    if (me + mask < P) nbc_send(s, recvbuf, count, dt, me + mask);
  nbc_round(s);
}

nbc_sched_t *nbc_allreduce_doubles(arcoll_comm_state_t *st, const double *mine, int k, MPI_Op op,
                                   double **out) {
  nbc_sched_t *s = nbc_new(st, 0);
  if (!s) return NULL;
  double *in = nbc_alloc(s, (MPI_Aint)(2 * k) * (MPI_Aint)sizeof *in);
  if (!in) {
    nbc_free(s);
    return NULL;
  }
  for (int i = 0; i < k; ++i) in[i] = mine[i]; /* the caller may overwrite mine */
  *out = in + k;
  nbc_build_allreduce(s, in, *out, k, MPI_DOUBLE, op, st->P);
  if (nbc_start_internal(s) != MPI_SUCCESS) return NULL; /* freed by it */
  return s;
}
