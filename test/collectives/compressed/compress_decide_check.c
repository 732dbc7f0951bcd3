/*
 * The switch of the compressed collectives without MPI communication
 * (collectives/compress_decide.h, compress_codec.h; seed
 * 004_045dc3534e1f0a8b.txt): codec round trips (LZ4, zstd, raw; text-like,
 * random, all-zero, 1 byte), ARCOLL_COMPRESS parsing, and the decision:
 * 100 Mb/s network, 1 MiB: text-like -> a codec, random -> raw, below
 * 64 KiB -> raw, off -> raw, lz4 / zstd -> that codec; a 100 GB/s network
 * (faster than any codec) -> raw for text-like data too.  Codec throughputs
 * are fixed (arcoll_codec_set_speed) so that the verdict does not depend on
 * this machine's speed.  The broadcast's segment size: with a model whose
 * curve moves 8 KiB messages best (SMPI's default factors on 100 Mb/s), the
 * compressed segments of 1 MiB of text are 7..8 KiB on the wire, a multiple
 * of 1 KiB raw; lz4 / zstd forced keep the schedule's segment.  The model
 * file's codec entry (loaded from a file written here): a very slow codec
 * makes text raw, a fast one compresses, and the entry wins over the
 * throughputs measured or set.  The gather / alltoall shapes: text
 * compressed, random raw.  Prints "compress_decide_check: OK" or FAIL.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compress_decide.h"
#include "select.h"

#define CHECK_PROG "compress_decide_check"
static long checked, failures;
static int me;
#include "../../check.h"

static void random_bytes(char *b, size_t n, uint64_t x) {
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b[i] = (char)(x >> 24);
  }
}

static void roundtrip(arcoll_codec_t c, const char *src, size_t n, const char *what) {
  size_t cap = arcoll_codec_bound(c, n) + 1;
  char *z = malloc(cap), *out = malloc(n + 1);
  size_t len = arcoll_codec_compress(c, src, n, z, cap);
  CHECK(len < n || len == 0, "%s %s: compressed %zu >= %zu", arcoll_codec_name(c), what, len, n);
  const arcoll_codec_t used = len ? c : ARCOLL_CODEC_RAW;
  int rc = arcoll_codec_decompress(used, len ? z : src, len ? len : n, out, n);
  CHECK(rc == 0 && memcmp(out, src, n) == 0, "%s %s: round trip differs", arcoll_codec_name(c),
        what);
  if (len > 1) /* a truncated stream must be reported, never accepted */
    CHECK(arcoll_codec_decompress(c, z, len - 1, out, n) != 0, "%s %s: truncated accepted",
          arcoll_codec_name(c), what);
  free(z), free(out);
}

