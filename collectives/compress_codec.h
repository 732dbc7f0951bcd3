/**
 * @file compress_codec.h
 * @brief Thin wrapper over the system's LZ4 (liblz4) and zstd (libzstd,
 *        level 1) block codecs for the compressed collectives, and their
 *        throughput measured once per process.
 *
 * Source: seed 004_045dc3534e1f0a8b.txt (ZipMPI: collectives compress their
 * payload with a fast lossless codec, LZO there, before sending; +16.9 % /
 * +45.5 % on 100 Mb/s Ethernet).  No codec of our own: LZ4 and zstd are the
 * Debian packages liblz4-dev and libzstd-dev.  Sizes are bytes, times
 * seconds, throughputs bytes/second (of uncompressed data).
 */
#ifndef ARCOLL_COLLECTIVES_COMPRESS_CODEC_H
#define ARCOLL_COLLECTIVES_COMPRESS_CODEC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Encodings of a segment / a stream (the values travel in message headers). */
typedef enum arcoll_codec {
  ARCOLL_CODEC_RAW = 0,  /**< bytes stored as they are */
  ARCOLL_CODEC_LZ4 = 1,  /**< LZ4 block (LZ4_compress_default) */
  ARCOLL_CODEC_ZSTD = 2, /**< zstd frame, level ARCOLL_ZSTD_LEVEL */
  ARCOLL_CODEC_COUNT = 3
} arcoll_codec_t;

/** Largest input of one compress / decompress call, bytes (1 GiB); larger
 *  blocks travel raw. */
#define ARCOLL_CODEC_MAX_BYTES ((size_t)1 << 30)

/** zstd compression level (fast end: seed 004 wants speed over ratio). */
#define ARCOLL_ZSTD_LEVEL 1

/** "raw", "lz4", "zstd" (NULL for an invalid value). */
const char *arcoll_codec_name(arcoll_codec_t c);

/** Largest compressed size (bytes) of n input bytes (n <= 1 GiB); n for RAW. */
size_t arcoll_codec_bound(arcoll_codec_t c, size_t n);

/**
 * Compress src[0..n) into dst[0..cap).  Returns the compressed size in
 * bytes, or 0 when the codec failed or the result would not be smaller than
 * n (the caller then stores the bytes raw).  c == RAW returns 0.  n <= 1 GiB.
 */
size_t arcoll_codec_compress(arcoll_codec_t c, const void *src, size_t n, void *dst, size_t cap);

/**
 * Decompress src[0..len) into dst, which must receive exactly n bytes.
 * RAW copies (len must equal n).  Returns 0, or -1 when the input is corrupt
 * or does not decompress to exactly n bytes.
 */
int arcoll_codec_decompress(arcoll_codec_t c, const void *src, size_t len, void *dst, size_t n);

/**
 * Throughputs of codec c on this process's CPU, bytes of uncompressed data
 * per second: *comp_Bps (compression), *decomp_Bps (decompression).  Measured
 * once per process on first use (256 KiB of text-like data, wall clock,
 * best of 3; under SMPI with smpi/simulate-computation this CPU time is what
 * the simulation charges), then cached.  RAW: memcpy speed.
 */
void arcoll_codec_speed(arcoll_codec_t c, double *comp_Bps, double *decomp_Bps);

/**
 * Measure codec c now (what arcoll_codec_speed() caches, and what
 * `arcoll calibrate` writes to the model file's "codec" entry): compress
 * and decompress 256 KiB of arcoll_text_like() data in 64 KiB blocks, best
 * of 3, wall clock.  Fills *comp_Bps / *decomp_Bps (bytes/second of
 * uncompressed data) and *ratio (input / output bytes, blocks that do not
 * shrink counted as stored); any pointer may be NULL.  Returns 0, or -1
 * (out of memory, invalid codec; nothing filled).  Does not touch the cache.
 */
int arcoll_codec_benchmark(arcoll_codec_t c, double *comp_Bps, double *decomp_Bps,
                           double *ratio);

/**
 * Override the cached throughputs of codec c (tests, or a calibration file);
 * values <= 0 forget the override and measure again on next use.
 */
void arcoll_codec_set_speed(arcoll_codec_t c, double comp_Bps, double decomp_Bps);

/**
 * Fill buf[0..n) with deterministic text-like bytes (English words, spaces,
 * commas, newlines; about 4-6x compressible with LZ4), a function of seed.
 * Used for the throughput measurement, the tests and the benchmark.
 */
void arcoll_text_like(char *buf, size_t n, unsigned seed);

/** Kinds of arcoll_sample_data(). */
enum { ARCOLL_DATA_TEXT, ARCOLL_DATA_RANDOM, ARCOLL_DATA_ZEROS, ARCOLL_DATA_KINDS };

/**
 * Fill buf[0..n) with deterministic sample data, a function of seed:
 * ARCOLL_DATA_TEXT arcoll_text_like(); ARCOLL_DATA_RANDOM xorshift bytes
 * (incompressible: a codec's output is larger); ARCOLL_DATA_ZEROS zeros.
 * For the tests and benchmarks of the compressed collectives.
 */
void arcoll_sample_data(char *buf, size_t n, int kind, unsigned seed);

#ifdef __cplusplus
}
#endif
#endif
