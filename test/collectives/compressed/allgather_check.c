/*
 * The compressed allgather (collectives/allgather.h
 * arcoll_allgather_compressed, seed 004_045dc3534e1f0a8b.txt) called
 * directly: orders identity / reversed / shuffled, text-like, random and
 * all-zero blocks, block sizes 1 B .. 70001 B (not multiples of anything),
 * MPI_IN_PLACE, a derived (strided vector) receive type, modes auto / off /
 * lz4 / zstd.  Checks: every block bit-identical on every rank; each owner's
 * decision (introspection, not time): with the model of a 100 Mb/s network,
 * auto compresses text-like blocks when (P-1) blocks reach 64 KiB, never
 * random ones; off never; lz4 / zstd always.
 */
#define CHECK_PROG "compressed_allgather_check"
#include "../algo_check.h"

#include <stdint.h>
#include <string.h>

#include "allgather.h"
#include "compress_decide.h"

enum { TEXT = ARCOLL_DATA_TEXT, RANDOM = ARCOLL_DATA_RANDOM, ZEROS = ARCOLL_DATA_ZEROS, NKIND = ARCOLL_DATA_KINDS };


static void bytes_case(MPI_Comm comm, const int *order, size_t m, int kind, int mi, int inplace) {
  int P, r;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  const unsigned seed = (unsigned)(next_id += P);
  char *ref = malloc(m * P + 1), *out = malloc(m * P + 1), *mine = malloc(m + 1);
  for (int q = 0; q < P; ++q) arcoll_sample_data(ref + q * m, m, kind, seed + (unsigned)q);
  memset(out, 0x5A, m * P + 1);
  memcpy(mine, ref + r * m, m);
  if (inplace) memcpy(out + r * m, mine, m);
  const arcoll_sched_t s = {order, 0, 0, 91};
  int rc = arcoll_allgather_compressed(inplace ? MPI_IN_PLACE : mine, (MPI_Aint)m, MPI_BYTE, out,
                                       (MPI_Aint)m, MPI_BYTE, comm, &s);
  CHECK(rc == MPI_SUCCESS, "m %zu kind %d mode %d: rc %d", m, kind, mi, rc);
  CHECK(memcmp(out, ref, m * P) == 0, "m %zu kind %d mode %d inplace %d: data differ", m, kind, mi,
        inplace);
  CHECK((unsigned char)out[m * P] == 0x5A, "m %zu: wrote past the end", m);
  arcoll_compress_decision_t d;
  if (P > 1 && arcoll_compress_last(&d) == 0) {
    const int z = d.codec != ARCOLL_CODEC_RAW;
    if (mi == ARCOLL_COMPRESS_OFF) CHECK(!z, "m %zu off: codec %d", m, d.codec);
    if (mi == ARCOLL_COMPRESS_LZ4) CHECK(d.codec == ARCOLL_CODEC_LZ4, "m %zu lz4: %d", m, d.codec);
    if (mi == ARCOLL_COMPRESS_ZSTD) CHECK(d.codec == ARCOLL_CODEC_ZSTD, "m %zu zstd: %d", m, d.codec);
    if (mi == ARCOLL_COMPRESS_AUTO)
      CHECK(z == (kind != RANDOM && m * (size_t)(P - 1) >= ARCOLL_COMPRESS_MIN_BYTES),
            "m %zu P %d kind %d auto: codec %d", m, P, kind, d.codec);
  }
  free(ref), free(out), free(mine);
}

/* Receive type: blocks of 1000 ints with stride 3 (a vector), send type MPI_INT. */
static void derived(MPI_Comm comm, const int *order) {
  int P, r;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  MPI_Datatype v, vr;
  MPI_Type_vector(1000, 1, 3, MPI_INT, &v);
  MPI_Type_create_resized(v, 0, 3000 * sizeof(int), &vr);
  MPI_Type_commit(&vr);
  int *mine = malloc(sizeof(int) * 1000), *out = malloc(sizeof(int) * 3000 * P);
  for (int i = 0; i < 1000; ++i) mine[i] = r * 7 + (i % 13);
  for (int i = 0; i < 3000 * P; ++i) out[i] = -1;
  const arcoll_sched_t s = {order, 0, 0, 92};
  int rc = arcoll_allgather_compressed(mine, 1000, MPI_INT, out, 1, vr, comm, &s);
  CHECK(rc == MPI_SUCCESS, "derived: rc %d", rc);
  int bad = 0;
  for (int q = 0; q < P; ++q)
    for (int i = 0; i < 3000; ++i)
      bad += out[q * 3000 + i] != (i % 3 == 0 ? q * 7 + ((i / 3) % 13) : -1);
  CHECK(bad == 0, "derived: %d ints wrong", bad);
  free(mine), free(out);
  MPI_Type_free(&v), MPI_Type_free(&vr);
}

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const size_t sizes[] = {1, 1000, 4099, 70001};
  for (int o = 0; o < norders; ++o) {
    algo_check_order(o, P, 5u, order);
    for (int kind = 0; kind < NKIND; ++kind)
      for (int si = 0; si < 4; ++si)
        for (int mi = 0; mi < 4; ++mi) {
          arcoll_compress_configure((arcoll_compress_mode_t)mi, 50e-6, 12.5e6); /* 100 Mb/s */
          bytes_case(comm, order, sizes[si], kind, mi, (si + mi) % 2);
        }
    arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 50e-6, 12.5e6);
    derived(comm, order);
  }
  free(order);
}

int main(int argc, char **argv) {
  const algo_check_t d = {NULL, NULL, run_all, 1};
  return algo_check_main(argc, argv, &d);
}
