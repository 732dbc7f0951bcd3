/*
 * Seed 004 (004_045dc3534e1f0a8b.txt, ZipMPI) setting under SMPI, one
 * collective of text-like or random bytes, timed call by call (a barrier
 * before each, seed 003's care: one collective per measurement; time = max
 * over ranks of the time inside), linked with libarcoll (run with
 * smpirun --cfg=smpi/privatize-libs:<libarcoll.so>; ARCOLL_<COLL>_ALGORITHM=pmpi
 * gives SMPI's own collective).  Driven by tools/compress-bench.sh.
 *   bcast     BYTES from rank 0
 *   allgather BYTES in all, BYTES / P per rank (each rank's block its own data)
 *   gather    BYTES in all at root 0, BYTES / P per rank
 *   alltoall  BYTES sent by each rank, blocks of BYTES / P (each block its own data)
 * Usage: smpi_compress_bench bcast|allgather|gather|alltoall BYTES text|random ITERS STEADY
 * Prints: "RESULT COLL BYTES KIND mean_all_s mean_steady_s ALGO CODEC"
 * (mean_steady_s over the last STEADY calls; ALGO of the last timed call at
 * rank 0; CODEC the largest codec any rank last decided or received - "-" when
 * ALGO is not `compressed`), and DATA-MISMATCH when a rank's result of the
 * last call differs from the blocks regenerated independently.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compress_codec.h" /* arcoll_codec_name */

/* libarcoll's introspection (adapt/arcoll.h): the last codec is that of the
 * process's last compressed collective, whichever (bcast or not) */
const char *arcoll_last_algorithm(const char *collective);
const char *arcoll_bcast_last_codec(double *ratio, int *decided_here);

enum { BCAST, ALLGATHER, GATHER, ALLTOALL };
static const char *const names[] = {"bcast", "allgather", "gather", "alltoall"};

/* The block rank q sends to rank t (bcast / allgather / gather: t = 0). */
static void gen(char *b, size_t n, int text, int q, int t, int P) {
  const unsigned id = (unsigned)(q * P + t);
  if (text) {
    arcoll_text_like(b, n, 42u + id);
    return;
  }
  uint64_t x = 0x2545F4914F6CDD1Dull + id;
  for (size_t i = 0; i < n; ++i) x ^= x << 13, x ^= x >> 7, x ^= x << 17, b[i] = (char)(x >> 24);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, P, coll = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  for (int c = 0; argc >= 6 && c < 4; ++c)
    if (!strcmp(argv[1], names[c])) coll = c;
  if (coll < 0) {
    if (me == 0)
      fprintf(stderr, "usage: %s bcast|allgather|gather|alltoall BYTES text|random ITERS STEADY\n",
              argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const size_t all = (size_t)atol(argv[2]);
  const size_t blk = coll == BCAST ? all : all / (size_t)P, n = coll == BCAST ? all : blk * P;
  const int text = !strcmp(argv[3], "text"), iters = atoi(argv[4]), steady = atoi(argv[5]);
  /* mine: what this rank sends (alltoall: P blocks), buf: what it receives */
  const size_t nmine = coll == ALLTOALL ? n : blk;
  char *buf = calloc(n, 1), *mine = malloc(nmine), *want = malloc(n);
  for (int t = 0; t < (coll == ALLTOALL ? P : 1); ++t)
    gen(mine + (size_t)t * blk, blk, text, me, coll == ALLTOALL ? t : 0, P);
  if (coll == BCAST && me == 0) memcpy(buf, mine, n);
  double sum_all = 0, sum_steady = 0;
  for (int it = 0; it < iters; ++it) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (coll == ALLGATHER) MPI_Allgather(mine, (int)blk, MPI_BYTE, buf, (int)blk, MPI_BYTE, MPI_COMM_WORLD);
    else if (coll == GATHER) MPI_Gather(mine, (int)blk, MPI_BYTE, buf, (int)blk, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (coll == ALLTOALL) MPI_Alltoall(mine, (int)blk, MPI_BYTE, buf, (int)blk, MPI_BYTE, MPI_COMM_WORLD);
    else MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
    double dt = MPI_Wtime() - t0, mx = 0;
    MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    sum_all += mx;
    if (it >= iters - steady) sum_steady += mx;
  }
  const char *algo = arcoll_last_algorithm(names[coll]); /* of the last timed call */
  const char *last = arcoll_bcast_last_codec(NULL, NULL);
  int codec = -1, maxc = -1;
  for (int c = 0; last && c < ARCOLL_CODEC_COUNT; ++c)
    if (!strcmp(last, arcoll_codec_name((arcoll_codec_t)c))) codec = c;
  MPI_Reduce(&codec, &maxc, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  const char *cname = maxc >= 0 ? arcoll_codec_name((arcoll_codec_t)maxc) : "-";
  if (algo && strcmp(algo, "compressed") != 0) cname = "-";
  /* correctness of the last call against independently generated blocks */
  for (int q = 0; q < (coll == BCAST ? 1 : P); ++q)
    gen(want + (size_t)q * blk, blk, text, q, coll == ALLTOALL ? me : 0, P);
  int bad = (coll != GATHER || me == 0) && memcmp(buf, want, n) != 0, anybad = 0;
  MPI_Reduce(&bad, &anybad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0)
    printf("RESULT %s %zu %s %.6f %.6f %s %s%s\n", names[coll], n, argv[3], sum_all / iters,
           sum_steady / steady, algo ? algo : "-", cname ? cname : "-",
           anybad ? " DATA-MISMATCH" : "");
  free(buf), free(mine), free(want);
  MPI_Finalize();
  return 0;
}
