/* Algorithm tables by collective and the selector (select.h): evaluate the
 * model (model.c) for every eligible algorithm and every candidate segment
 * size / parameter, keep the fastest.  The search is apart from the cost
 * model; callers cache the result per (collective, P, size class). */
#include <math.h>
#include <string.h>

#include "allgather.h"
#include "allgatherv.h"
#include "allreduce.h"
#include "alltoall.h"
#include "alltoallv.h"
#include "bcast.h"
#include "gather.h"
#include "gatherv.h"
#include "model_ext.h" /* arcoll_model_bcast_copies */
#include "native.h"
#include "reduce.h"
#include "reduce_scatter.h"
#include "reduce_scatter_block.h"
#include "scan.h"
#include "select.h"

static const char *const coll_names[ARCOLL_COLL_COUNT] = {
    "bcast",   "reduce",  "allreduce", "scan",   "exscan",
    "gather",  "scatter", "alltoall",  "barrier", "allgather", "reduce_scatter_block",
    "allgatherv", "gatherv", "scatterv", "reduce_scatter", "alltoallv"};

const char *arcoll_coll_name(arcoll_coll_t c) {
  return (int)c >= 0 && c < ARCOLL_COLL_COUNT ? coll_names[c] : NULL;
}

const arcoll_algo_desc_t *arcoll_algorithm_table(arcoll_coll_t c, int *n) {
  const arcoll_algo_desc_t *t = NULL;
  int len = 0;
  switch (c) {
    case ARCOLL_COLL_BCAST: t = arcoll_bcast_algorithms; len = arcoll_bcast_nalgorithms; break;
    case ARCOLL_COLL_REDUCE: t = arcoll_reduce_algorithms; len = arcoll_reduce_nalgorithms; break;
    case ARCOLL_COLL_ALLREDUCE:
      t = arcoll_allreduce_algorithms; len = arcoll_allreduce_nalgorithms; break;
    case ARCOLL_COLL_SCAN: t = arcoll_scan_algorithms; len = arcoll_scan_nalgorithms; break;
    case ARCOLL_COLL_EXSCAN: t = arcoll_exscan_algorithms; len = arcoll_exscan_nalgorithms; break;
    case ARCOLL_COLL_GATHER: t = arcoll_gather_algorithms; len = arcoll_gather_nalgorithms; break;
    case ARCOLL_COLL_SCATTER: t = arcoll_scatter_algorithms; len = arcoll_scatter_nalgorithms; break;
    case ARCOLL_COLL_ALLTOALL:
      t = arcoll_alltoall_algorithms; len = arcoll_alltoall_nalgorithms; break;
    case ARCOLL_COLL_BARRIER: t = arcoll_barrier_algorithms; len = arcoll_barrier_nalgorithms; break;
    case ARCOLL_COLL_ALLGATHER:
      t = arcoll_allgather_algorithms; len = arcoll_allgather_nalgorithms; break;
    case ARCOLL_COLL_ALLGATHERV:
      t = arcoll_allgatherv_algorithms; len = arcoll_allgatherv_nalgorithms; break;
    case ARCOLL_COLL_GATHERV:
      t = arcoll_gatherv_algorithms; len = arcoll_gatherv_nalgorithms; break;
    case ARCOLL_COLL_SCATTERV:
      t = arcoll_scatterv_algorithms; len = arcoll_scatterv_nalgorithms; break;
    case ARCOLL_COLL_REDUCE_SCATTER_BLOCK:
      t = arcoll_reduce_scatter_block_algorithms;
      len = arcoll_reduce_scatter_block_nalgorithms;
      break;
    case ARCOLL_COLL_REDUCE_SCATTER:
      t = arcoll_reduce_scatter_algorithms; len = arcoll_reduce_scatter_nalgorithms; break;
    case ARCOLL_COLL_ALLTOALLV:
      t = arcoll_alltoallv_algorithms; len = arcoll_alltoallv_nalgorithms; break;
    default: break;
  }
  if (n) *n = len;
  return t;
}

