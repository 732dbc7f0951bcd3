/* Injection plan of the profiler fidelity test (fidelity_app.c injects it,
 * fidelity_check.cpp compares the trace analysis with it). Pure C, no MPI.
 *
 * Three call sites (0: MPI_Allreduce, 1: MPI_Allgather, 2: MPI_Barrier),
 * FID_ITERS iterations of the three. Before every call each rank computes
 * FID_BASE seconds plus a deterministic jitter in [0, FID_JITTER) plus its
 * injected delay. Four distinct random ranks are delayed: kinds "single" (one
 * rank, constant delay), "pair" (two ranks at the same site, different
 * constant delays) and "drift" (one rank, delay growing by a constant step
 * per iteration); the kinds go to the sites in a random order. All seconds. */
#ifndef ARCOLL_FIDELITY_PLAN_H
#define ARCOLL_FIDELITY_PLAN_H

#include <stdint.h>

#define FID_SITES 3
#define FID_NINJ 4
#define FID_BASE 50e-6
#define FID_JITTER 0.5e-6

typedef struct {
  int rank;      /* world rank */
  int site;      /* 0..FID_SITES-1 */
  double delay;  /* seconds at iteration 0 */
  double drift;  /* seconds added per iteration */
} fid_injection;

typedef struct {
  fid_injection inj[FID_NINJ];
} fid_plan;

static inline uint64_t fid_next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static inline double fid_uniform(uint64_t *s, double lo, double hi) {
  return lo + (hi - lo) * (double)(fid_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/** The plan for `nranks` (>= 4) ranks and `seed`. */
static inline void fid_make_plan(int nranks, uint64_t seed, fid_plan *p) {
  uint64_t s = seed;
  int ranks[FID_NINJ], n = 0;
  while (n < FID_NINJ) {
    int r = (int)(fid_next(&s) % (uint64_t)nranks), dup = 0;
    for (int i = 0; i < n; i++) dup |= ranks[i] == r;
    if (!dup) ranks[n++] = r;
  }
  int site[FID_SITES] = {0, 1, 2}; /* site of single, pair, drift */
  for (int i = FID_SITES - 1; i > 0; i--) {
    int j = (int)(fid_next(&s) % (uint64_t)(i + 1)), t = site[i];
    site[i] = site[j];
    site[j] = t;
  }
  p->inj[0] = (fid_injection){ranks[0], site[0], fid_uniform(&s, 0.3e-3, 2e-3), 0};
  p->inj[1] = (fid_injection){ranks[1], site[1], fid_uniform(&s, 0.3e-3, 2e-3), 0};
  p->inj[2] = (fid_injection){ranks[2], site[1], fid_uniform(&s, 0.3e-3, 2e-3), 0};
  p->inj[3] = (fid_injection){ranks[3], site[2], fid_uniform(&s, 0.1e-3, 0.4e-3), fid_uniform(&s, 5e-6, 30e-6)};
}

/** Injected delay of `rank` before its call at `site` in iteration `iter`. */
static inline double fid_delay(const fid_plan *p, int rank, int site, int iter) {
  double d = 0;
  for (int i = 0; i < FID_NINJ; i++)
    if (p->inj[i].rank == rank && p->inj[i].site == site) d += p->inj[i].delay + p->inj[i].drift * iter;
  return d;
}

/** Deterministic jitter in [0, FID_JITTER) of every rank's computation. */
static inline double fid_jitter(int rank, int site, int iter) {
  uint64_t s = ((uint64_t)rank << 32) ^ ((uint64_t)site << 24) ^ (uint64_t)iter;
  return fid_uniform(&s, 0, FID_JITTER);
}

#endif
