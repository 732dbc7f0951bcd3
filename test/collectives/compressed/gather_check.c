/*
 * The compressed gather (collectives/gather.h arcoll_gather_compressed,
 * seed 004_045dc3534e1f0a8b.txt) called directly: every root, orders
 * identity / reversed / shuffled (the schedule's order, rotated to the root)
 * on MPI_COMM_WORLD and a reversed communicator, text-like, random and
 * all-zero blocks of 0, 1, 65535, 65536, 70001 and 200000 bytes, MPI_IN_PLACE
 * at the root, modes auto / off / lz4 / zstd, derived types on either side
 * (a strided vector receive type; a strided vector send type).  Checks:
 * the root's recvbuf bit-identical to the blocks generated independently
 * per rank, nothing written past its end, non-root buffers untouched; each
 * sender's decision (introspection, not time): with the model of a
 * 100 Mb/s network, auto compresses text-like / zero blocks when (P-1)
 * blocks reach 64 KiB, never random ones; off never; lz4 / zstd always.
 */
#define CHECK_PROG "compressed_gather_check"
#include "../algo_check.h"

#include <stdint.h>
#include <string.h>

#include "compress_decide.h"
#include "gather.h"

enum { TEXT = ARCOLL_DATA_TEXT, RANDOM = ARCOLL_DATA_RANDOM, ZEROS = ARCOLL_DATA_ZEROS, NKIND = ARCOLL_DATA_KINDS };
static const char *const kind_name[NKIND] = {"text", "random", "zeros"};

/* One gather of m-byte blocks (MPI_BYTE), rank q's block = sample(seed + q). */
static void bytes_case(MPI_Comm comm, const int *order, int root, size_t m, int kind,
                       arcoll_compress_mode_t mode, int inplace, const char *what) {
  int P, r;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  const unsigned seed = (unsigned)(next_id += P);
  char *ref = malloc(m * P + 1), *out = malloc(m * P + 1), *mine = malloc(m + 1);
  for (int q = 0; q < P; ++q) arcoll_sample_data(ref + q * m, m, kind, seed + (unsigned)q);
  memset(out, 0x5A, m * P + 1);
  memcpy(mine, ref + r * m, m);
  if (inplace && r == root) memcpy(out + r * m, mine, m);
  const arcoll_sched_t s = {order, 0, 0, 93};
  arcoll_compress_configure(mode, 50e-6, 12.5e6); /* 100 Mb/s */
  int rc = arcoll_gather_compressed(inplace && r == root ? MPI_IN_PLACE : mine, (MPI_Aint)m,
                                    MPI_BYTE, out, (MPI_Aint)m, MPI_BYTE, root, comm, &s);
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  if (r == root) {
    CHECK(memcmp(out, ref, m * P) == 0, "%s: data differ", what);
    CHECK((unsigned char)out[m * P] == 0x5A, "%s: wrote past the end", what);
  } else {
    size_t touched = 0;
    for (size_t i = 0; i <= m * P; ++i) touched += (unsigned char)out[i] != 0x5A;
    CHECK(touched == 0, "%s: non-root recvbuf written (%zu bytes)", what, touched);
  }
  arcoll_compress_decision_t d;
  if (P > 1 && m > 0 && r != root && arcoll_compress_last(&d) == 0) {
    const int z = d.codec != ARCOLL_CODEC_RAW;
    if (mode == ARCOLL_COMPRESS_OFF) CHECK(!z, "%s: off but codec %d", what, d.codec);
    if (mode == ARCOLL_COMPRESS_LZ4) CHECK(d.codec == ARCOLL_CODEC_LZ4, "%s: lz4: %d", what, d.codec);
    if (mode == ARCOLL_COMPRESS_ZSTD) CHECK(d.codec == ARCOLL_CODEC_ZSTD, "%s: zstd: %d", what, d.codec);
    if (mode == ARCOLL_COMPRESS_AUTO)
      CHECK(z == (kind != RANDOM && m * (size_t)(P - 1) >= ARCOLL_COMPRESS_MIN_BYTES),
            "%s: auto chose codec %d (ratio %.2f)", what, d.codec, d.ratio);
  }
  free(ref), free(out), free(mine);
}