const arcoll_algo_desc_t *arcoll_algorithm_find(arcoll_coll_t c, const char *name) {
  int n = 0;
  const arcoll_algo_desc_t *t = arcoll_algorithm_table(c, &n);
  if (!t || !name) return NULL;
  for (int i = 0; i < n; ++i)
    if (!strcmp(t[i].name, name)) return &t[i];
  return strcmp(name, ARCOLL_NATIVE_NAME) ? NULL : arcoll_native_algorithm(c); /* native.h */
}

/* Candidate segment sizes of a segmented algorithm for a message of `bytes`:
 * 0 (one segment), powers of two from 1 KiB below the message, from 64 B for
 * messages of at most 4 KiB (SMPI: 128-byte
 * segments make a 512-byte binomial bcast at P = 256 30 % faster, as the
 * model predicts), and the seed
 * 000 closed form M / k_opt with k_opt = sqrt((P-2) M / (B t_s)) of the
 * pipelined chain (and of its P/2-deep variant).  Returns the count. */
static int segment_candidates(const arcoll_model_t *m, int P, MPI_Aint bytes, MPI_Aint *out,
                              int cap) {
  int n = 0;
  out[n++] = 0;
  /* below 1 KiB only for messages of at most 4 KiB (a few segments): many
   * tiny segments were not validated against measurements */
  for (MPI_Aint s = bytes <= 4096 ? 64 : 1024; s < bytes && n < cap - 2; s *= 2) out[n++] = s;
  double ts = m->inter.t_s, B = m->inter.B;
  if (ts > 0 && B > 0 && bytes > 0) {
    for (int half = 0; half < 2 && n < cap; ++half) {
      double depth = half ? (P - 1) / 2.0 : P - 2.0;
      if (depth < 1) depth = 1;
      double k = sqrt(depth * (double)bytes / (B * ts));
      if (k > 1) {
        MPI_Aint s = (MPI_Aint)ceil((double)bytes / floor(k));
        if (s > 0 && s < bytes) out[n++] = s;
      }
    }
  }
  return n;
}

/* Candidate parameters k of an algorithm honouring sched->k (0 = default). */
static int k_candidates(const char *name, int P, int *out, int cap) {
  int n = 0;
  out[n++] = 0;
  /* ksegment: only its default k = P/2 (seed 000's optimum); other k were
   * not validated against SMPI measurements, so the model is not trusted
   * to rank them.  knomial: radix 0 (= ARCOLL_KNOMIAL_RADIX, 4), 2 is the
   * binomial algorithm itself, so 3, 8, 16 while below P.  Not radix P
   * (the flat tree, where only the root waits for a late rank): SMPI flat
   * P = 64, 8 B, eight late ranks, 0.200 s summed inside against 1.600 s
   * with the model's radix 8, but on the oversubscribed tree platform
   * (tools/coll-bench.sh) its balanced loop was 2.0x radix 8's (3.89
   * against 1.90 ms, 1.16x SMPI's ompi selector): all P - 1 messages cross
   * the root's uplink at once.  Nor as the choice once the imbalance check
   * (online.h) saw ranks wait inside: (P - 1) m bytes reach the root per
   * call against (k - 1) ceil(log_k P) m, which the skew hides only for
   * tiny m (SMPI P = 64, 200 calls, radix 8 -> flat: eight ranks 1 ms late,
   * summed inside 0.94 -> 0.31 s at 1 KiB, 1.94 -> 0.32 s at 4 KiB, but
   * the loop on the tree platform 1.16x at 1 KiB one late, 2.0x at 4 KiB
   * one / eight late, 7.5-8x with a late rank moving every 10 calls; and
   * at 8 B no check runs at all: radix 8 is the only candidate). */
  if (!strcmp(name, "knomial"))
    for (int r = 3; r <= 16 && r < P && n < cap; r = r == 3 ? 8 : 2 * r) out[n++] = r;
  return n;
}

/* Best (segment, k) of algorithm a by the model's prediction; 0 and *out
 * filled, or -1 when the model has no formula for it. */
