/**
 * @file wl_common.h
 * @brief Helpers shared by the placement workloads (plain MPI, no arcoll
 *        headers): option parsing, a deterministic PRNG and the one-line
 *        result every workload prints.
 *
 * Result line (rank 0, stdout, one line, `key=value` pairs separated by
 * single spaces, parsed by tools/placement-experiments.sh):
 *
 *     WORKLOAD name=<name> ranks=<P> iters=<N> bytes=<B> comm_time_s=<T> errors=<E> status=<OK|FAIL> [extra...]
 *
 *  - bytes: point-to-point payload bytes sent by all ranks over all timed
 *    iterations (sum over ranks);
 *  - comm_time_s: seconds (MPI_Wtime; simulated time under SMPI), the
 *    largest over the ranks of the time a rank spent in the communication
 *    calls of the timed iterations (verification is excluded);
 *  - errors: number of wrong received elements summed over the ranks; the
 *    program exits 1 when it is not 0.
 */
#ifndef ARCOLL_WORKLOADS_COMMON_H
#define ARCOLL_WORKLOADS_COMMON_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** splitmix64: deterministic 64-bit mixing (same numbers on every rank and backend). */
static inline uint64_t wl_mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/** Deterministic 32-bit payload value for (a, b, c, d): senders write it,
 *  receivers recompute and compare it. */
static inline int32_t wl_value(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  return (int32_t)(wl_mix64(wl_mix64(wl_mix64(a) ^ b) ^ (c << 20) ^ d) & 0x7fffffff);
}

/**
 * Scrambled rank numbering: perm[k] = the MPI rank that plays logical
 * position k (a Fisher-Yates shuffle driven by wl_mix64(seed); the same on
 * every rank), as a batch scheduler or a library's internal numbering may
 * leave ranks. inv[perm[k]] = k when inv is not NULL.
 */
static inline void wl_scramble(int P, uint64_t seed, int *perm, int *inv) {
  for (int k = 0; k < P; ++k) perm[k] = k;
  for (int k = P - 1; k > 0; --k) {
    int j = (int)(wl_mix64(seed * 0x100000001ull + (uint64_t)k) % (uint64_t)(k + 1));
    int t = perm[k];
    perm[k] = perm[j];
    perm[j] = t;
  }
  if (inv)
    for (int k = 0; k < P; ++k) inv[perm[k]] = k;
}

/** True if x is a positive power of two. */
static inline int wl_is_pow2(long x) { return x > 0 && (x & (x - 1)) == 0; }

/** Number of bits of a power of two (log2). */
static inline int wl_log2(long x) {
  int l = 0;
  while ((1L << l) < x) ++l;
  return l;
}

/**
 * Parses "-X VALUE" options into longs. `spec` lists the option letters
 * (e.g. "bin"); values[k] receives the value of spec[k] when given. On an
 * unknown option, a missing or non-positive value, prints `usage` (rank 0)
 * and returns 0; returns 1 on success. String options are handled by the
 * caller before (see `strs`): letters in `strspec` store the argv pointer.
 */
static inline int wl_parse(int argc, char **argv, const char *spec, long *values, const char *strspec,
                           const char **strs, const char *usage, int rank) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (a[0] != '-' || a[1] == '\0' || a[2] != '\0' || i + 1 >= argc) goto bad;
    const char *p = strchr(spec, a[1]);
    if (p && a[1]) {
      char *end = NULL;
      long v = strtol(argv[i + 1], &end, 10);
      if (*end != '\0' || v <= 0) goto bad;
      values[p - spec] = v;
      ++i;
      continue;
    }
    p = strspec ? strchr(strspec, a[1]) : NULL;
    if (p && a[1]) {
      strs[p - strspec] = argv[i + 1];
      ++i;
      continue;
    }
  bad:
    if (rank == 0) fprintf(stderr, "%s: bad argument \"%s\"\nusage: %s %s\n", argv[0], a, argv[0], usage);
    return 0;
  }
  return 1;
}

/** Largest divisor of P not above P^(1/dims) (dims 2 or 3): the first grid extent. */
static inline int wl_grid_extent(int P, int dims) {
  int e = 1;
  for (long d = 1; (dims == 2 ? d * d : d * d * d) <= P; ++d)
    if (P % d == 0) e = (int)d;
  return e;
}

/**
 * One halo exchange of `ndir` faces of n int32 each (ndir even: direction d's
 * opposite is d ^ 1, e.g. 0 west / 1 east, 2 south / 3 north, 4 down / 5 up):
 * MPI_Irecv from every nb[d] with tag d ^ 1 (the tag is the direction of
 * travel: the face received from the west travelled east), MPI_Isend of the
 * face for d to nb[d] with tag d, one MPI_Waitall. sbuf / rbuf hold ndir * n int32
 * (ndir <= 6). The payload of (rank, d, it) is wl_value; adds the timed
 * seconds to *t_comm and returns the number of wrong received elements
 * (checked after the timing).
 */
static inline long wl_halo_exchange(int rank, const int *nb, int ndir, long n, int it, int32_t *sbuf,
                                    int32_t *rbuf, double *t_comm) {
  for (int d = 0; d < ndir; ++d)
    for (long e = 0; e < n; ++e) sbuf[d * n + e] = wl_value(rank, d, it, e);
  MPI_Request rq[12];
  MPI_Status st[12]; /* (not MPI_STATUSES_IGNORE: GCC's -Wstringop-overflow misfires on it) */
  double t0 = MPI_Wtime();
  for (int d = 0; d < ndir; ++d) MPI_Irecv(rbuf + d * n, (int)n, MPI_INT32_T, nb[d], d ^ 1, MPI_COMM_WORLD, &rq[d]);
  for (int d = 0; d < ndir; ++d)
    MPI_Isend(sbuf + d * n, (int)n, MPI_INT32_T, nb[d], d, MPI_COMM_WORLD, &rq[ndir + d]);
  MPI_Waitall(2 * ndir, rq, st);
  *t_comm += MPI_Wtime() - t0;
  long errors = 0;
  for (int d = 0; d < ndir; ++d)
    for (long e = 0; e < n; ++e) errors += rbuf[d * n + e] != wl_value(nb[d], d ^ 1, it, e);
  return errors;
}

/**
 * Reduces and prints the result line (see the file comment). `extra` is
 * appended verbatim (may be ""). Collective over MPI_COMM_WORLD. Returns the
 * process exit code: 0 when no rank saw an error, 1 otherwise.
 */
static inline int wl_report(const char *name, int iters, double local_bytes, double local_time, long local_errors,
                            const char *extra) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double bytes = 0, tmax = 0;
  long errors = 0;
  MPI_Reduce(&local_bytes, &bytes, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&local_time, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&local_errors, &errors, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("WORKLOAD name=%s ranks=%d iters=%d bytes=%.0f comm_time_s=%.9e errors=%ld status=%s%s%s\n", name, size,
           iters, bytes, tmax, errors, errors ? "FAIL" : "OK", extra && *extra ? " " : "", extra ? extra : "");
    fflush(stdout);
  }
  return errors ? 1 : 0;
}

#endif
