/**
 * @file calibrate.c
 * @brief arcoll-calibrate: measure point-to-point and write the model file of
 *        collectives/select.h (format in collectives/README.md).
 *
 *     mpiexec.hydra -n 2 arcoll-calibrate [-o model.json] [-r REPS] [-m MAX_BYTES] [-q]
 *     smpirun -np 2 -platform P.xml -hostfile H arcoll-calibrate -o model.json   (SMPI build)
 *
 * The fits and the model's curves are tools/calibrate_fit.h (no MPI); this
 * file measures and writes.
 * Measurement (seed 003_e288917cd7e80de5.txt care): every repetition starts
 * with an MPI_Barrier and an untimed 0-byte ping-pong (so that the responder
 * is waiting when the clock starts; the barrier alone releases the two ranks
 * up to a latency apart); the initiator of the ping-pong alternates between the
 * two ranks of the pair (even repetitions: the lower rank); the min and the
 * median over the repetitions are reported.  Sizes 0 and 1, 2, 4, ... bytes up
 * to MAX_BYTES (default 4 MiB).  Fits (seconds, bytes/second):
 *  - linear model T(m) = t_s + m/B: least squares over the medians of the
 *    half round trips, weighted by 1/T^2 (relative error, so both the
 *    latency and the bandwidth end count; plain least squares would ignore
 *    t_s next to 4 MiB); t_s clamped to >= 0;
 *  - LogGP: o = median duration of the MPI_Send call of an 8-byte message;
 *    g = (time of 64 back-to-back 8-byte sends + 0-byte ack - RTT(0)) / 63;
 *    G = slope of the medians for m >= 64 KiB (least squares);
 *    L = RTT(0)/2 - 2 o, clamped to >= 0;
 *  - gamma = median time of MPI_Reduce_local(MPI_SUM, MPI_DOUBLE) over 1 MiB,
 *    per byte;
 *  - codec entry (rank 0's CPU; compress_codec.h arcoll_codec_benchmark):
 *    LZ4 and zstd level 1 compression / decompression throughput (bytes of
 *    uncompressed data per second, best of 3) and ratio on 256 KiB of
 *    text-like data in 64 KiB blocks, written as "codec" (select.h
 *    arcoll_codec_calib_t), which the compressed collectives' decision uses
 *    instead of measuring at first use (compress_decide.h).
 * The medians are also written as the measured curves "intra_curve" and
 * "inter_curve" ([[bytes, seconds], ...], select.h), which the model
 * interpolates.  Stream period per size ("intra_gap_curve",
 * "inter_gap_curve"): 8 messages sent back to back (MPI_Isend) and a 0-byte
 * acknowledgement take T(m) + 7 gap(m) + T(0), so
 * gap(m) = (T_stream - T(m) - T(0)) / 7 (clamped to >= 0): the link
 * occupancy of one message, which the pipelines' period uses.
 * Pairs: rank 0 with the first rank on its node (intra) and with the first
 * rank on another node (inter), by MPI_Get_processor_name.  A class with no
 * pair is copied from the other and the file says so
 * ("inter_copied_from_intra" / "intra_copied_from_inter").  Other ranks only
 * join the barriers.  Exit 0, or 1 with a message (fewer than 2 ranks, bad
 * option, unwritable file).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_fit.h"
#include "compress_codec.h"
#include "select.h"

/* Half round-trip times of `reps` ping-pongs of `bytes` between ranks a and b;
 * every rank of comm joins the barriers.  Result (valid on rank 0): min, median. */
