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

/* ---------------------------------------------------------------- helpers */

/* Segments in flight per link of the pipelined codes (bcast_tree.h,
 * bcast_multitree.h, reduce_chain.c, scan_pipeline.c all use 8). */
#define WINDOW 8.0
/* Messages below this size are sent eagerly (MPI_Send returns before the
 * receiver has them): MPICH's default eager threshold and SMPI's
 * smpi/send-is-detached-thresh are both 64 KiB. */
#define EAGER_LIMIT 65536.0
/* Per-message overhead of a forwarding stage (receive + forward), as a
 * fraction of T(0).  Measured under SMPI (cluster256, chains of P = 16 and
 * 64, 1-8 KiB segments): the period is the stream gap + 0.3 to 0.7 us,
 * ~0.1 T(0). */
#define HOP_OVERHEAD_OF_LATENCY 0.1

typedef struct {
  const arcoll_p2p_params_t *p;
  const arcoll_p2p_curve_t *cv, *gc;
  double lat; /* T(0): start-up of a message, seconds */
  double hop; /* per-message overhead of a forwarding stage, seconds */
  double gm;  /* gamma, seconds per byte combined */
} cost_t;

static cost_t cost_of(const arcoll_model_t *m) {
  cost_t c;
  c.p = &m->inter;
  c.cv = &m->inter_curve;
  c.gc = &m->inter_gap_curve;
  c.lat = arcoll_model_p2p(c.p, c.cv, 0);
  c.hop = HOP_OVERHEAD_OF_LATENCY * c.lat;
  c.gm = m->gamma;
  return c;
}

/* ceil(log2 P), P >= 1 */
static int clog2(int P) {
  int l = 0;
  while ((1L << l) < P) ++l;
  return l;
}

/* largest power of two <= P */
static int pow2_floor(int P) {
  int p = 1;
  while ((long)p * 2 <= P) p *= 2;
  return p;
}

/* T(m): one message of m bytes alone on its links */
static double tsend(const cost_t *c, double m) { return arcoll_model_p2p(c->p, c->cv, m); }

/* X(m): the link occupancy of one message (stream gap); n messages sharing
 * a link take T(m) + (n - 1) X(m) (max-min fair sharing). */
static double xfer(const cost_t *c, double m) { return arcoll_model_gap(c->p, c->gc, m); }

/* n messages of m bytes at once through one link */
static double shared(const cost_t *c, double n, double m) {
  return n <= 0 ? 0 : tsend(c, m) + (n - 1) * xfer(c, m);
}

/* Segments of a message of M bytes cut in segments of `seg` bytes
 * (seg <= 0 or >= M: one segment). */
static double nsegments(double M, MPI_Aint seg) {
  if (seg <= 0 || (double)seg >= M) return 1.0;
  return ceil(M / (double)seg);
}

/* Pipeline of `nst` stages, stage i forwarding each segment of s bytes to
 * fan[i] children (NULL: 1) with `comb` seconds per byte of combine work;
 * k segments; up to w = min(WINDOW, k) segments in flight per link share it,
 * so the first segment reaches the next stage after ~T(s) + w n_i X(s)
 * (fitted to SMPI chains, P = 16 and 64, 2-8 KiB segments, within 3 %):
 *   T = sum_i (T(s) + w n_i X(s) + s comb)
 *       + (k - w) max_i (n_i (X(s) + hop) + s comb). */
static double pipeline(const cost_t *c, const int *fan, int nst, double k, double s,
                       double comb) {
  if (nst <= 0) return 0;
  const double w = k < WINDOW ? k : WINDOW, x = xfer(c, s), t = tsend(c, s);
  /* period of one message: occupancy + forwarding overhead (at most X(s):
   * tiny messages have none) */
  const double xp = x + (k > 1 ? (x < c->hop ? x : c->hop) : 0);
  double sum = 0, worst = 0;
  for (int i = 0; i < nst; ++i) {
    double n = fan ? fan[i] : 1;
    sum += t + (k > 1 ? w * n : n - 1) * x + s * comb; /* one segment: T + (n-1) X exactly */
    double per = n * xp + s * comb;
    if (per > worst) worst = per;
  }
  return sum + (k - w) * worst;
}

/* ------------------------------------------------------------------ bcast */

