/*
 * The compressed alltoall (collectives/alltoall.h arcoll_alltoall_compressed,
 * seed 004_045dc3534e1f0a8b.txt) called directly: orders identity /
 * reversed / shuffled on MPI_COMM_WORLD and a reversed communicator,
 * text-like, random and all-zero blocks of 0, 1, 65535, 65536, 70001 and
 * (identity order) 200000 bytes, MPI_IN_PLACE, modes auto / off / lz4 /
 * zstd, derived types on either side (strided vector receive type, strided
 * vector send type).  Checks: every received block bit-identical to the
 * block its sender generated independently, nothing written past the end;
 * each rank's decision (introspection, not time): with the model of a
 * 100 Mb/s network, auto compresses text-like / zero blocks when (P-1)
 * blocks reach 64 KiB, never random ones; off never; lz4 / zstd always.
 */
#define CHECK_PROG "compressed_alltoall_check"
#include "../algo_check.h"

#include <stdint.h>
#include <string.h>

#include "alltoall.h"
#include "compress_decide.h"

enum { TEXT = ARCOLL_DATA_TEXT, RANDOM = ARCOLL_DATA_RANDOM, ZEROS = ARCOLL_DATA_ZEROS, NKIND = ARCOLL_DATA_KINDS };
static const char *const kind_name[NKIND] = {"text", "random", "zeros"};

/* Block from rank q to rank t: sample(kind, seed + q P + t). */
static void block(char *b, size_t m, int kind, unsigned seed, int P, int q, int t) {
  arcoll_sample_data(b, m, kind, seed + (unsigned)(q * P + t));
}

static void bytes_case(MPI_Comm comm, const int *order, size_t m, int kind,
                       arcoll_compress_mode_t mode, int inplace, const char *what) {
  int P, r;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  const unsigned seed = (unsigned)(next_id += P * P);
  char *snd = malloc(m * P + 1), *out = malloc(m * P + 1), *ref = malloc(m * P + 1);
  for (int t = 0; t < P; ++t) block(snd + t * m, m, kind, seed, P, r, t);
  for (int q = 0; q < P; ++q) block(ref + q * m, m, kind, seed, P, q, r);
  memset(out, 0x5A, m * P + 1);
  if (inplace) memcpy(out, snd, m * P);
  const arcoll_sched_t s = {order, 0, 0, 95};
  arcoll_compress_configure(mode, 50e-6, 12.5e6); /* 100 Mb/s */
  int rc = arcoll_alltoall_compressed(inplace ? MPI_IN_PLACE : snd, (MPI_Aint)m, MPI_BYTE, out,
                                      (MPI_Aint)m, MPI_BYTE, comm, &s);
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  CHECK(memcmp(out, ref, m * P) == 0, "%s: data differ", what);
  CHECK((unsigned char)out[m * P] == 0x5A, "%s: wrote past the end", what);
  arcoll_compress_decision_t d;
  if (P > 1 && m > 0 && arcoll_compress_last(&d) == 0) {
    const int z = d.codec != ARCOLL_CODEC_RAW;
    if (mode == ARCOLL_COMPRESS_OFF) CHECK(!z, "%s: off but codec %d", what, d.codec);
    if (mode == ARCOLL_COMPRESS_LZ4) CHECK(d.codec == ARCOLL_CODEC_LZ4, "%s: lz4: %d", what, d.codec);
    if (mode == ARCOLL_COMPRESS_ZSTD) CHECK(d.codec == ARCOLL_CODEC_ZSTD, "%s: zstd: %d", what, d.codec);
    if (mode == ARCOLL_COMPRESS_AUTO)
      CHECK(z == (kind != RANDOM && m * (size_t)(P - 1) >= ARCOLL_COMPRESS_MIN_BYTES),
            "%s: auto chose codec %d (ratio %.2f)", what, d.codec, d.ratio);
  }
  free(snd), free(out), free(ref);
}

/* Derived types: 1000 ints per block sent as MPI_INT and received with a
 * resized stride-3 vector; then sent with a stride-2 vector (blocks 2000
 * ints apart) and received as MPI_INT. */
