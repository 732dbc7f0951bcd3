/*
 * imbalanced_bcast: seed 001_6a837e3d9ad6c429.txt "program 1" (pseudo-load).
 * One rank (default P/2) does extra work before every MPI_Bcast from the root;
 * the others go straight into the broadcast.  Plain MPI C: arcoll, when used,
 * is linked in (SMPI) or LD_PRELOADed (MPICH); this program does not know it.
 *
 * Usage: imbalanced_bcast [-n iters] [-m bytes] [-l load] [-r root] [-L loaded]
 *                         [-w warmup] [-x halo]
 *   -n  broadcasts (default 30)
 *   -m  message size in bytes, rounded down to whole ints (default 65536)
 *   -l  extra work of the loaded rank per iteration, in floating-point
 *       operations (default 1e8).  Under SMPI: smpi_execute_flops(load)
 *       (deterministic simulated time); on real MPI a multiply-add loop.
 *   -r  root (default 0);  -L loaded rank (default P/2);
 *   -w  first iterations left out of the averages (default 0)
 *   -x  halo bytes (rounded down to whole ints) each rank exchanges with its
 *       ring neighbours (rank +- 1 mod P, MPI_Sendrecv) after every broadcast
 *       (default 0: none): point-to-point traffic for the placement step
 * Every iteration: MPI_Barrier, loaded rank works, t_entry, MPI_Bcast, t_exit.
 * Broadcast time of an iteration = max t_exit - min t_entry over ranks;
 * waiting time = sum over ranks of (t_exit - t_entry) (seed 001's metrics).
 * Times are gathered after the loop.  Every element is checked; exit status 1
 * on a mismatch.  Output (one line, key=value, seconds):
 *   RESULT ranks=P iters=N warmup=W bytes=B root=R loaded=L load=F
 *          bcast_time=<avg s> wait_total=<avg s> errors=E checksum=C
 * C: sum over ranks, iterations and elements (mod 2^64) of what was received,
 * identical for every correct run with the same arguments.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(SMPI_SAMPLE_FLOPS) /* SimGrid's smpi.h (included by its mpi.h) */
#define IMB_SIMULATED 1
#endif

static volatile double imb_sink;

static void do_load(double flops) {
#ifdef IMB_SIMULATED
  smpi_execute_flops(flops);
#else
  double a = 1.0, b = 1.000000001;
  long n = (long)(flops / 2.0);
  for (long i = 0; i < n; ++i) a = a * b + 1e-12;
  imb_sink = a;
#endif
}

static unsigned value(int iter, long i, int root) {
  return (unsigned)(iter * 2654435761u) ^ (unsigned)(i * 40503u + 17u) ^ (unsigned)root;
}

