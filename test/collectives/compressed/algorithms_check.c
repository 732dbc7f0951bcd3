/*
 * The compressed broadcast (collectives/bcast.h arcoll_bcast_compressed,
 * seed 004_045dc3534e1f0a8b.txt) called directly: every root, orders
 * identity / reversed / shuffled, text-like, random and all-zero data,
 * sizes 0, 1, below / above / not a multiple of the segment, segments
 * 64 KiB (default), 4 KiB, 1 KiB, modes auto / off / lz4 / zstd, and a
 * derived (strided vector) datatype.  Checks: every byte equal to the
 * root's; every rank saw the root's codec (the decision travels in the
 * first header); with the model of a 100 Mb/s network, auto compresses
 * text-like data of 64 KiB and more and never random data or below 64 KiB.
 */
#define CHECK_PROG "compressed_algorithms_check"
#include "../algo_check.h"

#include <stdint.h>
#include <string.h>

#include "bcast.h"
#include "compress_decide.h"

enum { TEXT = ARCOLL_DATA_TEXT, RANDOM = ARCOLL_DATA_RANDOM, ZEROS = ARCOLL_DATA_ZEROS, NKIND = ARCOLL_DATA_KINDS };
static const char *const kind_name[NKIND] = {"text", "random", "zeros"};


/* One call; returns the root's codec (every rank). */
static int one(MPI_Comm comm, const int *order, int root, MPI_Aint n, int kind, MPI_Aint seg,
               const char *what) {
  const unsigned seed = (unsigned)next_id++;
  char *ref = malloc((size_t)n + 1), *buf = malloc((size_t)n + 1);
  arcoll_sample_data(ref, n, kind, seed);
  int r;
  MPI_Comm_rank(comm, &r);
  if (r == root) memcpy(buf, ref, (size_t)n);
  else memset(buf, 0x5A, (size_t)n + 1);
  const arcoll_sched_t s = {order, seg, 0, 77};
  int rc = arcoll_bcast_compressed(buf, n, MPI_BYTE, root, comm, &s);
  CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
  CHECK(memcmp(buf, ref, (size_t)n) == 0, "%s: data differ", what);
  if (r != root) CHECK((unsigned char)buf[n] == 0x5A, "%s: wrote past the end", what);
  arcoll_compress_decision_t d = {ARCOLL_CODEC_RAW, 1, -1, -1, 0, 0};
  int codec = n > 0 && arcoll_compress_last(&d) == 0 ? (int)d.codec : -1, lo, hi;
  MPI_Allreduce(&codec, &lo, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(&codec, &hi, 1, MPI_INT, MPI_MAX, comm);
  int P;
  MPI_Comm_size(comm, &P);
  if (n > 0 && P > 1) CHECK(lo == hi, "%s: ranks saw codecs %d..%d", what, lo, hi);
  free(ref), free(buf);
  MPI_Bcast(&codec, 1, MPI_INT, root, comm);
  return codec;
}

static void derived(MPI_Comm comm, const int *order, int root) {
  /* 3000 blocks of 5 ints, stride 7: bytes 0..3000*7*4 with holes */
  MPI_Datatype v;
  MPI_Type_vector(3000, 5, 7, MPI_INT, &v);
  MPI_Type_commit(&v);
  const int n = 3000 * 7;
  int *buf = malloc(sizeof(int) * n), r;
  MPI_Comm_rank(comm, &r);
  for (int i = 0; i < n; ++i) buf[i] = r == root ? (i % 7 < 5 ? (i / 3) % 50 : -1) : -2;
  const arcoll_sched_t s = {order, 8192, 0, 78};
  int rc = arcoll_bcast_compressed(buf, 1, v, root, comm, &s);
  CHECK(rc == MPI_SUCCESS, "derived root %d: rc %d", root, rc);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += buf[i] != (i % 7 < 5 ? (i / 3) % 50 : (r == root ? -1 : -2));
  CHECK(bad == 0, "derived root %d: %d ints wrong", root, bad);
  free(buf);
  MPI_Type_free(&v);
}

static void run_all(MPI_Comm comm, int norders) {
  int P;
  MPI_Comm_size(comm, &P);
  int *order = malloc(sizeof(int) * (size_t)P);
  const MPI_Aint sizes[] = {0, 1, 1000, 65535, 65536, 70001, 200000};
  const MPI_Aint segs[] = {0, 4096, 1024};
  const arcoll_compress_mode_t modes[] = {ARCOLL_COMPRESS_AUTO, ARCOLL_COMPRESS_OFF,
                                          ARCOLL_COMPRESS_LZ4, ARCOLL_COMPRESS_ZSTD};
  char what[160];
  for (int o = 0; o < norders; ++o)
    for (int root = 0; root < P; ++root) {
      int base[64];
      algo_check_order(o, P, 11u, base);
      /* the order must start at the root: rotate the permutation */
      int at = 0;
      while (base[at] != root) ++at;
      for (int i = 0; i < P; ++i) order[i] = base[(at + i) % P];
      for (int kind = 0; kind < NKIND; ++kind)
        for (int si = 0; si < (int)(sizeof sizes / sizeof sizes[0]); ++si) {
          const int mi = (root + si + kind + o) % 4;
          const MPI_Aint seg = segs[(si + kind) % 3];
          arcoll_compress_configure(modes[mi], 50e-6, 12.5e6); /* 100 Mb/s */
          snprintf(what, sizeof what, "%s root %d %s %ld B seg %ld mode %d",
                   algo_check_order_name[o], root, kind_name[kind], (long)sizes[si], (long)seg, mi);
          const int codec = one(comm, order, root, sizes[si], kind, seg, what);
          if (sizes[si] == 0 || P < 2) continue;
          if (modes[mi] == ARCOLL_COMPRESS_OFF)
            CHECK(codec == ARCOLL_CODEC_RAW, "%s: off but codec %d", what, codec);
          if (modes[mi] == ARCOLL_COMPRESS_LZ4)
            CHECK(codec == ARCOLL_CODEC_LZ4, "%s: lz4 but codec %d", what, codec);
          if (modes[mi] == ARCOLL_COMPRESS_ZSTD)
            CHECK(codec == ARCOLL_CODEC_ZSTD, "%s: zstd but codec %d", what, codec);
          if (modes[mi] == ARCOLL_COMPRESS_AUTO) {
            const int want = kind != RANDOM && sizes[si] >= ARCOLL_COMPRESS_MIN_BYTES;
            CHECK((codec != ARCOLL_CODEC_RAW) == want, "%s: auto chose codec %d", what, codec);
          }
        }
      arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 50e-6, 12.5e6);
      if (P > 1) derived(comm, order, root);
    }
  free(order);
}

int main(int argc, char **argv) {
  const algo_check_t d = {NULL, NULL, run_all, 1};
  return algo_check_main(argc, argv, &d);
}