static void pingpong(MPI_Comm comm, int me, int a, int b, long bytes, int reps, char *buf,
                     double *tmin, double *tmed, int stream) {
  double *t = malloc(sizeof(double) * (size_t)reps);
  int nt = 0;
  for (int r = 0; r < reps; ++r) {
    int init = (r % 2 == 0) ? a : b, other = init == a ? b : a;
    MPI_Barrier(comm);
    /* untimed 0-byte ping-pong first: the barrier releases ranks at
     * different times; after it the responder is already waiting */
    if (me == init) {
      MPI_Send(buf, 0, MPI_BYTE, other, 0, comm);
      MPI_Recv(buf, 0, MPI_BYTE, other, 0, comm, MPI_STATUS_IGNORE);
    } else if (me == other) {
      MPI_Recv(buf, 0, MPI_BYTE, init, 0, comm, MPI_STATUS_IGNORE);
      MPI_Send(buf, 0, MPI_BYTE, init, 0, comm);
    }
    if (stream) {
      /* ARCOLL_CALIB_STREAM messages back to back, then a 0-byte acknowledgement */
      MPI_Request rq[ARCOLL_CALIB_STREAM];
      if (me == init) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < ARCOLL_CALIB_STREAM; ++i)
          MPI_Isend(buf, (int)bytes, MPI_BYTE, other, 7, comm, &rq[i]);
        for (int i = 0; i < ARCOLL_CALIB_STREAM; ++i) MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
        MPI_Recv(buf, 0, MPI_BYTE, other, 8, comm, MPI_STATUS_IGNORE);
        t[nt++] = MPI_Wtime() - t0;
      } else if (me == other) {
        for (int i = 0; i < ARCOLL_CALIB_STREAM; ++i)
          MPI_Irecv(buf + (size_t)i * (size_t)bytes, (int)bytes, MPI_BYTE, init, 7, comm, &rq[i]);
        for (int i = 0; i < ARCOLL_CALIB_STREAM; ++i) MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
        MPI_Send(buf, 0, MPI_BYTE, init, 8, comm);
      }
    } else if (me == init) {
      double t0 = MPI_Wtime();
      MPI_Send(buf, (int)bytes, MPI_BYTE, other, 1, comm);
      MPI_Recv(buf, (int)bytes, MPI_BYTE, other, 1, comm, MPI_STATUS_IGNORE);
      t[nt++] = (MPI_Wtime() - t0) / 2;
    } else if (me == other) {
      MPI_Recv(buf, (int)bytes, MPI_BYTE, init, 1, comm, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)bytes, MPI_BYTE, init, 1, comm);
    }
  }
  /* rank 0 collects both halves (a and b each initiated half of the reps) */
  double *all = malloc(sizeof(double) * (size_t)reps);
  int n = 0;
  if (me == a || me == b) {
    if (me != 0) MPI_Send(t, nt, MPI_DOUBLE, 0, 2, comm);
  }
  if (me == 0) {
    if (a == 0 || b == 0) {
      memcpy(all, t, sizeof(double) * (size_t)nt);
      n = nt;
    }
    int peers[2] = {a, b};
    for (int i = 0; i < 2; ++i) {
      if (peers[i] == 0) continue;
      MPI_Status st;
      int c;
      MPI_Recv(all + n, reps - n, MPI_DOUBLE, peers[i], 2, comm, &st);
      MPI_Get_count(&st, MPI_DOUBLE, &c);
      n += c;
    }
    double mn = all[0];
    for (int i = 1; i < n; ++i)
      if (all[i] < mn) mn = all[i];
    *tmin = mn;
    *tmed = arcoll_calib_median(all, n);
  }
  free(all);
  free(t);
}

/* Median duration of the MPI_Send call of 8 bytes (sender a, receiver b). */
static double send_call(MPI_Comm comm, int me, int a, int b, int reps, char *buf) {
  double *t = malloc(sizeof(double) * (size_t)reps), res = 0;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(comm);
    if (me == a) {
      double t0 = MPI_Wtime();
      MPI_Send(buf, 8, MPI_BYTE, b, 3, comm);
      t[r] = MPI_Wtime() - t0;
    } else if (me == b) {
      MPI_Recv(buf, 8, MPI_BYTE, a, 3, comm, MPI_STATUS_IGNORE);
    }
  }
  if (me == a) res = arcoll_calib_median(t, reps);
  free(t);
  return res;
}

/* Median time of ARCOLL_CALIB_BURST back-to-back 8-byte sends a -> b plus a 0-byte ack. */
static double burst(MPI_Comm comm, int me, int a, int b, int reps, char *buf) {
  double *t = malloc(sizeof(double) * (size_t)reps), res = 0;
  MPI_Request req[ARCOLL_CALIB_BURST];
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(comm);
    if (me == a) {
      double t0 = MPI_Wtime();
      for (int i = 0; i < ARCOLL_CALIB_BURST; ++i) MPI_Isend(buf + 8 * i, 8, MPI_BYTE, b, 4, comm, &req[i]);
      for (int i = 0; i < ARCOLL_CALIB_BURST; ++i) MPI_Wait(&req[i], MPI_STATUS_IGNORE);
      MPI_Recv(buf, 0, MPI_BYTE, b, 5, comm, MPI_STATUS_IGNORE);
      t[r] = MPI_Wtime() - t0;
    } else if (me == b) {
      for (int i = 0; i < ARCOLL_CALIB_BURST; ++i) MPI_Irecv(buf + 8 * i, 8, MPI_BYTE, a, 4, comm, &req[i]);
      for (int i = 0; i < ARCOLL_CALIB_BURST; ++i) MPI_Wait(&req[i], MPI_STATUS_IGNORE);
      MPI_Send(buf, 0, MPI_BYTE, a, 5, comm);
    }
  }
  if (me == a) res = arcoll_calib_median(t, reps);
  free(t);
  return res;
}

