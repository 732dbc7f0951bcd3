/* Performance model of the collectives (select.h): the built-in default model
 * and one predicted-time formula per algorithm of every table.
 *
 * Starting point: the formulas of seed 000_32450fa7292fe18a.txt (see the table
 * entries' `source` strings); departures are listed in collectives/README.md
 * ("Model") and next to each formula below.  The main ones:
 *  - a send-receive step costs ONE T_send(m) (full-duplex links, the codes
 *    post MPI_Irecv/MPI_Isend or MPI_Sendrecv), not the seed's 2 T_send;
 *  - a pipeline of k segments costs the sum of its stages' times plus
 *    (k - 1) periods of its slowest stage (a window of segments is in flight,
 *    so the start-up t_s is hidden and the period is the stage's transfer
 *    time, at least the LogGP gap g per message);
 *  - a rank that MPI_Isend-s n messages at once shares its link: they all
 *    finish after t_s + n m / B (max-min sharing of the sender's link, as
 *    SimGrid and real NICs do), so an unsegmented binomial tree costs
 *    sum_{i=1..L} (t_s + i M/B), not L T_send(M).
 * Every formula uses the inter-node parameters (conservative: a P-rank
 * collective on several nodes is bounded by its inter-node messages).
 */
#include <math.h>
#include <string.h>

#include "select.h"

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

/* ---------------------------------------------------------------- helpers */

typedef struct {
  double a;   /* t_s, seconds */
  double b;   /* 1/B, seconds per byte */
  double gap; /* minimum period per message of a pipeline stage: max(g, o) */
  double gm;  /* gamma, seconds per byte combined */
} cost_t;

