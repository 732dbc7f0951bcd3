/*
 * Seed 004 (004_045dc3534e1f0a8b.txt, ZipMPI) setting under SMPI: MPI_Bcast
 * of text-like or random bytes from rank 0, or MPI_Allgather of BYTES in all
 * (BYTES / P per rank, each rank's block its own text or random), timed call by call (a barrier
 * before each, seed 003's care: one broadcast per measurement; time = max
 * over ranks of the time inside), linked with libarcoll (run with
 * smpirun --cfg=smpi/privatize-libs:<libarcoll.so>; ARCOLL_BCAST_ALGORITHM=pmpi
 * gives SMPI's own bcast).  Driven by tools/compress-bench.sh.
 * Usage: smpi_compress_bench bcast|allgather BYTES text|random ITERS STEADY
 * Prints: "RESULT COLL BYTES KIND mean_all_s mean_steady_s ALGO CODEC"
 * (mean_steady_s over the last STEADY calls; ALGO / CODEC of the last timed
 * call, CODEC "-" when ALGO is not `compressed`).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compress_codec.h" /* arcoll_text_like */

const char *arcoll_last_algorithm(const char *collective);
const char *arcoll_bcast_last_codec(double *ratio, int *decided_here);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  if (argc < 6) {
    if (me == 0) fprintf(stderr, "usage: %s bcast|allgather BYTES text|random ITERS STEADY\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int ag = !strcmp(argv[1], "allgather");
  const char *coll = ag ? "allgather" : "bcast";
  ++argv;
  const size_t n = ag ? (size_t)atol(argv[1]) / (size_t)P * (size_t)P : (size_t)atol(argv[1]);
  const size_t blk = ag ? n / (size_t)P : n;
  const int text = !strcmp(argv[2], "text"), iters = atoi(argv[3]), steady = atoi(argv[4]);
  char *buf = malloc(n), *mine = malloc(blk);
  if (me == 0 || ag) {
    if (text) arcoll_text_like(mine, blk, 42u + (unsigned)me);
    else {
      uint64_t x = 0x2545F4914F6CDD1Dull + (uint64_t)me;
      for (size_t i = 0; i < blk; ++i) x ^= x << 13, x ^= x >> 7, x ^= x << 17, mine[i] = (char)(x >> 24);
    }
  }
  memset(buf, 0, n);
  if (!ag && me == 0) memcpy(buf, mine, n);
  double sum_all = 0, sum_steady = 0;
  for (int it = 0; it < iters; ++it) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (ag) MPI_Allgather(mine, (int)blk, MPI_BYTE, buf, (int)blk, MPI_BYTE, MPI_COMM_WORLD);
    else MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
    double dt = MPI_Wtime() - t0, mx = 0;
    MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    sum_all += mx;
    if (it >= iters - steady) sum_steady += mx;
  }
  const char *algo = arcoll_last_algorithm(coll); /* of the last timed call */
  const char *codec = arcoll_bcast_last_codec(NULL, NULL);
  if (algo && strcmp(algo, "compressed") != 0) codec = "-";
  /* correctness of the last call: every rank's bytes hash like the root's */
  uint64_t h = 1469598103934665603ull, h0;
  for (size_t i = 0; i < n; ++i) h = (h ^ (unsigned char)buf[i]) * 1099511628211ull;
  h0 = h;
  MPI_Bcast(&h0, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  int bad = h != h0, anybad = 0;
  MPI_Reduce(&bad, &anybad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0)
    printf("RESULT %s %zu %s %.6f %.6f %s %s%s\n", coll, n, argv[2], sum_all / iters,
           sum_steady / steady, algo ? algo : "-", codec ? codec : "-",
           anybad ? " DATA-MISMATCH" : "");
  free(buf), free(mine);
  MPI_Finalize();
  return 0;
}
