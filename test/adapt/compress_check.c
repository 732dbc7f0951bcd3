/*
 * MPI_Bcast through libarcoll with the compressed broadcast (seed
 * 004_045dc3534e1f0a8b.txt; collectives/bcast.h arcoll_bcast_compressed,
 * compress_decide.h).  argv[1]:
 *   forced  (ARCOLL_BCAST_ALGORITHM=compressed): every call with data runs
 *           `compressed`; data bit-identical; every rank saw the same codec
 *   switch  (forced, ARCOLL_COMPRESS=auto, ARCOLL_MODEL of a 100 Mb/s
 *           network): also the root's decision: text-like and all-zero data
 *           of 1 MiB compressed, random data and 70001 bytes... of random
 *           data raw (introspection: arcoll_bcast_last_codec, never time)
 *   auto    (ARCOLL_BCAST_ALGORITHM unset): repeated calls, the online
 *           selection measuring `compressed` among the others; data only
 * Data: text-like, random, all-zero; every root; 0, 1, 70001 and 1 MiB bytes
 * as MPI_BYTE, as MPI_INT, and a strided vector (derived) datatype.
 * Prints "compress_check MODE P=N: OK|FAIL (...)".
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "compress_codec.h" /* arcoll_text_like */

#define CHECK_PROG "compress_check"
static long checked, failures;
static int me, P;

typedef const char *(*codec_fn)(double *, int *);
#ifdef ARCOLL_TEST_LINKED
const char *arcoll_bcast_last_codec(double *ratio, int *decided_here);
#endif

enum { TEXT = ARCOLL_DATA_TEXT, RANDOM = ARCOLL_DATA_RANDOM, ZEROS = ARCOLL_DATA_ZEROS, NKIND = ARCOLL_DATA_KINDS };
static const char *const kind_name[NKIND] = {"text", "random", "zeros"};


static int codec_index(const char *c) {
  return !c ? -1 : !strcmp(c, "raw") ? 0 : !strcmp(c, "lz4") ? 1 : !strcmp(c, "zstd") ? 2 : 9;
}

/* One MPI_Bcast of n bytes as (count, type): type 0 MPI_BYTE, 1 MPI_INT;
 * returns the root's codec index as every rank saw it (-1: none). */
static int one(const char *mode, int root, size_t n, int kind, int as_int) {
  static unsigned seed = 1;
  char *ref = malloc(n + 8), *buf = malloc(n + 8);
  arcoll_sample_data(ref, n, kind, seed++);
  memcpy(buf, ref, n);
  if (me != root) memset(buf, 0x5A, n + 8);
  const int count = as_int ? (int)(n / 4) : (int)n;
  const size_t moved = as_int ? (n / 4) * 4 : n;
  int rc = MPI_Bcast(buf, count, as_int ? MPI_INT : MPI_BYTE, root, MPI_COMM_WORLD);
  CHECK(rc == MPI_SUCCESS, "root %d %s %zu B: rc %d", root, kind_name[kind], n, rc);
  CHECK(memcmp(buf, ref, moved) == 0, "root %d %s %zu B int %d: data differ", root,
        kind_name[kind], n, as_int);
  const char *algo = get_last() ? get_last()("bcast") : NULL;
  codec_fn last_codec = ARCOLL_TEST_SYMBOL(codec_fn, arcoll_bcast_last_codec);
  int codec = -1, lo, hi;
  if (strcmp(mode, "auto") != 0 && moved > 0 && P > 1) {
    CHECK(algo && !strcmp(algo, "compressed"), "root %d %zu B: algorithm %s", root, moved,
          algo ? algo : "(none)");
    codec = codec_index(last_codec ? last_codec(NULL, NULL) : NULL);
  }
  MPI_Allreduce(&codec, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&codec, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(lo == hi, "root %d %s %zu B: codecs %d..%d differ between ranks", root, kind_name[kind],
        moved, lo, hi);
  free(ref), free(buf);
  return codec;
}

static void derived(int root) {
  MPI_Datatype v; /* 20000 x (3 doubles of every 5) */
  MPI_Type_vector(20000, 3, 5, MPI_DOUBLE, &v);
  MPI_Type_commit(&v);
  const int n = 20000 * 5;
  double *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; ++i) b[i] = me == root ? (i % 5 < 3 ? (double)(i % 97) : -1.0) : -2.0;
  CHECK(MPI_Bcast(b, 1, v, root, MPI_COMM_WORLD) == MPI_SUCCESS, "derived root %d: rc", root);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += b[i] != (i % 5 < 3 ? (double)(i % 97) : (me == root ? -1.0 : -2.0));
  CHECK(bad == 0, "derived root %d: %d doubles wrong", root, bad);
  free(b);
  MPI_Type_free(&v);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "forced";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const size_t sizes[] = {0, 1, 70001, 1 << 20};
  const int reps = strcmp(mode, "auto") == 0 ? 12 : 1;
  for (int root = 0; root < P; ++root) {
    for (int kind = 0; kind < NKIND; ++kind)
      for (int si = 0; si < 4; ++si)
        for (int r = 0; r < reps; ++r) {
          const int codec = one(mode, root, sizes[si], kind, (si + kind) % 2);
          if (!strcmp(mode, "switch") && P > 1 && sizes[si] >= 65536) {
            if (kind == RANDOM)
              CHECK(codec == 0, "switch: random %zu B root %d compressed (%d)", sizes[si], root,
                    codec);
            else
              CHECK(codec == 1 || codec == 2, "switch: %s %zu B root %d not compressed (%d)",
                    kind_name[kind], sizes[si], root, codec);
          }
        }
    derived(root);
  }
  long mine[2] = {failures, checked}, tot[2];
  MPI_Reduce(mine, tot, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (me == 0)
    printf("%s %s P=%d: %s (%ld failures, %ld checks)\n", CHECK_PROG, mode, P,
           tot[0] ? "FAIL" : "OK", tot[0], tot[1]);
  MPI_Finalize();
  return me == 0 && tot[0] ? 1 : 0;
}