static void measure(MPI_Comm comm, int me, arcoll_calib_pair_t *r, long max_bytes, int reps_small,
                    char *buf) {
  int n = 0;
  /* warm-up (connection set-up, first-touch of the buffers), not recorded */
  {
    double mn, md;
    pingpong(comm, me, r->a, r->b, 0, 20, buf, &mn, &md, 0);
    pingpong(comm, me, r->a, r->b, max_bytes, 2, buf, &mn, &md, 1);
  }
  for (long s = 0; s <= max_bytes && n < ARCOLL_CALIB_POINTS; s = s ? s * 2 : 1) {
    /* fewer repetitions for the large sizes: about 64 MiB moved per size */
    long rr = reps_small;
    if (s > 0 && (long)reps_small * s > (64L << 20)) rr = (64L << 20) / s;
    if (rr < 6) rr = 6;
    rr += rr % 2; /* even: both ranks initiate equally often */
    double mn = 0, md = 0, smn = 0, smd = 0;
    pingpong(comm, me, r->a, r->b, s, (int)rr, buf, &mn, &md, 0);
    long rs = rr / 2 > 4 ? rr / 2 : 4; /* streams move ARCOLL_CALIB_STREAM times the data */
    rs += rs % 2;
    pingpong(comm, me, r->a, r->b, s, (int)rs, buf, &smn, &smd, 1);
    r->pts[n].bytes = s;
    r->pts[n].min_s = mn;
    r->pts[n].median_s = md;
    r->pts[n].gap_s = smd; /* converted to a period below, once T(0) is known */
    ++n;
  }
  r->npts = n;
  arcoll_calib_stream_gaps(r);
  double sc = send_call(comm, me, r->a, r->b, reps_small, buf);
  double bt = burst(comm, me, r->a, r->b, reps_small, buf);
  /* the sender's numbers to rank 0 */
  if (r->a != 0) {
    double v[2] = {sc, bt};
    if (me == r->a) MPI_Send(v, 2, MPI_DOUBLE, 0, 6, comm);
    if (me == 0) {
      MPI_Recv(v, 2, MPI_DOUBLE, r->a, 6, comm, MPI_STATUS_IGNORE);
      sc = v[0];
      bt = v[1];
    }
  }
  r->send_call_s = sc;
  r->burst_s = bt;
  if (me == 0) arcoll_calib_fit_params(r);
}

static void print_class(FILE *f, const char *name, const arcoll_calib_pair_t *r) {
  fprintf(f, "# %s pair: ranks %d and %d\n# %12s %14s %14s %14s\n", name, r->a, r->b, "bytes",
          "min_s", "median_s", "stream_gap_s");
  for (int i = 0; i < r->npts; ++i)
    fprintf(f, "  %12ld %14.6e %14.6e %14.6e\n", r->pts[i].bytes, r->pts[i].min_s, r->pts[i].median_s,
            r->pts[i].gap_s);
  fprintf(f,
          "# %s fit: t_s=%.4e s B=%.4e B/s | LogGP L=%.4e o=%.4e g=%.4e G=%.4e s/B "
          "(1/G=%.4e B/s)\n",
          name, r->p.t_s, r->p.B, r->p.L, r->p.o, r->p.g, r->p.G, 1.0 / r->p.G);
}

/* JSON array of the points of r into buf (returns chars written). */
static int points_json(char *buf, size_t len, const arcoll_calib_pair_t *r) {
  size_t n = 0;
  n += (size_t)snprintf(buf + n, len - n, "[");
  for (int i = 0; i < r->npts && n < len; ++i)
    n += (size_t)snprintf(buf + n, len - n, "%s{\"bytes\":%ld,\"min_s\":%.17g,\"median_s\":%.17g,\"stream_gap_s\":%.17g}",
                          i ? "," : "", r->pts[i].bytes, r->pts[i].min_s, r->pts[i].median_s,
                          r->pts[i].gap_s);
  if (n < len) n += (size_t)snprintf(buf + n, len - n, "]");
  return (int)n;
}