static int best_config(const arcoll_model_t *m, arcoll_coll_t c, const arcoll_algo_desc_t *a,
                       int P, MPI_Aint bytes, const MPI_Aint *segs, int nseg,
                       arcoll_choice_t *out) {
  int found = 0, ks[40];
  int ns = (a->flags & ARCOLL_ALGO_SEGMENTED) ? nseg : 1;
  int nk = k_candidates(a->name, P, ks, 40);
  for (int si = 0; si < ns; ++si) {
    MPI_Aint sb = (a->flags & ARCOLL_ALGO_SEGMENTED) ? segs[si] : 0;
    for (int ki = 0; ki < nk; ++ki) {
      double p = arcoll_model_predict(m, c, a, P, bytes, sb, ks[ki]);
      if (p < 0) continue;
      /* strict < keeps fewer segments / the default k on ties */
      if (!found || p < out->predicted_s) {
        found = 1;
        out->algo = a;
        out->segment_bytes = sb;
        out->k = ks[ki];
        out->predicted_s = p;
      }
    }
  }
  return found ? 0 : -1;
}

/* ch's algorithm in one segment, with its predicted time (< 0: no formula). */
static arcoll_choice_t unsegmented(const arcoll_model_t *m, arcoll_coll_t c, int P, MPI_Aint bytes,
                                   arcoll_choice_t ch) {
  ch.segment_bytes = 0;
  ch.predicted_s = arcoll_model_predict(m, c, ch.algo, P, bytes, 0, ch.k);
  return ch;
}

int arcoll_select_candidates(const arcoll_model_t *m, arcoll_coll_t c, int P, MPI_Aint bytes,
                             int commutative, arcoll_choice_t *out, int nmax) {
  int n = 0, nout = 0;
  const arcoll_algo_desc_t *t = arcoll_algorithm_table(c, &n);
  if (!m || !t || !out || P < 1 || nmax < 1) return 0;
  MPI_Aint segs[64];
  int nseg = segment_candidates(m, P, bytes, segs, 64);
  for (int i = 0; i < n; ++i) {
    const arcoll_algo_desc_t *a = &t[i];
    arcoll_choice_t ch;
    if (!commutative && (a->flags & ARCOLL_ALGO_COMMUTATIVE_ONLY)) continue;
    /* compressed: its model is the chain's (the data are unknown), a tie
     * the ranking cannot break; the online selection adds it (online.c) */
    if (!strcmp(a->name, "compressed")) continue;
    if (best_config(m, c, a, P, bytes, segs, nseg, &ch) != 0) continue;
    /* insertion by predicted time; strict < keeps table order on ties */
    int pos = nout;
    while (pos > 0 && ch.predicted_s < out[pos - 1].predicted_s) --pos;
    if (pos >= nmax) continue;
    for (int j = (nout < nmax ? nout : nmax - 1); j > pos; --j) out[j] = out[j - 1];
    out[pos] = ch;
    if (nout < nmax) ++nout;
  }
  /* The model ranks segment sizes less reliably than algorithms
   * (bench/notes/smpi-collectives-results-earlier.md:
   * the worst online penalties were the best algorithm at a neighbouring
   * segmentation): with 3 or more candidates, when the best is segmented, the
   * last slot measures it unsegmented instead of the last-ranked algorithm. */
  if (nmax >= 3 && nout >= 2 && out[0].segment_bytes > 0) {
    const arcoll_choice_t v = unsegmented(m, c, P, bytes, out[0]);
    if (v.predicted_s >= 0) {
      if (nout == nmax) --nout;
      out[nout++] = v;
    }
  } else if (nmax >= 3 && nout == nmax) {
    /* The best is unsegmented: the best-ranked segmented candidate is also
     * a second configuration of its algorithm; unsegmented, it replaces the
     * last-ranked algorithm when predicted faster than it (bench/notes/smpi-collectives-results.md,
     * session 14: scan, tree P = 64, 4 KiB - pipelined_tree/64B ranked 2nd,
     * pipelined_tree unsegmented 1.45x faster than every candidate measured,
     * the last one being direct). */
    for (int j = 1; j < nout - 1; ++j) {
      if (out[j].segment_bytes <= 0) continue;
      const arcoll_choice_t v = unsegmented(m, c, P, bytes, out[j]);
      if (v.predicted_s >= 0 && v.predicted_s < out[nout - 1].predicted_s) out[nout - 1] = v;
      break;
    }
  }
  return nout;
}

