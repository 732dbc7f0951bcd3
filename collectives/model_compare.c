/* model_compare: compare the model's predictions with measured times.
 *
 *   model_compare [MODEL.json] < measurements.csv
 *
 * Input: CSV lines coll,P,m,kind,algo,segment_bytes,k,time_s[,...] (the
 * format of bench/smpi_coll_bench; lines of another kind than "algo" and
 * lines that do not parse are skipped).  MODEL.json: a model file
 * (default: the built-in model).  Output, per line: measured and predicted
 * seconds and their ratio; per (coll, P, m): the fastest measured
 * configuration (oracle), the configuration among the measured ones with the
 * smallest predicted time (the model's ranking) and its penalty
 * measured/oracle - 1; at the end the mean and max penalty.  This checks that
 * the model RANKS the algorithms right (the selector's job), independently of
 * the segment sizes the selector would add.  Exit 0, or 2 on a bad model file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

typedef struct {
  char coll[32], algo[64];
  int P, k;
  long long m, seg;
  double t, pred;
} row_t;

static arcoll_coll_t coll_of(const char *s) {
  for (int c = 0; c < ARCOLL_COLL_COUNT; ++c)
    if (!strcmp(arcoll_coll_name((arcoll_coll_t)c), s)) return (arcoll_coll_t)c;
  return ARCOLL_COLL_COUNT;
}

static const arcoll_model_t *model_;

static void flush_group(row_t *g, int n, double *sum, double *mx, int *groups) {
  if (n == 0) return;
  int best = 0, pick = 0;
  for (int i = 1; i < n; ++i) {
    if (g[i].t < g[best].t) best = i;
    if (g[i].pred >= 0 && (g[pick].pred < 0 || g[i].pred < g[pick].pred)) pick = i;
  }
  double pen = g[pick].t / g[best].t - 1;
  printf("== %s P=%d m=%lld oracle %s/seg=%lld %.4e s | model picks %s/seg=%lld %.4e s "
         "(pred %.4e) penalty %.2f%%\n",
         g[0].coll, g[0].P, g[0].m, g[best].algo, g[best].seg, g[best].t, g[pick].algo,
         g[pick].seg, g[pick].t, g[pick].pred, 100 * pen);
  arcoll_choice_t ch;
  arcoll_coll_t cc = coll_of(g[0].coll);
  if (cc < ARCOLL_COLL_COUNT && arcoll_select(model_, cc, g[0].P, (MPI_Aint)g[0].m, 1, &ch) == 0) {
    int hit = -1;
    for (int i = 0; i < n; ++i)
      if (!strcmp(g[i].algo, ch.algo->name) && g[i].seg == (long long)ch.segment_bytes && g[i].k == ch.k)
        hit = i;
    if (hit >= 0)
      printf("   selector: %s/seg=%lld/k=%d measured %.4e s, penalty %.2f%%\n", ch.algo->name,
             (long long)ch.segment_bytes, ch.k, g[hit].t, 100 * (g[hit].t / g[best].t - 1));
    else
      printf("   selector: %s/seg=%lld/k=%d (pred %.4e s) not among the measured lines\n", ch.algo->name,
             (long long)ch.segment_bytes, ch.k, ch.predicted_s);
  }
  *sum += pen;
  if (pen > *mx) *mx = pen;
  ++*groups;
}

int main(int argc, char **argv) {
  arcoll_model_t model;
  arcoll_model_default(&model);
  if (argc > 1) {
    char err[512];
    if (arcoll_model_load(argv[1], &model, err, sizeof err)) {
      fprintf(stderr, "model_compare: %s\n", err);
      return 2;
    }
  }
  model_ = &model;
  printf("# model: %s\n# %-9s %5s %9s %-18s %8s %12s %12s %7s\n", model.source, "coll", "P", "m",
         "algo", "seg", "measured_s", "predicted_s", "ratio");
  char line[512];
  row_t *g = malloc(sizeof(row_t) * 4096);
  int n = 0, groups = 0;
  double sum = 0, mx = 0;
  while (fgets(line, sizeof line, stdin)) {
    row_t r;
    char kind[32];
    if (sscanf(line, "%31[^,],%d,%lld,%31[^,],%63[^,],%lld,%d,%lf", r.coll, &r.P, &r.m, kind,
               r.algo, &r.seg, &r.k, &r.t) != 8 ||
        strcmp(kind, "algo"))
      continue;
    arcoll_coll_t c = coll_of(r.coll);
    const arcoll_algo_desc_t *a = c < ARCOLL_COLL_COUNT ? arcoll_algorithm_find(c, r.algo) : NULL;
    r.pred = a ? arcoll_model_predict(&model, c, a, r.P, (MPI_Aint)r.m, (MPI_Aint)r.seg, r.k) : -1;
    if (n > 0 && (strcmp(g[0].coll, r.coll) || g[0].P != r.P || g[0].m != r.m)) {
      flush_group(g, n, &sum, &mx, &groups);
      n = 0;
    }
    if (n < 4096) g[n++] = r;
    printf("  %-9s %5d %9lld %-18s %8lld %12.4e %12.4e %7.3f\n", r.coll, r.P, r.m, r.algo, r.seg,
           r.t, r.pred, r.pred / r.t);
  }
  flush_group(g, n, &sum, &mx, &groups);
  if (groups)
    printf("# ranking penalty over %d points: mean %.2f%%, max %.2f%%\n", groups,
           100 * sum / groups, 100 * mx);
  free(g);
  return 0;
}
