/* Performance model of the collectives (select.h): the built-in default model
 * and one predicted-time formula per algorithm of every table.
 *
 * Starting point: the formulas of seed 000_32450fa7292fe18a.txt (see the table
 * entries' `source` strings); departures are listed in collectives/README.md
 * ("Model") and next to each formula below.  The main ones:
 *  - message times come from the measured curves when the model file has
 *    them: T(m), the one-way time of a message alone, and X(m), its link
 *    occupancy in a stream (select.h); else T(m) = t_s + m/B, X = max(g, m/B);
 *  - a send-receive step costs ONE T(m) (full-duplex links, the codes post
 *    MPI_Irecv/MPI_Isend or MPI_Sendrecv), not the seed's 2 T_send;
 *  - n messages sent at once through one link share it (max-min, as SimGrid
 *    and real NICs): T(m) + (n-1) X(m); so an unsegmented binomial tree costs
 *    sum_{i=1..L} (T(M) + (i-1) X(M)), not L T_send(M);
 *  - a pipeline of k segments with a window of 8 in flight: the sum of its
 *    stages' fill times plus (k - 8) periods of the slowest stage (pipeline());
 *  - the codes' own behaviour where SMPI measurements showed it (twotree and
 *    nebst do not pipeline; ksegment's ring steps; eager vs rendezvous
 *    scatter pieces).
 * Every formula uses the inter-node parameters (conservative: a P-rank
 * collective on several nodes is bounded by its inter-node messages).
 */
#include <math.h>
#include <string.h>

#include "model_ext.h"
#include "scan.h" /* ARCOLL_SCAN_TREE_WINDOW */
#include "select.h"
#include "tree_inorder.h"

void arcoll_model_default(arcoll_model_t *m) {
  memset(m, 0, sizeof *m);
  /* Inter-node: 10 Gb/s Ethernet-class network, MPICH ch4 over TCP or a
   * 10 Gb/s RDMA NIC.  Half round trip of a 0-byte ping-pong ~ 5 us; an
   * effective 9 Gb/s = 1.125e9 B/s on large messages.  LogGP: o = 1 us
   * per send/receive call, gap 1.5 us between back-to-back small messages,
   * L = t_s - 2 o = 3 us, G = 1/B. */
  m->inter.t_s = 5e-6;
  m->inter.B = 1.125e9;
  m->inter.o = 1e-6;
  m->inter.g = 1.5e-6;
  m->inter.L = 3e-6;
  m->inter.G = 1.0 / 1.125e9;
  /* Intra-node: shared memory, ~0.5 us latency, ~5 GB/s copy bandwidth. */
  m->intra.t_s = 0.5e-6;
  m->intra.B = 5e9;
  m->intra.o = 0.15e-6;
  m->intra.g = 0.2e-6;
  m->intra.L = 0.2e-6;
  m->intra.G = 1.0 / 5e9;
  /* MPI_SUM on doubles, memory bound: ~0.25 ns per byte (4 GB/s). */
  m->gamma = 0.25e-9;
  strcpy(m->source, "built-in default");
}

double arcoll_model_p2p(const arcoll_p2p_params_t *p, const arcoll_p2p_curve_t *c, double m) {
  if (m < 0) m = 0;
  if (c && c->n >= 2) {
    int i = 1;
    while (i < c->n - 1 && c->bytes[i] < m) ++i;
    if (m <= c->bytes[c->n - 1]) {
      double x0 = c->bytes[i - 1], x1 = c->bytes[i], y0 = c->seconds[i - 1], y1 = c->seconds[i];
      return y0 + (y1 - y0) * (m - x0) / (x1 - x0);
    }
    double G = p->G > 0 ? p->G : 1.0 / p->B;
    return c->seconds[c->n - 1] + (m - c->bytes[c->n - 1]) * G;
  }
  return p->t_s + m / p->B;
}

double arcoll_model_gap(const arcoll_p2p_params_t *p, const arcoll_p2p_curve_t *gc, double m) {
  if (m < 0) m = 0;
  if (gc && gc->n >= 2) {
    int i = 1;
    while (i < gc->n - 1 && gc->bytes[i] < m) ++i;
    if (m <= gc->bytes[gc->n - 1]) {
      double x0 = gc->bytes[i - 1], x1 = gc->bytes[i], y0 = gc->seconds[i - 1], y1 = gc->seconds[i];
      return y0 + (y1 - y0) * (m - x0) / (x1 - x0);
    }
    double G = p->G > 0 ? p->G : 1.0 / p->B;
    return gc->seconds[gc->n - 1] + (m - gc->bytes[gc->n - 1]) * G;
  }
  double x = m / p->B;
  return x > p->g ? x : p->g;
}