static cost_t cost_of(const arcoll_model_t *m) {
  cost_t c;
  c.a = m->inter.t_s;
  c.b = 1.0 / m->inter.B;
  c.gap = m->inter.g > m->inter.o ? m->inter.g : m->inter.o;
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

/* T_send(m) = t_s + m/B */
static double tsend(const cost_t *c, double m) { return c->a + m * c->b; }

/* Segments of a message of M bytes cut in segments of `seg` bytes
 * (seg <= 0 or >= M: one segment). */
static double nsegments(double M, MPI_Aint seg) {
  if (seg <= 0 || (double)seg >= M) return 1.0;
  return ceil(M / (double)seg);
}

/* Pipeline of `nst` stages, stage i forwarding each segment of s bytes to
 * fan[i] children at once (shared link), plus `comb` seconds per byte of
 * combine work per stage; k segments.  T = sum of the stage times + (k - 1)
 * periods of the slowest stage. */
static double pipeline(const cost_t *c, const int *fan, int nst, double k, double s,
                       double comb) {
  double sum = 0, worst = 0;
  for (int i = 0; i < nst; ++i) {
    double n = fan ? fan[i] : 1;
    sum += c->a + n * s * c->b + s * comb;
    double per = n * (s * c->b > c->gap ? s * c->b : c->gap) + s * comb;
    if (per > worst) worst = per;
  }
  return sum + (k - 1) * worst;
}

/* Same with every stage of fan-out 1 (a chain of nst hops). */
static double chain(const cost_t *c, int nst, double k, double s, double comb) {
  if (nst <= 0) return 0;
  double per = (s * c->b > c->gap ? s * c->b : c->gap) + s * comb;
  return nst * (c->a + s * c->b + s * comb) + (k - 1) * per;
}

/* ------------------------------------------------------------------ bcast */

static double bcast(const cost_t *c, const char *name, int P, double M, MPI_Aint seg, int kp) {
  const int L = clog2(P);
  if (!strcmp(name, "binomial")) {
    /* Critical path root -> largest subtree: fan-outs L, L-1, ..., 1 (every
     * child of a rank is sent to at once).  Seed 000: L T_send(M). */
    int fan[64];
    for (int i = 0; i < L; ++i) fan[i] = L - i;
    double k = nsegments(M, seg);
    return pipeline(c, fan, L, k, M / k, 0);
  }
  if (!strcmp(name, "chain")) {
    /* Seed 000: (k + P - 2) 2 T_send(M/k); here one T_send per hop. */
    double k = nsegments(M, seg);
    return chain(c, P - 1, k, M / k, 0);
  }
  if (!strcmp(name, "twopath")) {
    /* Seed 000: (k + P/2 - 2) 2 T_send(M/k).  The root feeds two chains of
     * ceil((P-1)/2) ranks alternately: it sends all k segments (period s/B),
     * depth ceil((P-1)/2) hops. */
    double k = nsegments(M, seg), s = M / k;
    int depth = (P - 1 + 1) / 2;
    double per = s * c->b > c->gap ? s * c->b : c->gap;
    return depth * tsend(c, s) + (k - 1) * per;
  }
  if (!strcmp(name, "ksegment")) {
    /* Seed 000: (3k + P/k - 4) T_send(M/k).  Here: the root's k-1 pieces go
     * out at once (t_s + (k-1) m/B), k-1 ring steps in which a head also
     * forwards down its group chain (shared link: 2 m/B unless groups have
     * one rank), then the tail of the group chains. */
    int k = kp > 0 ? kp : (P / 2 > 1 ? P / 2 : 1);
    if (k > P) k = P;
    double m = M / k;
    int gs = (P + k - 1) / k; /* ranks per group (largest) */
    double ring_step = c->a + (gs > 1 ? 2 : 1) * m * c->b;
    return c->a + (k - 1) * m * c->b + (k - 1) * ring_step + (gs - 1) * tsend(c, m);
  }
  if (!strcmp(name, "nebst")) {
    /* Seed 000: 3 log P (t_s + M/(B log P)).  The n = ceil(log2 P) rotated
     * binomial trees all have the root as root with L children each, so the
     * root sends L copies of the message: its link is the bottleneck
     * (L M/B), plus the depth L of one piece / segment. */
    int n = kp > 0 ? kp : L;
    double s = seg > 0 && (double)seg < M / n ? (double)seg : M / n;
    return L * M * c->b + L * tsend(c, s) + (M / s) * c->gap;
  }
  if (!strcmp(name, "scatter_ring")) {
    /* van de Geijn: L t_s + (P-1)/P M/B + (P-1) T_send(M/P). */
    return L * c->a + (P - 1.0) / P * M * c->b + (P - 1) * tsend(c, M / P);
  }
  if (!strcmp(name, "twotree")) {
    /* Sanders-Speck-Traff (simplified): every rank forwards half the
     * segments to two children (period s/B), depth ~ log2 P + 1 hops with
     * two sends each.  Default: two segments. */
    double k = seg > 0 ? nsegments(M, seg) : 2.0;
    if (k > M) k = M > 1 ? M : 1;
    double s = M / k;
    double per = s * c->b > c->gap ? s * c->b : c->gap;
    return (L + 1) * (c->a + 2 * s * c->b) + (k - 1) * per;
  }
  return -1;
}

/* ----------------------------------------------------------------- reduce */

static double reduce(const cost_t *c, const char *name, int P, double M, MPI_Aint seg) {
  const int L = clog2(P), P2 = pow2_floor(P), L2 = clog2(P2);
  if (!strcmp(name, "binomial")) /* seed 000: log P (t_s + (1/B + t_op) M) */
    return L * (tsend(c, M) + M * c->gm);
  if (!strcmp(name, "rsag")) {
    /* Seed 000: 4 t_s log P + (4/B + t_op) M (P-1)/P with 2 T_send per
     * exchange; here one (full duplex): reduce-scatter by halving
     * (L2 t_s + (P2-1)/P2 M (1/B + gamma)) + binomial gather (L2 t_s +
     * (P2-1)/P2 M/B), + a fold of the extra ranks when P is not 2^n. */
    double f = (P2 - 1.0) / P2 * M;
    double t = 2 * L2 * c->a + f * (2 * c->b + c->gm);
    if (P != P2) t += tsend(c, M) + M * c->gm;
    return t;
  }
  if (!strcmp(name, "chain")) {
    /* Seed 000: (k + P - 2)(2 T_send(M/k) + t_op M/k); one T_send per hop. */
    double k = nsegments(M, seg);
    return chain(c, P - 1, k, M / k, c->gm);
  }
  return -1;
}

/* -------------------------------------------------------------- allreduce */

static double allreduce(const cost_t *c, const char *name, int P, double M, MPI_Aint seg) {
  const int P2 = pow2_floor(P), L2 = clog2(P2);
  const double fold = P != P2 ? 2 * tsend(c, M) + M * c->gm : 0;
  if (!strcmp(name, "recursive_doubling"))
    return L2 * (tsend(c, M) + M * c->gm) + fold;
  if (!strcmp(name, "rabenseifner")) {
    double f = (P2 - 1.0) / P2 * M;
    return 2 * L2 * c->a + 2 * f * c->b + f * c->gm + fold;
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
    /* seed 000: (k + P)(2 T_send(M/k) + T_comp(M)); one T_send per hop and
     * T_comp of a segment per step. */
    double k = nsegments(M, seg);
    return chain(c, P - 1, k, M / k, c->gm);
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
  return -1;
}

/* ------------------------------------------- gather, scatter, alltoall ... */

static double gather(const cost_t *c, const char *name, int P, double m) {
  const int L = clog2(P);
  if (!strcmp(name, "linear")) /* all P-1 blocks at once through the root's link */
    return c->a + (P - 1) * (m * c->b > c->gap ? m * c->b : c->gap);
  if (!strcmp(name, "binomial")) /* log P t_s + (P-1) m/B */
    return L * c->a + (P - 1) * m * c->b;
  return -1;
}

static double alltoall(const cost_t *c, const char *name, int P, double m) {
  const int L = clog2(P);
  if (!strcmp(name, "linear")) /* batches of 32 requests; all links busy */
    return ((P - 1 + 31) / 32) * c->a + (P - 1) * (m * c->b > c->gap ? m * c->b : c->gap);
  if (!strcmp(name, "pairwise")) /* (P-1) T_send(m) */
    return (P - 1) * tsend(c, m);
  if (!strcmp(name, "bruck")) /* log P (t_s + P/2 m/B) + packing (~gamma per byte) */
    return L * (c->a + (P / 2.0) * m * (c->b + c->gm));
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
    case ARCOLL_COLL_BARRIER:
      /* dissemination: ceil(log2 P) rounds of a 0-byte send-receive
       * (seed-style 2 t_s per round counts send and receive apart) */
      t = strcmp(n, "dissemination") ? -1 : clog2(P) * c.a;
      break;
    default:
      t = -1;
  }
  return t;
}