/* Derived types: receive blocks of 1000 ints with stride 3 (resized vector)
 * from MPI_INT sends; then send 1000 ints with stride 2 (a vector) into
 * contiguous MPI_INT blocks.  The root's own block in place every other root. */
static void derived(MPI_Comm comm, const int *order, int root) {
  int P, r;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &r);
  MPI_Datatype v, vr, sv;
  MPI_Type_vector(1000, 1, 3, MPI_INT, &v);
  MPI_Type_create_resized(v, 0, 3000 * sizeof(int), &vr);
  MPI_Type_commit(&vr);
  MPI_Type_vector(1000, 1, 2, MPI_INT, &sv);
  MPI_Type_commit(&sv);
  int *mine = malloc(sizeof(int) * 2000), *out = malloc(sizeof(int) * 3000 * P);
  for (int i = 0; i < 2000; ++i) mine[i] = r * 7 + (i % 13);
  for (int i = 0; i < 3000 * P; ++i) out[i] = -1;
  const arcoll_sched_t s = {order, 0, 0, 94};
  arcoll_compress_configure(ARCOLL_COMPRESS_ZSTD, 50e-6, 12.5e6);
  int rc = arcoll_gather_compressed(mine, 1000, MPI_INT, out, 1, vr, root, comm, &s);
  CHECK(rc == MPI_SUCCESS, "derived recv root %d: rc %d", root, rc);
  int bad = 0;
  if (r == root)
    for (int q = 0; q < P; ++q)
      for (int i = 0; i < 3000; ++i)
        bad += out[q * 3000 + i] != (i % 3 == 0 ? q * 7 + ((i / 3) % 13) : -1);
  CHECK(bad == 0, "derived recv root %d: %d ints wrong", root, bad);
  /* vector send type: element j of rank q's block = its mine[2 j] */
  for (int i = 0; i < 1000 * P; ++i) out[i] = -1;
  const int inplace = root % 2 && r == root;
  if (inplace)
    for (int j = 0; j < 1000; ++j) out[r * 1000 + j] = mine[2 * j];
  rc = arcoll_gather_compressed(inplace ? MPI_IN_PLACE : (void *)mine, 1, sv, out, 1000, MPI_INT,
                                root, comm, &s);
  CHECK(rc == MPI_SUCCESS, "derived send root %d: rc %d", root, rc);
  bad = 0;
  if (r == root)
    for (int q = 0; q < P; ++q)
      for (int j = 0; j < 1000; ++j) bad += out[q * 1000 + j] != q * 7 + ((2 * j) % 13);
  CHECK(bad == 0, "derived send root %d: %d ints wrong", root, bad);
  free(mine), free(out);
  MPI_Type_free(&v), MPI_Type_free(&vr), MPI_Type_free(&sv);
}

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P), *base = malloc(sizeof(int) * (size_t)P);
  const size_t sizes[] = {0, 1, 65535, 65536, 70001, 200000};
  const arcoll_compress_mode_t modes[] = {ARCOLL_COMPRESS_AUTO, ARCOLL_COMPRESS_OFF,
                                          ARCOLL_COMPRESS_LZ4, ARCOLL_COMPRESS_ZSTD};
  char what[160];
  for (int o = 0; o < norders; ++o)
    for (int root = 0; root < P; ++root) {
      algo_check_order(o, P, 13u, base);
      int at = 0; /* the order starts at the root */
      while (base[at] != root) ++at;
      for (int i = 0; i < P; ++i) order[i] = base[(at + i) % P];
      for (int kind = 0; kind < NKIND; ++kind)
        for (int si = 0; si < (int)(sizeof sizes / sizeof sizes[0]); ++si) {
          /* 200000-byte blocks at the first root only (P x 200 KB each) */
          if (sizes[si] == 200000 && root != 0) continue;
          const int mi = (root + si + kind + o) % 4;
          snprintf(what, sizeof what, "%s root %d %s %zu B mode %d", algo_check_order_name[o],
                   root, kind_name[kind], sizes[si], mi);
          bytes_case(comm, order, root, sizes[si], kind, modes[mi], (si + kind + root) % 2, what);
        }
      derived(comm, order, root);
    }
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 50e-6, 12.5e6);
  free(order), free(base);
}

int main(int argc, char **argv) {
  const algo_check_t d = {NULL, NULL, run_all, 1};
  return algo_check_main(argc, argv, &d);
}