static void derived(MPI_Comm comm, const int *order) {
  int P, r;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  MPI_Datatype v, vr, sv, svr;
  MPI_Type_vector(1000, 1, 3, MPI_INT, &v);
  MPI_Type_create_resized(v, 0, 3000 * sizeof(int), &vr);
  MPI_Type_commit(&vr);
  MPI_Type_vector(1000, 1, 2, MPI_INT, &sv);
  MPI_Type_create_resized(sv, 0, 2000 * sizeof(int), &svr);
  MPI_Type_commit(&svr);
  int *snd = malloc(sizeof(int) * 2000 * P), *out = malloc(sizeof(int) * 3000 * P);
  int *flat = malloc(sizeof(int) * 1000 * P); /* block t: flat[t * 1000 + 0..999] */
  for (int t = 0; t < P; ++t)
    for (int i = 0; i < 2000; ++i) snd[t * 2000 + i] = (r * 31 + t) * 7 + (i % 13);
  for (int t = 0; t < P; ++t)
    for (int i = 0; i < 1000; ++i) flat[t * 1000 + i] = (r * 31 + t) * 7 + (i % 13);
  for (int i = 0; i < 3000 * P; ++i) out[i] = -1;
  const arcoll_sched_t s = {order, 0, 0, 96};
  arcoll_compress_configure(ARCOLL_COMPRESS_LZ4, 50e-6, 12.5e6);
  int rc = arcoll_alltoall_compressed(flat, 1000, MPI_INT, out, 1, vr, comm, &s);
  CHECK(rc == MPI_SUCCESS, "derived recv: rc %d", rc);
  int bad = 0; /* block q at out[q * 3000], every third int: rank q's flat[r * 1000 + 0..999] */
  for (int q = 0; q < P; ++q)
    for (int i = 0; i < 3000; ++i)
      bad += out[q * 3000 + i] != (i % 3 == 0 ? (q * 31 + r) * 7 + ((i / 3) % 13) : -1);
  CHECK(bad == 0, "derived recv: %d ints wrong", bad);
  for (int i = 0; i < 1000 * P; ++i) out[i] = -1;
  rc = arcoll_alltoall_compressed(snd, 1, svr, out, 1000, MPI_INT, comm, &s);
  CHECK(rc == MPI_SUCCESS, "derived send: rc %d", rc);
  bad = 0; /* element j of block q: rank q's snd[r * 2000 + 2 j] */
  for (int q = 0; q < P; ++q)
    for (int j = 0; j < 1000; ++j) bad += out[q * 1000 + j] != (q * 31 + r) * 7 + ((2 * j) % 13);
  CHECK(bad == 0, "derived send: %d ints wrong", bad);
  free(snd), free(out), free(flat);
  MPI_Type_free(&v), MPI_Type_free(&vr), MPI_Type_free(&sv), MPI_Type_free(&svr);
}

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const size_t sizes[] = {0, 1, 65535, 65536, 70001, 200000};
  const arcoll_compress_mode_t modes[] = {ARCOLL_COMPRESS_AUTO, ARCOLL_COMPRESS_OFF,
                                          ARCOLL_COMPRESS_LZ4, ARCOLL_COMPRESS_ZSTD};
  char what[160];
  for (int o = 0; o < norders; ++o) {
    algo_check_order(o, P, 17u, order);
    for (int kind = 0; kind < NKIND; ++kind)
      for (int si = 0; si < (int)(sizeof sizes / sizeof sizes[0]); ++si) {
        if (sizes[si] == 200000 && o != 0) continue; /* P^2 x 200 KB */
        for (int mi = 0; mi < 4; ++mi) {
          if (sizes[si] >= 65535 && (mi + si + kind + o) % 2) continue; /* half the modes */
          snprintf(what, sizeof what, "%s %s %zu B mode %d", algo_check_order_name[o],
                   kind_name[kind], sizes[si], mi);
          bytes_case(comm, order, sizes[si], kind, modes[mi], (si + mi) % 2, what);
        }
      }
    derived(comm, order);
  }
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 50e-6, 12.5e6);
  free(order);
}

int main(int argc, char **argv) {
  const algo_check_t d = {NULL, NULL, run_all, 1};
  return algo_check_main(argc, argv, &d);
}
