/* Segment size for back-to-back calls (select.h arcoll_select_stream_segment). */
#include "select.h"

#define MAX_SEGS 48

MPI_Aint arcoll_select_stream_segment(const arcoll_model_t *m, arcoll_coll_t c,
                                      const arcoll_algo_desc_t *a, int P, MPI_Aint bytes) {
  double occ[MAX_SEGS], lat[MAX_SEGS];
  MPI_Aint seg[MAX_SEGS];
  int n = 0;
  if (!m || !a || P < 1 || bytes <= 0) return 0;
  for (MPI_Aint s = 0; n < MAX_SEGS && (s == 0 || s < bytes); s = s ? 2 * s : 1024) {
    const double k = s > 0 ? (double)((bytes + s - 1) / s) : 1.0;
    seg[n] = s;
    occ[n] = k * arcoll_model_gap(&m->inter, &m->inter_gap_curve, (double)bytes / k);
    lat[n++] = arcoll_model_predict(m, c, a, P, bytes, s, 0);
  }
  double least = occ[0];
  for (int i = 1; i < n; ++i) least = occ[i] < least ? occ[i] : least;
  int best = 0;
  for (int i = 0; i < n; ++i) {
    if (occ[i] > 1.05 * least) continue;
    if (occ[best] > 1.05 * least || (lat[i] >= 0 && (lat[best] < 0 || lat[i] < lat[best]))) best = i;
  }
  return seg[best];
}
