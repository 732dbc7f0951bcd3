/* Test program for the arcoll profiler: every blocking collective once (int
 * form), every one again in its MPI-4 _c form (when MPI_VERSION >= 4), an
 * MPI_Ibcast + MPI_Wait, an MPI_IN_PLACE allreduce, a collective on a split
 * communicator and an intercommunicator bcast (>= 2 ranks). Every result is
 * checked element by element; exits 1 on a wrong result.
 * Counts are chosen so that the profiler's `bytes` are known (see
 * profiler/RECORDER_SEMANTICS.md): N = 4 ints = 16 bytes per block. The "site:" marker
 * comments give run_case.sh the lines the call-site names must show. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4
static int rank, size, errors;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "rank %d: FAIL %s: ", rank, #cond);  \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, "\n");                               \
      errors++;                                            \
    }                                                      \
  } while (0)

static void fill(int *b, int n, int base) { for (int i = 0; i < n; i++) b[i] = base + i; }

static void run(int large) {
  int P = size, r = rank;
  int *sb = malloc(sizeof(int) * N * P), *rb = malloc(sizeof(int) * N * P);
  int *cnt = malloc(sizeof(int) * P), *dsp = malloc(sizeof(int) * P);
  MPI_Count *ccnt = malloc(sizeof(MPI_Count) * P);
  MPI_Aint *cdsp = malloc(sizeof(MPI_Aint) * P);
  MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * P);
  for (int i = 0; i < P; i++) { cnt[i] = N; dsp[i] = N * i; ccnt[i] = N; cdsp[i] = N * i; types[i] = MPI_INT; }
  (void)ccnt; (void)cdsp;
#if MPI_VERSION >= 4
#define C(name, ...) (large ? name##_c(__VA_ARGS__) : name(__VA_ARGS__))
#else
#define C(name, ...) name(__VA_ARGS__)
#endif

  if (!large) MPI_Barrier(MPI_COMM_WORLD);

  fill(rb, N, r == 1 % P ? 100 : -1);
  C(MPI_Bcast, rb, N, MPI_INT, 1 % P, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) CHECK(rb[i] == 100 + i, "bcast[%d]=%d", i, rb[i]);

  fill(sb, N, r); memset(rb, 0, sizeof(int) * N);
  C(MPI_Reduce, sb, rb, N, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (r == 0) for (int i = 0; i < N; i++) CHECK(rb[i] == P * (P - 1) / 2 + P * i, "reduce[%d]=%d", i, rb[i]);

  fill(sb, N, r);
  C(MPI_Allreduce, sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) CHECK(rb[i] == P * (P - 1) / 2 + P * i, "allreduce[%d]=%d", i, rb[i]);

  fill(sb, N, 10 * r);
  C(MPI_Gather, sb, N, MPI_INT, rb, N, MPI_INT, 0, MPI_COMM_WORLD);
  if (r == 0) for (int j = 0; j < P; j++) for (int i = 0; i < N; i++) CHECK(rb[N * j + i] == 10 * j + i, "gather");

#if MPI_VERSION >= 4
  if (large) MPI_Gatherv_c(sb, N, MPI_INT, rb, ccnt, cdsp, MPI_INT, 0, MPI_COMM_WORLD);
  else
#endif
  MPI_Gatherv(sb, N, MPI_INT, rb, cnt, dsp, MPI_INT, 0, MPI_COMM_WORLD);
  if (r == 0) for (int j = 0; j < P; j++) for (int i = 0; i < N; i++) CHECK(rb[N * j + i] == 10 * j + i, "gatherv");

  for (int j = 0; j < P; j++) fill(sb + N * j, N, 10 * j);
  C(MPI_Scatter, sb, N, MPI_INT, rb, N, MPI_INT, 0, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) CHECK(rb[i] == 10 * r + i, "scatter");
  memset(rb, 0, sizeof(int) * N);
#if MPI_VERSION >= 4
  if (large) MPI_Scatterv_c(sb, ccnt, cdsp, MPI_INT, rb, N, MPI_INT, 0, MPI_COMM_WORLD);
  else
#endif
  MPI_Scatterv(sb, cnt, dsp, MPI_INT, rb, N, MPI_INT, 0, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) CHECK(rb[i] == 10 * r + i, "scatterv");

  fill(sb, N, 10 * r);
  C(MPI_Allgather, sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD);
  for (int j = 0; j < P; j++) for (int i = 0; i < N; i++) CHECK(rb[N * j + i] == 10 * j + i, "allgather");
  memset(rb, 0, sizeof(int) * N * P);
#if MPI_VERSION >= 4
  if (large) MPI_Allgatherv_c(sb, N, MPI_INT, rb, ccnt, cdsp, MPI_INT, MPI_COMM_WORLD);
  else
#endif
  MPI_Allgatherv(sb, N, MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
  for (int j = 0; j < P; j++) for (int i = 0; i < N; i++) CHECK(rb[N * j + i] == 10 * j + i, "allgatherv");

  for (int j = 0; j < P; j++) fill(sb + N * j, N, 100 * r + 10 * j);
  C(MPI_Alltoall, sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD);
  for (int j = 0; j < P; j++) for (int i = 0; i < N; i++) CHECK(rb[N * j + i] == 100 * j + 10 * r + i, "alltoall");
  memset(rb, 0, sizeof(int) * N * P);
#if MPI_VERSION >= 4
  if (large) MPI_Alltoallv_c(sb, ccnt, cdsp, MPI_INT, rb, ccnt, cdsp, MPI_INT, MPI_COMM_WORLD);
  else
#endif
  MPI_Alltoallv(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
  for (int j = 0; j < P; j++) for (int i = 0; i < N; i++) CHECK(rb[N * j + i] == 100 * j + 10 * r + i, "alltoallv");
  memset(rb, 0, sizeof(int) * N * P);
  {
    int bd[64]; MPI_Aint cbd[64];
    for (int j = 0; j < P; j++) { bd[j] = (int)(sizeof(int) * N * j); cbd[j] = bd[j]; }
    (void)cbd;
#if MPI_VERSION >= 4
    if (large) MPI_Alltoallw_c(sb, ccnt, cbd, types, rb, ccnt, cbd, types, MPI_COMM_WORLD);
    else
#endif
    MPI_Alltoallw(sb, cnt, bd, types, rb, cnt, bd, types, MPI_COMM_WORLD);
  }
  for (int j = 0; j < P; j++) for (int i = 0; i < N; i++) CHECK(rb[N * j + i] == 100 * j + 10 * r + i, "alltoallw");

  for (int j = 0; j < N * P; j++) sb[j] = r + j;
#if MPI_VERSION >= 4
  if (large) MPI_Reduce_scatter_c(sb, rb, ccnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  else
#endif
  MPI_Reduce_scatter(sb, rb, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) CHECK(rb[i] == P * (P - 1) / 2 + P * (N * r + i), "reduce_scatter");
  C(MPI_Reduce_scatter_block, sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) CHECK(rb[i] == P * (P - 1) / 2 + P * (N * r + i), "reduce_scatter_block");

  fill(sb, N, r);
  C(MPI_Scan, sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) CHECK(rb[i] == r * (r + 1) / 2 + (r + 1) * i, "scan");
  C(MPI_Exscan, sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (r > 0) for (int i = 0; i < N; i++) CHECK(rb[i] == (r - 1) * r / 2 + r * i, "exscan");

  free(sb); free(rb); free(cnt); free(dsp); free(ccnt); free(cdsp); free(types);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  run(0);
#if MPI_VERSION >= 4
  run(1);
#endif
  /* nonblocking bcast (root 0, 8 doubles = 64 bytes) */
  double d[8];
  for (int i = 0; i < 8; i++) d[i] = rank == 0 ? 0.5 * i : -1;
  MPI_Request req;
  MPI_Ibcast(d, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req); /* site: ibcast */
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  for (int i = 0; i < 8; i++) CHECK(d[i] == 0.5 * i, "ibcast[%d]=%g", i, d[i]);
  /* MPI_IN_PLACE allreduce: 2 ints = 8 bytes */
  int ip[2] = {rank, 1};
  MPI_Allreduce(MPI_IN_PLACE, ip, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* site: inplace */
  CHECK(ip[0] == size * (size - 1) / 2 && ip[1] == size, "inplace allreduce");
  /* split communicator: even/odd, allreduce of 1 int, twice (same comm id) */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  int one = 1, hs = 0, hsize;
  MPI_Comm_size(half, &hsize);
  MPI_Allreduce(&one, &hs, 1, MPI_INT, MPI_SUM, half);
  CHECK(hs == hsize, "split allreduce %d", hs);
  MPI_Allreduce(&one, &hs, 1, MPI_INT, MPI_SUM, half);
  /* intercommunicator between the even and the odd ranks: bcast from even rank 0 */
  if (size >= 2) {
    MPI_Comm inter;
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 77, &inter);
    int v = rank == 0 ? 4242 : -1, hr;
    MPI_Comm_rank(half, &hr);
    int root = rank % 2 == 0 ? (hr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    MPI_Bcast(&v, 1, MPI_INT, root, inter);
    if (rank % 2) CHECK(v == 4242, "intercomm bcast %d", v);
    MPI_Comm_free(&inter);
  }
  MPI_Comm_free(&half);
  MPI_Finalize();
  if (errors) fprintf(stderr, "rank %d: %d errors\n", rank, errors);
  return errors ? 1 : 0;
}