#include "model_cost.h"

/* ----------------------------------------------------------------- reduce */

static double reduce(const cost_t *c, const char *name, int P, double M, MPI_Aint seg, int kp) {
  const int L = arcoll_ceil_log2(P), P2 = arcoll_floor_pow2(P), L2 = arcoll_ceil_log2(P2);
  if (!strcmp(name, "binomial")) /* seed 000: log P (t_s + (1/B + t_op) M) */
    return L * (tsend(c, M) + M * c->gm);
  if (!strcmp(name, "knomial")) {
    /* D = ceil(log_k P) levels; at each the k-1 children's messages arrive
     * through the parent's link at once (receives posted up front), then
     * k-1 combines (k = 2: the binomial formula). */
    const int k = kp >= 2 ? kp : ARCOLL_KNOMIAL_RADIX;
    int D = 0;
    for (long u = 1; u < P && D < 64; u *= k) ++D;
    return D * (shared(c, k - 1, M) + (k - 1) * M * c->gm);
  }
  if (!strcmp(name, "rsag") || !strcmp(name, "rsag_far")) { /* same on a flat network */
    /* Seed 000: 4 t_s log P + (4/B + t_op) M (P-1)/P with 2 T_send per
     * exchange; here one (full duplex): reduce-scatter by halving then
     * binomial gather of the blocks (messages M/2, M/4, ... each way),
     * + a fold of the extra ranks when P is not 2^n. */
    double t = 0, piece = M;
    for (int i = 0; i < L2; ++i) {
      piece /= 2;
      t += 2 * tsend(c, piece) + piece * c->gm;
    }
    if (P != P2) t += tsend(c, M) + M * c->gm;
    return t;
  }
  if (!strcmp(name, "chain")) {
    /* Seed 000: (k + P - 2)(2 T_send(M/k) + t_op M/k); one message per hop
     * and the window (pipeline()). */
    double k = nsegments(M, seg);
    return pipeline(c, NULL, P - 1, k, M / k, c->gm);
  }
  return -1;
}

/* -------------------------------------------------------------- allreduce */

static double allreduce(const cost_t *c, const char *name, int P, double M, MPI_Aint seg) {
  const int P2 = arcoll_floor_pow2(P), L2 = arcoll_ceil_log2(P2);
  const double fold = P != P2 ? 2 * tsend(c, M) + M * c->gm : 0;
  if (!strcmp(name, "recursive_doubling"))
    return L2 * (tsend(c, M) + M * c->gm) + fold;
  if (!strcmp(name, "rabenseifner") || !strcmp(name, "rabenseifner_far")) {
    /* 2 log P t_s + 2 (P-1)/P M/B + (P-1)/P gamma M, as its messages */
    double t = 0, piece = M;
    for (int i = 0; i < L2; ++i) {
      piece /= 2;
      t += 2 * tsend(c, piece) + piece * c->gm;
    }
    return t + fold;
  }
  if (!strcmp(name, "ring")) {
    /* 2 (P-1) T_send(M/P) + (P-1)/P gamma M; segmented: phases of P
     * segments, each phase 2 (P-1) steps. */
    double blk = M / P;
    double phases = 1;
    if (seg > 0 && (double)seg < blk) {
      phases = ceil(blk / (double)seg);
      blk = blk / phases;
    }
    return phases * 2 * (P - 1) * tsend(c, blk) + (P - 1.0) / P * M * c->gm;
  }
  if (!strcmp(name, "reduce_bcast")) /* the two collectives' formulas, one after the other */
    return reduce(c, "binomial", P, M, 0, 0) + arcoll_model_bcast_cost(c, "knomial", P, M, 0, 0);
  return -1;
}

/* ------------------------------------------------------------ scan/exscan */