static double bcast(const cost_t *c, const char *name, int P, double M, MPI_Aint seg, int kp) {
  const int L = clog2(P);
  int fan[64];
  if (!strcmp(name, "binomial")) {
    /* Critical path root -> largest subtree: fan-outs L, L-1, ..., 1 (every
     * child of a rank is sent each segment at once).  Seed 000: L T_send(M). */
    for (int i = 0; i < L; ++i) fan[i] = L - i;
    double k = nsegments(M, seg);
    return pipeline(c, fan, L, k, M / k, 0);
  }
  if (!strcmp(name, "knomial")) {
    /* The binomial form with radix r: D = ceil(log_r P) levels, fan-outs
     * (r-1) D, (r-1)(D-1), ..., r-1 (r = 2: the binomial formula). */
    int r = kp >= 2 ? kp : ARCOLL_KNOMIAL_RADIX, D = 0;
    for (long u = 1; u < P && D < 64; u *= r) ++D;
    for (int i = 0; i < D; ++i) fan[i] = (r - 1) * (D - i);
    double k = nsegments(M, seg);
    return pipeline(c, fan, D, k, M / k, 0);
  }
  if (!strcmp(name, "chain")) {
    /* Seed 000: (k + P - 2) 2 T_send(M/k); here one message per hop and the
     * window (pipeline()). */
    double k = nsegments(M, seg);
    return pipeline(c, NULL, P - 1, k, M / k, 0);
  }
  if (!strcmp(name, "twopath")) {
    /* Seed 000: (k + P/2 - 2) 2 T_send(M/k).  The code (tree_2path over
     * bcast_tree) sends every segment to both heads: fan-out 2 at the root,
     * then a chain, depth ceil((P-1)/2). */
    double k = nsegments(M, seg);
    int depth = P / 2; /* = ceil((P-1)/2) */
    if (depth < 1) depth = 1;
    if (depth > 4096) depth = 4096;
    int f2[4096];
    for (int i = 0; i < depth; ++i) f2[i] = i == 0 && P > 2 ? 2 : 1;
    return pipeline(c, f2, depth, k, M / k, 0);
  }
  if (!strcmp(name, "ksegment")) {
    /* Seed 000: (3k + P/k - 4) T_send(M/k).  Here: the root's k-1 pieces go
     * out at once (k-1 messages sharing its link), k-1 ring steps in which a
     * head also forwards the piece down its group chain (shared link, see
     * ring_step), then the tail of the group chains.  The
     * code caps k at the element count; the model does not see the datatype
     * and assumes 8-byte elements (k <= M/8). */
    int k = kp > 0 ? kp : (P / 2 > 1 ? P / 2 : 1);
    if (k > P) k = P;
    if (k > M / 8) k = M / 8 >= 1 ? (int)(M / 8) : 1;
    double m = M / k;
    int gs = (P + k - 1) / k; /* ranks per group (largest) */
    double x = xfer(c, m);
    /* measured (SMPI, P 16-256): a ring step costs T(m) + X(m) + min(X(m),
     * 1.5 T(0)) when the head also forwards: small pieces pay their link
     * occupancy twice, large ones overlap the forward */
    double ring_step = tsend(c, m) + (gs > 1 ? x + (x < 1.5 * c->lat ? x : 1.5 * c->lat) : 0);
    return shared(c, k - 1, m) + (k - 1) * ring_step + (gs - 1) * tsend(c, m);
  }
  if (!strcmp(name, "nebst")) {
    /* Seed 000: 3 log P (t_s + M/(B log P)).  The n = ceil(log2 P) rotated
     * binomial trees all have the root as root with L children each, so the
     * root sends L copies of every segment, like the binomial tree; every
     * rank handles the segments in order, so the trees wait on each other:
     * modelled as the binomial pipeline of the same segments, twice over
     * (measured: 1-3x too slow for large messages, never the fastest). */
    int n = kp > 0 ? kp : (L > 0 ? L : 1);
    double s = seg > 0 && (double)seg < M / n ? (double)seg : M / n;
    if (s < 1) s = 1;
    double k = ceil(M / s);
    for (int i = 0; i < L; ++i) fan[i] = L - i;
    double t = 2 * pipeline(c, fan, L, k, s, 0) - pipeline(c, fan, L, 1, s, 0);
    /* small messages (SMPI, P = 16-256): at least the twotree form below,
     * (2L - 1) ceil(k/2) (T(s) + X(s)); nebst was never the fastest
     * measured, so the model errs on the slow side */
    if (k >= 2 && M >= 16) {
      double t2 = (2.0 * L - 1) * ceil(k / 2) * (tsend(c, s) + xfer(c, s));
      if (t2 > t) t = t2;
    }
    return t;
  }
  if (!strcmp(name, "scatter_ring")) {
    /* van de Geijn: L t_s + (P-1)/P M/B + (P-1) T_send(M/P).  Here the
     * binomial scatter level by level: a rank sends its pieces M/2^i,
     * M/2^(i+1), ... with MPI_Send, largest first; a rendezvous piece
     * (>= EAGER_LIMIT) is sent alone, eager ones all at once (the call
     * returns), so the critical piece shares the link with the smaller eager
     * ones.  Ring steps: T(M/P) + the forwarding overhead. */
    double t = 0;
    for (int i = 1; i <= L; ++i) {
      double piece = M / (double)(1L << i);
      t += tsend(c, piece);
      if (piece < EAGER_LIMIT)
        for (int j = i + 1; j <= L; ++j) t += xfer(c, M / (double)(1L << j));
    }
    double x = xfer(c, M / P);
    return t + (P - 1) * (tsend(c, M / P) + (x < c->hop ? x : c->hop));
  }
  if (!strcmp(name, "twotree")) {
    /* Sanders-Speck-Traff (simplified): even segments down tree 1, odd down
     * tree 2 (binary trees of depth L = ceil(log2 P), inner fan-out 2), the
     * trees progressing independently (bcast_multitree.h).  Paper:
     * ~ M/B + O(log P t_s + sqrt(M log P t_s / B)).  Here: each tree is the
     * pipeline of its ceil(k/2) segments through L levels of fan-out 2 below
     * the root (fan-out 1: it feeds each tree root in turn), and the root's
     * link carries all k segments: T = max(pipeline, T(s) + (k-1) X(s)).
     * One segment (one element; the model assumes 8-byte elements): the
     * same pipeline with k = 1.  Default: two segments. */
    double k = seg > 0 ? nsegments(M, seg) : 2.0;
    if (k > M / 8) k = M / 8 >= 1 ? floor(M / 8) : 1;
    double s = M / k;
    int D = L > 1 ? L : 1;
    if (D > 63) D = 63;
    fan[0] = 1;
    for (int i = 1; i < D; ++i) fan[i] = 2;
    double t = pipeline(c, fan, D, ceil(k / 2), s, 0);
    double root = tsend(c, s) + (k - 1) * xfer(c, s);
    return t > root ? t : root;
  }
  if (!strcmp(name, "linear")) {
    /* Flat tree: the root's P-1 copies of each segment share its link; with
     * k segments the root streams (P-1) k messages: T(s) + ((P-1) k - 1) X(s). */
    double k = nsegments(M, seg);
    return pipeline(c, NULL, 1, 1, M / k, 0) + ((P - 1) * k - 1) * xfer(c, M / k);
  }
  return -1;
}