static int usage(int me, const char *msg) {
  if (me == 0)
    fprintf(stderr,
            "arcoll-calibrate: %s\nusage: mpiexec.hydra -n 2 arcoll-calibrate [-o model.json] "
            "[-r REPS (default 40)] [-m MAX_BYTES (default 4194304)] [-q]\n",
            msg);
  return 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  int me, P;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &P);
  const char *out = "model.json";
  int reps = 40, quiet = 0;
  long max_bytes = 4L << 20;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "-r") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-m") && i + 1 < argc) max_bytes = atol(argv[++i]);
    else if (!strcmp(argv[i], "-q")) quiet = 1;
    else {
      int rc = usage(me, "unknown or incomplete option");
      MPI_Finalize();
      return rc;
    }
  }
  if (P < 2 || reps < 2 || max_bytes < 1 || max_bytes > (1L << 30)) {
    int rc = usage(me, P < 2 ? "needs at least 2 ranks" : "-r must be >= 2, -m in 1..2^30");
    MPI_Finalize();
    return rc;
  }
  /* node of every rank */
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len;
  MPI_Get_processor_name(name, &len);
  char *names = malloc((size_t)P * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                comm);
  arcoll_calib_pair_t intra, inter;
  memset(&intra, 0, sizeof intra);
  memset(&inter, 0, sizeof inter);
  for (int r = 1; r < P; ++r) {
    int same = !strcmp(names + (size_t)r * MPI_MAX_PROCESSOR_NAME, names);
    arcoll_calib_pair_t *c = same ? &intra : &inter;
    if (!c->have) {
      c->have = 1;
      c->a = 0;
      c->b = r;
    }
  }
  char *buf = calloc((size_t)max_bytes * ARCOLL_CALIB_STREAM + 8 * ARCOLL_CALIB_BURST, 1);
  if (intra.have) measure(comm, me, &intra, max_bytes, reps, buf);
  if (inter.have) measure(comm, me, &inter, max_bytes, reps, buf);
  /* gamma: MPI_Reduce_local on 1 MiB of doubles */
  double gamma = 0;
  {
    const int n = 131072;
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n), t[11];
    for (int i = 0; i < n; ++i) x[i] = y[i] = 1.0 / (i + 1);
    for (int r = 0; r < 11; ++r) {
      double t0 = MPI_Wtime();
      MPI_Reduce_local(x, y, n, MPI_DOUBLE, MPI_SUM);
      t[r] = MPI_Wtime() - t0;
    }
    gamma = arcoll_calib_median(t, 11) / (8.0 * n);
    free(x);
    free(y);
  }
  int rc = 0;
  if (me == 0) {
    arcoll_model_t m;
    memset(&m, 0, sizeof m);
    const char *copied = arcoll_calib_fill_model(&intra, &inter, &m);
    m.gamma = gamma;
    /* the codecs of the compressed collectives, on this CPU */
    arcoll_codec_calib_t *cc[2] = {&m.codec_lz4, &m.codec_zstd};
    const arcoll_codec_t codecs[2] = {ARCOLL_CODEC_LZ4, ARCOLL_CODEC_ZSTD};
    for (int i = 0; i < 2; ++i)
      if (arcoll_codec_benchmark(codecs[i], &cc[i]->compress_Bps, &cc[i]->decompress_Bps,
                                 &cc[i]->ratio) != 0)
        memset(cc[i], 0, sizeof *cc[i]);
    size_t elen = 16384;
    char *extra = malloc(elen), pj[6000];
    size_t k = (size_t)snprintf(
        extra, elen,
        "{\"note\":\"written by arcoll-calibrate (%d ranks); half round trips in seconds, min and "
        "median of each size; see collectives/README.md\",\"generator\":\"arcoll-calibrate\","
        "\"%s\":true,\"hosts\":{\"rank0\":\"%s\"",
        P, copied ? copied : "both_classes_measured", names);
    if (intra.have)
      k += (size_t)snprintf(extra + k, elen - k, ",\"intra_peer\":\"%s\"",
                            names + (size_t)intra.b * MPI_MAX_PROCESSOR_NAME);
    if (inter.have)
      k += (size_t)snprintf(extra + k, elen - k, ",\"inter_peer\":\"%s\"",
                            names + (size_t)inter.b * MPI_MAX_PROCESSOR_NAME);
    k += (size_t)snprintf(extra + k, elen - k, "},\"measurements\":{");
    int first = 1;
    if (intra.have) {
      points_json(pj, sizeof pj, &intra);
      k += (size_t)snprintf(extra + k, elen - k, "\"intra\":%s", pj);
      first = 0;
    }
    if (inter.have) {
      points_json(pj, sizeof pj, &inter);
      k += (size_t)snprintf(extra + k, elen - k, "%s\"inter\":%s", first ? "" : ",", pj);
    }
    snprintf(extra + k, elen - k, "}}");
    char err[512];
    if (arcoll_model_save(out, &m, extra, err, sizeof err) != 0) {
      fprintf(stderr, "arcoll-calibrate: %s\n", err);
      rc = 1;
    } else if (!quiet) {
      if (intra.have) print_class(stdout, "intra", &intra);
      if (inter.have) print_class(stdout, "inter", &inter);
      if (copied) printf("# %s\n", copied);
      printf("# gamma=%.4e s/B\n", gamma);
      for (int i = 0; i < 2; ++i)
        printf("# codec %s: compress %.4e B/s, decompress %.4e B/s, ratio %.3f (text-like)\n",
               arcoll_codec_name(codecs[i]), cc[i]->compress_Bps, cc[i]->decompress_Bps,
               cc[i]->ratio);
      printf("# wrote %s\n", out);
    }
    free(extra);
  }
  free(buf);
  free(names);
  MPI_Bcast(&rc, 1, MPI_INT, 0, comm);
  MPI_Finalize();
  return rc;
}