double arcoll_select_stream_occupancy(const arcoll_model_t *m, MPI_Aint bytes, MPI_Aint seg) {
  const double k = seg > 0 ? (double)((bytes + seg - 1) / seg) : 1.0;
  return k * arcoll_model_gap(&m->inter, &m->inter_gap_curve, (double)bytes / k);
}

/* Back-to-back calls: the candidate segments' link occupancy k X(bytes / k)
 * (select.h arcoll_select_stream_segment). */
MPI_Aint arcoll_select_stream_segment(const arcoll_model_t *m, arcoll_coll_t c,
                                      const arcoll_algo_desc_t *a, int P, MPI_Aint bytes) {
  MPI_Aint segs[64];
  double occ[64], lat[64];
  if (!m || !a || P < 1 || bytes <= 0) return 0;
  const int n = segment_candidates(m, P, bytes, segs, 64);
  double least = -1.0;
  for (int i = 0; i < n; ++i) {
    occ[i] = arcoll_select_stream_occupancy(m, bytes, segs[i]);
    lat[i] = arcoll_model_predict(m, c, a, P, bytes, segs[i], 0);
    if (least < 0 || occ[i] < least) least = occ[i];
  }
  int best = 0;
  for (int i = 0; i < n; ++i) {
    if (occ[i] > 1.05 * least) continue;
    if (occ[best] > 1.05 * least || (lat[i] >= 0 && (lat[best] < 0 || lat[i] < lat[best]))) best = i;
  }
  return segs[best];
}

const char *arcoll_tolerant_tree(arcoll_coll_t c, MPI_Aint bytes) {
  return c == ARCOLL_COLL_BCAST && bytes >= ARCOLL_STREAM_MIN_BYTES ? "binary" : "binomial";
}

/* Back-to-back bcasts: the least busiest-rank occupancy per call (select.h
 * arcoll_select_stream). */
int arcoll_select_stream(const arcoll_model_t *m, arcoll_coll_t c, int P, MPI_Aint bytes,
                         arcoll_choice_t *out) {
  if (!m || !out || c != ARCOLL_COLL_BCAST || P < 2 || bytes <= 0) return -1;
  int n = 0, found = 0;
  const arcoll_algo_desc_t *t = arcoll_algorithm_table(c, &n);
  double occ_best = 0;
  for (int i = 0; i < n; ++i) {
    const arcoll_algo_desc_t *a = &t[i];
    const double copies = arcoll_model_bcast_copies(a->name, P, 0);
    if (copies <= 0 || !strcmp(a->name, "compressed")) continue;
    const MPI_Aint seg = (a->flags & ARCOLL_ALGO_SEGMENTED)
                             ? arcoll_select_stream_segment(m, c, a, P, bytes) : 0;
    const double occ = copies * arcoll_select_stream_occupancy(m, bytes, seg);
    const double lat = arcoll_model_predict(m, c, a, P, bytes, seg, 0);
    if (lat < 0) continue;
    /* within 5 %: a tie, the smaller latency wins */
    const int better = !found || occ < 0.95 * occ_best ||
                       (occ <= 1.05 * occ_best && lat < out->predicted_s);
    if (!better) continue;
    if (!found || occ < occ_best) occ_best = occ;
    found = 1;
    out->algo = a;
    out->segment_bytes = seg;
    out->k = 0;
    out->predicted_s = lat;
  }
  return found ? 0 : -1;
}

int arcoll_select_config(const arcoll_model_t *m, arcoll_coll_t c, const arcoll_algo_desc_t *a,
                         int P, MPI_Aint bytes, arcoll_choice_t *out) {
  MPI_Aint segs[64];
  if (!m || !a || !out || P < 1) return -1;
  const int nseg = segment_candidates(m, P, bytes, segs, 64);
  return best_config(m, c, a, P, bytes, segs, nseg, out);
}

int arcoll_select(const arcoll_model_t *m, arcoll_coll_t c, int P, MPI_Aint bytes,
                  int commutative, arcoll_choice_t *out) {
  if (!out) return -1;
  return arcoll_select_candidates(m, c, P, bytes, commutative, out, 1) == 1 ? 0 : -1;
}