/* ----------------------------------------------------------------- reduce */

static double reduce(const cost_t *c, const char *name, int P, double M, MPI_Aint seg) {
  const int L = clog2(P), P2 = pow2_floor(P), L2 = clog2(P2);
  if (!strcmp(name, "binomial")) /* seed 000: log P (t_s + (1/B + t_op) M) */
    return L * (tsend(c, M) + M * c->gm);
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
  const int P2 = pow2_floor(P), L2 = clog2(P2);
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
    return reduce(c, "binomial", P, M, 0) + bcast(c, "knomial", P, M, 0, 0);
  return -1;
}

/* ------------------------------------------------------------ scan/exscan */

static double scan(const cost_t *c, const char *name, int P, double M, MPI_Aint seg, int kp,
                   int exclusive) {
  const int L = clog2(P);
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
  const int L = clog2(P);
  if (!strcmp(name, "linear")) /* all P-1 blocks at once through the root's link */
    return c->lat + (P - 1) * xfer(c, m);
  if (!strcmp(name, "binomial")) { /* log P t_s + (P-1) m/B: blocks m, 2m, 4m, ... */
    double t = 0, b = m;
    for (int i = 0; i < L; ++i, b *= 2) t += tsend(c, b);
    return t;
  }
  return -1;
}

static double alltoall(const cost_t *c, const char *name, int P, double m) {
  const int L = clog2(P);
  if (!strcmp(name, "linear")) /* batches of 32 requests; all links busy */
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
      t = bcast(&c, n, 2, 1, 0, 0) < 0 ? -1 : (none ? 0 : bcast(&c, n, P, M, segment_bytes, k));
      break;
    case ARCOLL_COLL_REDUCE:
      t = reduce(&c, n, 2, 1, 0) < 0 ? -1 : (none ? 0 : reduce(&c, n, P, M, segment_bytes));
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
    case ARCOLL_COLL_BARRIER:
      /* dissemination: ceil(log2 P) rounds of a 0-byte send-receive
       * (seed-style 2 t_s per round counts send and receive apart) */
      t = strcmp(n, "dissemination") ? -1 : clog2(P) * c.lat;
      break;
    default:
      t = -1;
  }
  return t;
}