int main(int argc, char **argv) {
  int iters = 30, warmup = 0, root = 0, loaded = -1;
  long bytes = 65536, halo = 0;
  double load = 1e8;
  MPI_Init(&argc, &argv);
  int P, me;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int opt;
  while ((opt = getopt(argc, argv, "n:m:l:r:L:w:x:")) != -1) {
    switch (opt) {
      case 'n': iters = atoi(optarg); break;
      case 'm': bytes = atol(optarg); break;
      case 'l': load = atof(optarg); break;
      case 'r': root = atoi(optarg); break;
      case 'L': loaded = atoi(optarg); break;
      case 'w': warmup = atoi(optarg); break;
      case 'x': halo = atol(optarg); break;
      default:
        if (me == 0)
          fprintf(stderr, "usage: %s [-n iters] [-m bytes] [-l flops] [-r root] "
                          "[-L loaded rank] [-w warmup] [-x halo bytes]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (loaded < 0) loaded = P / 2;
  if (iters < 1 || bytes < 0 || root < 0 || root >= P || loaded >= P || warmup < 0 ||
      warmup >= iters || halo < 0) {
    if (me == 0)
      fprintf(stderr, "imbalanced_bcast: invalid arguments: need iters >= 1, bytes >= 0, halo >= 0, "
                      "0 <= root < %d, loaded < %d, 0 <= warmup < iters\n", P, P);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long count = bytes / (long)sizeof(unsigned);
  unsigned *buf = malloc(sizeof(unsigned) * (size_t)(count > 0 ? count : 1));
  double *t = malloc(sizeof(double) * 2 * (size_t)iters); /* entry, exit */
  long hcount = halo / (long)sizeof(unsigned);
  unsigned *hsend = malloc(sizeof(unsigned) * (size_t)(hcount > 0 ? 2 * hcount : 2));
  unsigned *hrecv = malloc(sizeof(unsigned) * (size_t)(hcount > 0 ? 2 * hcount : 2));
  int right = (me + 1) % P, left = (me + P - 1) % P;
  long errors = 0;
  unsigned long long checksum = 0;
  for (int it = 0; it < iters; ++it) {
    for (long i = 0; i < count; ++i) buf[i] = me == root ? value(it, i, root) : 0xdeadbeefu;
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == loaded) do_load(load);
    t[2 * it] = MPI_Wtime();
    MPI_Bcast(buf, (int)count, MPI_UNSIGNED, root, MPI_COMM_WORLD);
    t[2 * it + 1] = MPI_Wtime();
    for (long i = 0; i < count; ++i)
      if (buf[i] != value(it, i, root)) {
        if (errors < 5)
          fprintf(stderr, "imbalanced_bcast: rank %d iteration %d element %ld: got %u, "
                          "expected %u\n", me, it, i, buf[i], value(it, i, root));
        ++errors;
      }
    for (long i = 0; i < count; ++i) checksum += buf[i];
    if (hcount > 0) { /* halo: send to the right and left, receive from the left and right */
      for (long i = 0; i < 2 * hcount; ++i) hsend[i] = value(it, i, me);
      MPI_Sendrecv(hsend, (int)hcount, MPI_UNSIGNED, right, 1, hrecv, (int)hcount, MPI_UNSIGNED,
                   left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Sendrecv(hsend + hcount, (int)hcount, MPI_UNSIGNED, left, 2, hrecv + hcount,
                   (int)hcount, MPI_UNSIGNED, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (long i = 0; i < 2 * hcount; ++i) {
        unsigned want = value(it, i, i < hcount ? left : right);
        if (hrecv[i] != want) {
          if (errors < 5)
            fprintf(stderr, "imbalanced_bcast: rank %d iteration %d halo element %ld: got %u, "
                            "expected %u\n", me, it, i, hrecv[i], want);
          ++errors;
        }
        checksum += hrecv[i];
      }
    }
  }
  unsigned long long total_checksum = 0;
  MPI_Reduce(&checksum, &total_checksum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  double *all = me == 0 ? malloc(sizeof(double) * 2 * (size_t)iters * (size_t)P) : NULL;
  MPI_Gather(t, 2 * iters, MPI_DOUBLE, all, 2 * iters, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  long total_errors = 0;
  MPI_Allreduce(&errors, &total_errors, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) {
    double sum_bcast = 0, sum_wait = 0;
    for (int it = warmup; it < iters; ++it) {
      double lo = 1e300, hi = -1e300;
      for (int r = 0; r < P; ++r) {
        double in = all[(size_t)r * 2 * iters + 2 * it], out = all[(size_t)r * 2 * iters + 2 * it + 1];
        if (in < lo) lo = in;
        if (out > hi) hi = out;
        sum_wait += out - in;
      }
      sum_bcast += hi - lo;
    }
    int n = iters - warmup;
    printf("RESULT ranks=%d iters=%d warmup=%d bytes=%ld root=%d loaded=%d load=%g "
           "bcast_time=%.9g wait_total=%.9g errors=%ld checksum=%llu\n",
           P, iters, warmup, count * (long)sizeof(unsigned), root, loaded, load,
           sum_bcast / n, sum_wait / n, total_errors, total_checksum);
    fflush(stdout);
  }
  free(all);
  free(t);
  free(buf);
  free(hsend);
  free(hrecv);
  MPI_Finalize();
  return total_errors ? 1 : 0;
}