static double scan(const cost_t *c, const char *name, int P, double M, MPI_Aint seg, int kp,
                   int exclusive) {
  const int L = arcoll_ceil_log2(P);
  const double step = tsend(c, M) + M * c->gm;
  const double shift = exclusive ? tsend(c, M) : 0; /* exscan: result moved one rank up */
  if (!strcmp(name, "linear")) /* seed 000: P (2 T_send(M) + T_comp(M)) */
    return (P - 1) * step;
  if (!strcmp(name, "pipeline")) {
    /* seed 000: (k + P)(2 T_send(M/k) + T_comp(M)); one message per hop,
     * T_comp of a segment per step, and the window (pipeline()). */
    double k = nsegments(M, seg);
    return pipeline(c, NULL, P - 1, k, M / k, c->gm);
  }
  if (!strcmp(name, "pipelined_tree")) {
    /* in-order binary tree of D = floor(log2 P) + 1 levels: the first
     * segment climbs D - 1 levels and comes down D - 1, each level T(s) plus
     * the wait behind the other messages on the link (3 streams of w in
     * flight; one segment: the two children's at once) and a combine; then
     * an inner rank's in-link carries 3 segments per segment (2 from its
     * children, 1 from its parent) and it combines 3.  Within 15 % of SMPI
     * (flat, P = 256, 8 KiB segments, 1 and 4 MiB). */
    double k = nsegments(M, seg), s = M / k;
    const double w = k < ARCOLL_SCAN_TREE_WINDOW ? k : ARCOLL_SCAN_TREE_WINDOW;
    const double x = xfer(c, s), xp = x + (k > 1 ? (x < c->hop ? x : c->hop) : 0);
    const int D = arcoll_tree_inorder_depth(P);
    const double level = tsend(c, s) + (k > 1 ? 3 * w - 1 : 1) * x + s * c->gm;
    return 2.0 * (D - 1) * level + (k - 1) * 3 * (xp + s * c->gm);
  }
  if (!strcmp(name, "brent_kung")) /* seed 000: (2 log P - 1)(T_send + T_comp) */
    return (2 * L - 1) * step + shift;
  if (!strcmp(name, "sqrtp")) {
    /* seed 000: 2 (sqrt(2P) - 3)(T_send + T_comp); here the step count of
     * the code: (g - 1) + (P/g - 1) + (g - 1) with g the group size. */
    int g = kp;
    if (g <= 0)
      for (g = 1; (long)(2 * g + 1) * (2 * g + 1) <= 2L * P; ++g) {
      }
    if (g > P) g = P;
    double steps = 2.0 * (g - 1) + ((P + g - 1) / g - 1);
    return steps * step + shift;
  }
  if (!strcmp(name, "recursive_doubling")) /* L (T_send(M) + 2 T_comp(M)) */
    return L * (tsend(c, M) + 2 * M * c->gm);
  if (!strcmp(name, "direct")) {
    /* the last rank's link receives P-1 messages; it folds P-1 of them.
     * No formula above P = 64: P(P-1)/2 concurrent messages (scan.h). */
    if (P > 64) return -1;
    return shared(c, P - 1, M) + (P - 1) * M * c->gm;
  }
  return -1;
}

/* ------------------------------------------- gather, scatter, alltoall ... */

static double gather(const cost_t *c, const char *name, int P, double m) {
  const int L = arcoll_ceil_log2(P);
  /* compressed: its raw form, linear (the data are unknown here; each
   * sender's decision, compress_decide.h, models the compressed form) */
  if (!strcmp(name, "linear") || !strcmp(name, "compressed")) /* all P-1 blocks at once through the root's link */
    return c->lat + (P - 1) * xfer(c, m);
  if (!strcmp(name, "binomial")) { /* log P t_s + (P-1) m/B: blocks m, 2m, 4m, ... */
    double t = 0, b = m;
    for (int i = 0; i < L; ++i, b *= 2) t += tsend(c, b);
    return t;
  }
  return -1;
}

static double alltoall(const cost_t *c, const char *name, int P, double m) {
  const int L = arcoll_ceil_log2(P);
  /* compressed: its raw form, linear (the data are unknown here) */
  if (!strcmp(name, "linear") || !strcmp(name, "compressed")) /* batches of 32 requests; all links busy */
    return ((P - 1 + 31) / 32) * c->lat + (P - 1) * xfer(c, m);
  if (!strcmp(name, "pairwise")) /* (P-1) T_send(m) */
    return (P - 1) * tsend(c, m);
  if (!strcmp(name, "bruck")) /* log P (t_s + P/2 m/B) + packing (~gamma per byte) */
    return L * (tsend(c, (P / 2.0) * m) + (P / 2.0) * m * c->gm);
  return -1;
}