int main(void) {
  const size_t n = 1 << 20;
  char *text = malloc(n), *rnd = malloc(n), *zero = calloc(n, 1);
  arcoll_text_like(text, n, 3u);
  random_bytes(rnd, n, 0x1234567ull);
  for (int c = 0; c < ARCOLL_CODEC_COUNT; ++c) {
    roundtrip((arcoll_codec_t)c, text, n, "text");
    roundtrip((arcoll_codec_t)c, rnd, n, "random");
    roundtrip((arcoll_codec_t)c, zero, n, "zeros");
    roundtrip((arcoll_codec_t)c, text, 1, "1 byte");
    roundtrip((arcoll_codec_t)c, text, 100001, "100001 bytes");
  }
  arcoll_compress_mode_t m = ARCOLL_COMPRESS_OFF;
  CHECK(arcoll_compress_parse("auto", &m) == 0 && m == ARCOLL_COMPRESS_AUTO, "parse auto");
  CHECK(arcoll_compress_parse("", &m) == 0 && m == ARCOLL_COMPRESS_AUTO, "parse empty");
  CHECK(arcoll_compress_parse("off", &m) == 0 && m == ARCOLL_COMPRESS_OFF, "parse off");
  CHECK(arcoll_compress_parse("lz4", &m) == 0 && m == ARCOLL_COMPRESS_LZ4, "parse lz4");
  CHECK(arcoll_compress_parse("zstd", &m) == 0 && m == ARCOLL_COMPRESS_ZSTD, "parse zstd");
  CHECK(arcoll_compress_parse("gzip", &m) != 0 && m == ARCOLL_COMPRESS_ZSTD, "parse gzip");
  CHECK(arcoll_compress_parse("LZ4", &m) != 0, "parse LZ4 (case)");

  /* codecs of a modest CPU: LZ4 400 / 2000 MB/s, zstd 250 / 700 MB/s */
  arcoll_codec_set_speed(ARCOLL_CODEC_LZ4, 4e8, 2e9);
  arcoll_codec_set_speed(ARCOLL_CODEC_ZSTD, 2.5e8, 7e8);
  arcoll_compress_decision_t d;
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 50e-6, 12.5e6); /* 100 Mb/s */
  CHECK(arcoll_compress_decide(text, n, 20, 65536, &d) != ARCOLL_CODEC_RAW,
        "text 1 MiB, 100 Mb/s: not compressed (ratio %.2f, raw %g s, codec %g s)", d.ratio,
        d.t_raw_s, d.t_codec_s);
  CHECK(d.ratio > 2.0, "text ratio %.2f <= 2", d.ratio);
  CHECK(arcoll_compress_decide(zero, n, 20, 65536, &d) != ARCOLL_CODEC_RAW, "zeros: raw");
  CHECK(arcoll_compress_decide(rnd, n, 20, 65536, &d) == ARCOLL_CODEC_RAW,
        "random 1 MiB: compressed with %d (ratio %.3f)", d.codec, d.ratio);
  CHECK(d.ratio < 1.05, "random ratio %.3f", d.ratio);
  CHECK(arcoll_compress_decide(text, 65535, 20, 65536, &d) == ARCOLL_CODEC_RAW,
        "text below 64 KiB compressed");
  CHECK(arcoll_compress_decide(text, n, 1, 65536, &d) == ARCOLL_CODEC_RAW, "P = 1 compressed");
  arcoll_compress_configure(ARCOLL_COMPRESS_AUTO, 1e-6, 1e11); /* 100 GB/s */
  CHECK(arcoll_compress_decide(text, n, 20, 65536, &d) == ARCOLL_CODEC_RAW,
        "text on 100 GB/s compressed (raw %g s, codec %g s)", d.t_raw_s, d.t_codec_s);
  arcoll_compress_configure(ARCOLL_COMPRESS_OFF, 50e-6, 12.5e6);
  CHECK(arcoll_compress_decide(text, n, 20, 65536, &d) == ARCOLL_CODEC_RAW, "off compressed");
  arcoll_compress_configure(ARCOLL_COMPRESS_LZ4, 0, 0);
  CHECK(arcoll_compress_decide(rnd, n, 20, 65536, &d) == ARCOLL_CODEC_LZ4, "lz4 forced");
  arcoll_compress_configure(ARCOLL_COMPRESS_ZSTD, 0, 0);
  CHECK(arcoll_compress_decide(text, 100, 20, 65536, &d) == ARCOLL_CODEC_ZSTD, "zstd forced");

  /* the segment size from the ratio: a 100 Mb/s curve whose per-byte
   * time is lowest at 8 KiB (SMPI's factors: 1024 B 0.35, 4 KiB 0.77,
   * 8 KiB 1.087, 16 KiB 0.587, 64 KiB 0.94 of the bandwidth) */
  arcoll_model_t md;
  arcoll_model_default(&md);
  md.inter.t_s = 2e-4, md.inter.B = 12.5e6, md.inter.G = 1 / 12.5e6;
  const double cb[] = {0, 1024, 4096, 8192, 16384, 65536, 1 << 22};
  const double eff[] = {1, 0.35, 0.77, 1.087, 0.587, 0.94, 0.94};
  md.inter_curve.n = 7;
  for (int i = 0; i < 7; ++i)
    md.inter_curve.bytes[i] = cb[i], md.inter_curve.seconds[i] = 2e-4 + cb[i] / (12.5e6 * eff[i]);
  arcoll_compress_configure_model(ARCOLL_COMPRESS_AUTO, &md);
  CHECK(arcoll_compress_decide(text, n, 20, 8192, &d) != ARCOLL_CODEC_RAW, "curve: text raw");
  CHECK(d.seg % 1024 == 0 && d.seg >= 1024 && d.seg <= (1 << 20), "curve: segment %ld",
        (long)d.seg);
  CHECK(d.seg / d.ratio > 7 * 1024 && d.seg / d.ratio <= 8192,
        "curve: segment %ld at ratio %.2f: %.0f B on the wire, not 7..8 KiB", (long)d.seg,
        d.ratio, d.seg / d.ratio);
  CHECK(d.t_codec_s > 0 && d.t_codec_s < 0.5 * d.t_raw_s, "curve: predicted %g vs raw %g s",
        d.t_codec_s, d.t_raw_s);
  CHECK(arcoll_compress_decide(rnd, n, 20, 8192, &d) == ARCOLL_CODEC_RAW && d.seg == 8192,
        "curve: random %d, segment %ld", d.codec, (long)d.seg);
  arcoll_compress_configure_model(ARCOLL_COMPRESS_ZSTD, NULL);
  CHECK(arcoll_compress_decide(text, n, 20, 4096, &d) == ARCOLL_CODEC_ZSTD && d.seg == 4096,
        "zstd forced: segment %ld, not the schedule's", (long)d.seg);
  /* gather / alltoall shapes on the same network: 1 MiB of 52 KiB blocks */
  arcoll_compress_configure_model(ARCOLL_COMPRESS_AUTO, NULL);
  const arcoll_compress_shape_t gsh = {1, 19, 0, 1}, ash = {1, 19, 1, 1};
  CHECK(arcoll_compress_decide_shape(text, 52428, 52428, &gsh, 19 * 52428, &d) != ARCOLL_CODEC_RAW,
        "gather shape: text raw (%g vs %g s)", d.t_codec_s, d.t_raw_s);
  CHECK(arcoll_compress_decide_shape(rnd, 52428, 52428, &gsh, 19 * 52428, &d) == ARCOLL_CODEC_RAW,
        "gather shape: random compressed");
  CHECK(arcoll_compress_decide_shape(text, n, 52428, &ash, 19 * 52428, &d) != ARCOLL_CODEC_RAW,
        "alltoall shape: text raw");
  CHECK(arcoll_compress_decide_shape(rnd, n, 52428, &ash, 19 * 52428, &d) == ARCOLL_CODEC_RAW,
        "alltoall shape: random compressed");

  /* the model file's codec entry changes the decision */
  const char *path = "compress_decide_check.model.json";
  const char *fmt = "{\"version\": 1, \"gamma\": 0,\n"
                    " \"intra\": {\"t_s\": 5e-5, \"B\": 1.25e7, \"L\": 4e-5, \"o\": 1e-6, \"g\": 4e-6, \"G\": 8e-8},\n"
                    " \"inter\": {\"t_s\": 5e-5, \"B\": 1.25e7, \"L\": 4e-5, \"o\": 1e-6, \"g\": 4e-6, \"G\": 8e-8},\n"
                    " \"codec\": {\"lz4\": {\"compress_Bps\": %g, \"decompress_Bps\": %g, \"ratio\": 4},\n"
                    "           \"zstd\": {\"compress_Bps\": %g, \"decompress_Bps\": %g, \"ratio\": 5}}}\n";
  const double speeds[2] = {1e3, 1e11}; /* 1 kB/s: slower than the network; 100 GB/s */
  for (int i = 0; i < 2; ++i) {
    FILE *f = fopen(path, "w");
    fprintf(f, fmt, speeds[i], speeds[i], speeds[i], speeds[i]);
    fclose(f);
    char err[512] = "";
    CHECK(arcoll_model_load(path, &md, err, sizeof err) == 0, "codec entry file: %s", err);
    CHECK(md.codec_zstd.compress_Bps == speeds[i] && md.codec_lz4.ratio == 4,
          "codec entry read: zstd %g B/s, lz4 ratio %g", md.codec_zstd.compress_Bps,
          md.codec_lz4.ratio);
    arcoll_compress_configure_model(ARCOLL_COMPRESS_AUTO, &md);
    const arcoll_codec_t c = arcoll_compress_decide(text, n, 20, 65536, &d);
    CHECK((c != ARCOLL_CODEC_RAW) == (i == 1), "codec entry %g B/s: codec %d (raw %g, codec %g s)",
          speeds[i], c, d.t_raw_s, d.t_codec_s);
    /* without the entry, the set throughputs (400 / 250 MB/s) compress */
    md.codec_lz4.compress_Bps = md.codec_zstd.compress_Bps = 0;
    arcoll_compress_configure_model(ARCOLL_COMPRESS_AUTO, &md);
    CHECK(arcoll_compress_decide(text, n, 20, 65536, &d) != ARCOLL_CODEC_RAW,
          "no codec entry: text raw");
  }
  remove(path);

  /* the measured throughputs are positive and finite */
  arcoll_codec_set_speed(ARCOLL_CODEC_LZ4, 0, 0);
  double vc = 0, vd = 0;
  arcoll_codec_speed(ARCOLL_CODEC_LZ4, &vc, &vd);
  CHECK(vc > 1e6 && vd > 1e6 && vc < 1e13 && vd < 1e13, "lz4 measured %g / %g B/s", vc, vd);
  printf("%s: %s (%ld failures, %ld checks; lz4 measured %.0f / %.0f MB/s)\n", CHECK_PROG,
         failures ? "FAIL" : "OK", failures, checked, vc / 1e6, vd / 1e6);
  free(text), free(rnd), free(zero);
  return failures ? 1 : 0;
}