double arcoll_model_predict(const arcoll_model_t *m, arcoll_coll_t coll,
                            const arcoll_algo_desc_t *algo, int P, MPI_Aint bytes,
                            MPI_Aint segment_bytes, int k) {
  if (!m || !algo || !algo->name || P < 1 || bytes < 0) return -1;
  const cost_t c = cost_of(m);
  const char *n = algo->name;
  const double M = (double)bytes;
  const int none = P == 1 || bytes == 0; /* no communication at all */
  double t = -1;
  switch (coll) {
    case ARCOLL_COLL_BCAST:
      t = arcoll_model_bcast_cost(&c, n, 2, 1, 0, 0) < 0 ? -1 : (none ? 0 : arcoll_model_bcast_cost(&c, n, P, M, segment_bytes, k));
      break;
    case ARCOLL_COLL_REDUCE:
      t = reduce(&c, n, 2, 1, 0, 0) < 0 ? -1 : (none ? 0 : reduce(&c, n, P, M, segment_bytes, k));
      break;
    case ARCOLL_COLL_ALLREDUCE:
      t = allreduce(&c, n, 2, 1, 0) < 0 ? -1
                                        : (none ? 0 : allreduce(&c, n, P, M, segment_bytes));
      break;
    case ARCOLL_COLL_SCAN:
    case ARCOLL_COLL_EXSCAN: {
      int ex = coll == ARCOLL_COLL_EXSCAN;
      t = scan(&c, n, 2, 1, 0, 0, ex) < 0 ? -1
                                          : (none ? 0 : scan(&c, n, P, M, segment_bytes, k, ex));
      break;
    }
    case ARCOLL_COLL_GATHER:
    case ARCOLL_COLL_SCATTER:
      t = gather(&c, n, 2, 1) < 0 ? -1 : (none ? 0 : gather(&c, n, P, M));
      break;
    case ARCOLL_COLL_ALLTOALL:
      t = alltoall(&c, n, 2, 1) < 0 ? -1 : (none ? 0 : alltoall(&c, n, P, M));
      break;
    case ARCOLL_COLL_ALLGATHER:
      t = arcoll_model_allgather(m, n, 2, 1, 0) < 0
              ? -1
              : (none ? 0 : arcoll_model_allgather(m, n, P, M, segment_bytes));
      break;
    case ARCOLL_COLL_REDUCE_SCATTER_BLOCK:
      t = arcoll_model_reduce_scatter_block(m, n, 2, 1) < 0
              ? -1
              : (none ? 0 : arcoll_model_reduce_scatter_block(m, n, P, M));
      break;
    case ARCOLL_COLL_ALLGATHERV: /* bytes: the largest block; total bounded by P x it */
      t = arcoll_model_allgatherv(m, n, 2, 1, 2) < 0
              ? -1
              : (none ? 0 : arcoll_model_allgatherv(m, n, P, M, P * M));
      break;
    case ARCOLL_COLL_GATHERV: /* bytes: a nominal block (adapt/vblocks.c); M = P x it */
    case ARCOLL_COLL_SCATTERV:
      t = arcoll_model_gatherv(m, n, 2, 1, 2) < 0
              ? -1
              : (none ? 0 : arcoll_model_gatherv(m, n, P, M, P * M));
      break;
    case ARCOLL_COLL_REDUCE_SCATTER: /* bytes: the largest block; total bounded by P x it */
      t = arcoll_model_reduce_scatter(m, n, 2, 1, 2) < 0
              ? -1
              : (none ? 0 : arcoll_model_reduce_scatter(m, n, P, M, P * M));
      break;
    case ARCOLL_COLL_ALLTOALLV: /* bytes: the dispatcher's fixed block size */
      t = arcoll_model_alltoallv(m, n, 2, 1) < 0 ? -1
                                                 : (none ? 0 : arcoll_model_alltoallv(m, n, P, M));
      break;
    case ARCOLL_COLL_BARRIER:
      /* dissemination: ceil(log2 P) rounds of a 0-byte send-receive
       * (seed-style 2 t_s per round counts send and receive apart) */
      t = strcmp(n, "dissemination") ? -1 : arcoll_ceil_log2(P) * c.lat;
      break;
    default:
      t = -1;
  }
  return t;
}
